"""The play-by-play text of format_game: everything a player needs to check a game by eye."""

from __future__ import annotations

import re

from cuarenta_sim.cuarenta.cards import card_name
from cuarenta_sim.cuarenta.reference import format_game, play_game
from cuarenta_sim.cuarenta.reference.events import (
    AnnounceEvent,
    ChicaEnd,
    DealEvent,
    EndEvent,
    PlayEvent,
)


def test_header_deals_plays_and_end_of_data() -> None:
    log = play_game("quito_torneo", 2, ("greedy", "random"), seed=8, level="chica", index=1)
    text = format_game(log)
    assert "rules: quito_torneo" in text and "seed: 8" in text
    assert f"first dealer: seat {log.first_dealer}" in text
    for e in log.events:
        if isinstance(e, DealEvent):
            for cards in e.hands:
                # Suits are shown: the dealt hand, card by card, in id order.
                assert " ".join(card_name(c) for c in sorted(cards)) in text
    plays = [e for e in log.events if isinstance(e, PlayEvent)]
    assert text.count(" trails ") + text.count(" plays ") == len(plays)
    assert text.count("end of data") == sum(isinstance(e, EndEvent) for e in log.events)
    end = next(e for e in log.events if isinstance(e, ChicaEnd))
    assert f"won by side {end.winner}, {end.scores[0]}-{end.scores[1]}" in text
    assert ("(zapateria)" in text) == end.zapateria


def test_caida_limpia_runs_and_scores_are_shown() -> None:
    log = play_game("cuenca", 2, "greedy", seed=3, level="chica")
    text = format_game(log)
    plays = [e for e in log.events if isinstance(e, PlayEvent)]
    assert text.count("caida") >= sum(e.outcome.caida for e in plays)
    assert text.count("limpia") >= sum(e.outcome.limpia for e in plays)
    assert text.count(", run ") == sum(bool(e.outcome.run) for e in plays)
    last = plays[-1]
    assert f"scores {last.scores[0]}-{last.scores[1]}" in text


def test_announcements_claims_and_mesa_line() -> None:
    for seed in range(40):
        log = play_game("pagat", 2, "greedy", seed=seed, level="mesa")
        if any(isinstance(e, AnnounceEvent) for e in log.events):
            break
    text = format_game(log)
    assert re.search(r"announces (doble )?ronda of", text)
    assert log.game is not None
    assert f"Mesa won by side {log.game['winner']}" in text


def test_level_data_ends_with_the_points() -> None:
    log = play_game("quito", 4, "random", seed=0, level="data", index=3)
    text = format_game(log)
    assert text.endswith(f"Data over: points {log.trace[-1, 14]}-{log.trace[-1, 15]}\n")
    assert "hand 3" in text
