"""The web app's play API: a whole data against a bot, hidden cards, illegal plays, restarts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cuarenta_sim.cuarenta.cards import card_name
from cuarenta_sim.cuarenta.game_record import read_record
from cuarenta_sim.web.play import restore
from cuarenta_sim.web.store import GameStore


def hidden_cards(db: Path, game_id: str) -> list[str]:
    """The cards the human's seat may not see now: the bot's hand and the undealt stock, read
    from the server's stored state."""
    row = GameStore(db).load(game_id)
    assert row is not None
    game = restore(row.id, row.settings, row.state, row.record)
    st = game.state.state
    if st is None:
        return []
    return [card_name(c) for c in list(st.hands[game.bot]) + list(st.stock)]


def assert_hides(text: str, hidden: list[str], html: bool = False) -> None:
    """No hidden card in a response: as a JSON string, or as a drawn card of a page."""
    for name in hidden:
        needle = f'title="{name}"' if html else f'"{name}"'
        assert needle not in text, f"{name} leaked: {text[:300]}"


def test_a_whole_data_through_the_api_never_shows_a_hidden_card(
    client: TestClient, db: Path
) -> None:
    created = client.post("/api/games", json={"bot": "heuristic", "seat": 1})
    view = created.json()  # seat 0 deals (episode data): the human plays first
    gid = view["id"]
    responses = 0
    hinted = False
    scanned = 0
    hidden = hidden_cards(db, gid)
    assert_hides(created.text, hidden)
    while view["status"] == "playing":
        # ``hidden`` is what the human may not see in the state that answered last.
        assert len(hidden) >= view["bot_cards"]
        scanned += len(hidden)
        assert_hides(client.get(f"/api/games/{gid}").text, hidden)
        assert_hides(client.get(f"/games/{gid}").text, hidden, html=True)
        assert view["to_play"] == "you" and view["legal"], view
        assert all(c not in view["hand"] for c in hidden)
        if not hinted and view["deal"] == 2:
            hint = client.post(f"/api/games/{gid}/hint")
            assert hint.status_code == 200, hint.text
            assert_hides(hint.text, hidden)
            assert {v["action"] for v in hint.json()["values"]} == {
                p["action"] for p in view["legal"]
            }
            hinted = True
        # Alternate the two ways of naming a play: its id, or a card of the hand.
        if responses % 2:
            body: dict[str, Any] = {"action": view["legal"][-1]["action"]}
        else:
            first = view["legal"][0]
            card = next(c for c in view["hand"] if c[:-1] == first["card"])
            body = {"card": card, "base": first["base"]}
        response = client.post(f"/api/games/{gid}/play", json=body)
        assert response.status_code == 200, response.text
        hidden = hidden_cards(db, gid)
        assert_hides(response.text, hidden)
        view = response.json()
        responses += 1
    assert hinted and responses == 20  # 2 players: 4 deals of 5 cards each (R3.2)
    assert scanned > 200  # the bot's hand and the stock were there to leak
    assert view["winner"] in (0, 1, None) and view["legal"] == []
    assert sum(1 for e in view["events"] if e["kind"] == "play") == 40
    # The stored record is a whole game record the rules engine accepts.
    record = client.get(f"/api/games/{gid}/record").json()
    checked = read_record(record)
    assert len(checked.decisions) == 40
    assert record["result"]["scores"] == view["scores"]
    # Its review, as JSON and as a page.
    review = client.get(f"/api/games/{gid}/review")
    assert review.status_code == 200, review.text
    assert len(review.json()["decisions"]) == 40
    page = client.get(f"/games/{gid}/review")
    assert page.status_code == 200 and "data:image/png;base64," in page.text
    over = client.post(f"/api/games/{gid}/play", json={"action": 0})
    assert over.status_code == 409 and over.json()["error"]


def test_an_illegal_play_is_refused_with_a_message_and_changes_nothing(
    client: TestClient, start: Callable[..., dict[str, Any]]
) -> None:
    view = start()
    gid = view["id"]
    legal = {p["action"] for p in view["legal"]}
    illegal = next(a for a in range(53) if a not in legal)
    response = client.post(
        f"/api/games/{gid}/play", json={"action": illegal}, params={"lang": "en"}
    )
    assert response.status_code == 422
    message = response.json()["error"]
    assert message.startswith("Illegal play:") and "legal:" in message
    not_mine = next(card_name(c) for c in range(40) if card_name(c) not in view["hand"])
    response = client.post(f"/api/games/{gid}/play", json={"card": not_mine})
    assert response.status_code == 422 and "Jugada no permitida" in response.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == view


def test_a_new_app_on_the_same_database_finds_the_game(
    make_client: Callable[..., TestClient], start: Callable[..., dict[str, Any]]
) -> None:
    view = start(bot="learned")
    gid = view["id"]
    first = make_client()
    view = first.post(f"/api/games/{gid}/play", json={"action": view["legal"][0]["action"]}).json()
    restarted = make_client()  # a restart: nothing in memory, the same SQLite file
    assert restarted.get(f"/api/games/{gid}").json() == view
    assert gid in restarted.get("/").text
    after = restarted.post(f"/api/games/{gid}/play", json={"action": view["legal"][0]["action"]})
    assert after.status_code == 200 and len(after.json()["events"]) > len(view["events"])


def test_a_whole_chica_is_recorded_data_by_data_and_the_rules_accept_the_record(
    client: TestClient, start: Callable[..., dict[str, Any]]
) -> None:
    view = start(episode="chica", rules="cuenca")
    gid = view["id"]
    datas_seen = {view["data"]}
    moves = 0
    while view["status"] == "playing":
        response = client.post(
            f"/api/games/{gid}/play", json={"action": view["legal"][0]["action"]}
        )
        assert response.status_code == 200, response.text
        view = response.json()
        datas_seen.add(view["data"])
        moves += 1
        assert moves < 400
    assert view["winner"] in (0, 1) and max(view["scores"]) >= view["target"]  # R9.2
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(record["datas"]) == max(datas_seen) >= 2 and record["rules"].startswith("cuenca")
    checked = read_record(record)  # every deal, dealer and play checked by the engine
    assert list(checked.final.board.scores) == view["scores"]
    assert client.post(f"/api/games/{gid}/hint").status_code == 409
