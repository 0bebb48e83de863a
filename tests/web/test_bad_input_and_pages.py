"""The web app trusts nothing: bad bodies, unknown ids, oversized bodies; its pages in both
languages; its own script and styles (no CDN)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cuarenta_sim.web.app import MAX_BODY


def error_of(response: Any, status: int) -> str:
    """The one-line ``error`` message of a JSON error response with ``status``."""
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error"}, body
    message = body["error"]
    assert message and "\n" not in message and "Traceback" not in response.text
    return message


def test_malformed_bodies_unknown_ids_and_oversized_bodies_get_clear_errors(
    client: TestClient, start: Callable[..., dict[str, Any]]
) -> None:
    gid = start()["id"]
    headers = {"Content-Type": "application/json"}
    en = {"lang": "en"}
    play = f"/api/games/{gid}/play"
    assert "not valid JSON" in error_of(
        client.post(play, content=b'{"action": ', headers=headers, params=en), 400
    )
    assert "JSON object" in error_of(client.post(play, json=[1, 2], params=en), 400)
    assert "bytes" in error_of(
        client.post(play, content=b" " * (MAX_BODY + 1), headers=headers, params=en), 413
    )
    assert "unknown field" in error_of(client.post(play, json={"seat": 1}, params=en), 422)
    assert "play id" in error_of(client.post(play, json={"action": "7"}, params=en), 422)
    assert "Zz" in error_of(client.post(play, json={"card": "Zz"}, params=en), 422)
    assert "no game" in error_of(client.get("/api/games/0123456789abcdef", params=en), 404)
    assert "No existe" in error_of(client.get("/api/games/not-an-id"), 404)
    assert error_of(client.get("/api/nothing-here"), 404)
    new = "/api/games"
    assert "rules: " in error_of(client.post(new, json={"rules": "nowhere"}, params=en), 422)
    assert "bot: " in error_of(client.post(new, json={"bot": "bogus"}, params=en), 422)
    assert "at most 64" in error_of(client.post(new, json={"bot": "pimc(samples=100)"}), 422)
    assert "episode" in error_of(client.post(new, json={"episode": "mesa"}), 422)
    assert "seat" in error_of(client.post(new, json={"seat": 3}), 422)
    assert "Unknown field" in error_of(client.post(new, json={"hands": []}, params=en), 422)
    assert "not over" in error_of(client.get(f"/api/games/{gid}/record", params=en), 409)
    assert "not over" in error_of(client.get(f"/api/games/{gid}/review", params=en), 409)
    page = client.get("/games/0123456789abcdef")
    assert page.status_code == 404 and "No existe la partida" in page.text


def test_pages_render_in_spanish_first_and_in_english_kept_in_a_cookie(
    client: TestClient, start: Callable[..., dict[str, Any]]
) -> None:
    gid = start()["id"]
    home = client.get("/")
    assert home.status_code == 200 and "Nueva partida" in home.text and 'lang="es"' in home.text
    english = client.get("/", params={"lang": "en"})
    assert "New game" in english.text and english.cookies.get("lang") == "en"
    client.cookies.set("lang", "en")
    assert "New game" in client.get("/").text  # the cookie keeps the choice
    game = client.get(f"/games/{gid}")
    assert game.status_code == 200 and "Your hand" in game.text and "Your turn" in game.text
    assert "Su mano" in client.get(f"/games/{gid}", params={"lang": "es"}).text
    client.cookies.set("lang", "es")
    page = client.get(f"/games/{gid}").text
    assert "Su mano" in page and "Pista" in page and 'class="card' in page
    # Every legal play is shown with what it scores before it is made.
    assert page.count('class="play"') == len(client.get(f"/api/games/{gid}").json()["legal"])


def test_the_pages_script_and_styles_ship_in_the_package_no_cdn(client: TestClient) -> None:
    for name, kind in (("app.js", "javascript"), ("style.css", "css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and kind in response.headers["content-type"]
    templates = Path(__file__).parents[2] / "cuarenta_sim" / "web" / "templates"
    for path in templates.glob("*.html.j2"):
        assert not re.search(r"(src|href)=\"(https?:)?//", path.read_text()), path
    assert client.get("/static/../app.py").status_code == 404
