// cuarenta-sim web app: the page's own small script (no framework, no CDN).
// The server holds every game; this script only sends (game id, play) and shows the answer.
"use strict";

function showMessage(text) {
  const box = document.getElementById("message");
  if (!box) return;
  box.textContent = text;
  box.hidden = !text;
}

async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {error: response.statusText}; }
  return {ok: response.ok, data: data};
}

function setBusy(busy) {
  document.querySelectorAll("button").forEach((b) => { b.disabled = busy; });
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("new-game");
  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const f = new FormData(form);
      setBusy(true);
      const r = await postJson("/api/games", {
        rules: f.get("rules"), bot: f.get("bot"), episode: f.get("episode"),
        seat: Number(f.get("seat")),
      });
      setBusy(false);
      if (r.ok) { window.location = "/games/" + r.data.id; } else { showMessage(r.data.error); }
    });
  }
  document.querySelectorAll("button.play").forEach((button) => {
    button.addEventListener("click", async () => {
      const game = button.closest("[data-game]").dataset.game;
      setBusy(true);
      const r = await postJson("/api/games/" + game + "/play", {action: Number(button.dataset.action)});
      if (r.ok) { window.location.reload(); } else { setBusy(false); showMessage(r.data.error); }
    });
  });
  const hint = document.querySelector("button.hint");
  if (hint) {
    hint.addEventListener("click", async () => {
      showMessage(hint.dataset.thinking);
      setBusy(true);
      const r = await postJson("/api/games/" + hint.dataset.game + "/hint", {});
      setBusy(false);
      if (!r.ok) { showMessage(r.data.error); return; }
      showMessage("");
      r.data.values.forEach((v) => {
        const span = document.querySelector('span.advice[data-action="' + v.action + '"]');
        if (!span) return;
        let words = hint.dataset.value.replace("{v}", Number(v.value).toFixed(2));
        if (v.action === r.data.advised) { words += " · " + hint.dataset.best; span.classList.add("best"); }
        span.textContent = words;
      });
    });
  }
});
