"""The game registry and contract (cuarenta_sim.game): look-ups, registration, each game's
tables, replays and judges, and a toy third game run through the one pipeline."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
import pytest

import cuarenta_sim
from cuarenta_sim import GAMES, aggregate, check_simulation, get_game, simulate
from cuarenta_sim.aggregates import Aggregates, Counters
from cuarenta_sim.cuatrola.cards import format_cards, from_mask
from cuarenta_sim.cuatrola.contracts import CONTRACTS
from cuarenta_sim.game import Game, register
from cuarenta_sim.stats import ESTIMATE_COLUMNS, proportion


def test_builtin_games_are_registered_lazily() -> None:
    assert list(GAMES) == ["cuarenta", "cuatrola"]
    assert get_game("cuatrola") is GAMES["cuatrola"]
    with pytest.raises(ValueError, match="unknown game 'chess'; accepted: cuarenta, cuatrola"):
        get_game("chess")
    with pytest.raises(ValueError, match="already registered"):
        register(replace(GAMES["cuarenta"], title="Other"))
    register(GAMES["cuarenta"])  # the same object again: a re-imported package
    with pytest.raises(ValueError, match="default_players"):
        replace(GAMES["cuatrola"], default_players=2)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_fills_its_tables(name: str) -> None:
    g = GAMES[name]
    header, rows = g.presets_rows()
    assert header == ["switch", *g.presets] and rows and all(len(r) == len(header) for r in rows)
    default = g.resolve_rules(g.default_rules)
    assert all(len(r) == 3 and "*" not in r[2] for r in g.rules_rows(default))
    header, rows = g.policy_table()
    assert rows and all(len(r) == len(header) for r in rows)
    assert g.default_policies in {r[header.index("policy")] for r in rows}
    with pytest.raises(ValueError):
        g.resolve_rules("no_such_preset")
    assert g.unit(g.default_level, plural=False) in g.default_level


def test_rules_rows_mark_changed_switches() -> None:
    rows = GAMES["cuatrola"].rules_rows("ro(target=21)")
    assert ["target", "21", "11 *"] in rows


@pytest.mark.parametrize("index", [0, 3])
def test_cuatrola_replay_matches_the_simulated_hand(index: int) -> None:
    g = GAMES["cuatrola"]
    hands = simulate("cuatrola", n=5, seed=3, policies=("greedy", "random")).hands
    row = hands.iloc[index]
    text = g.replay("ro", 4, ("greedy", "random"), 3, "hand", index)
    assert text.startswith(f"Cuatrola, rules ro, seed 3, level hand, hand {index}")
    for seat in range(4):
        cards = " ".join(format_cards(from_mask(int(row[f"dealt_{seat}"]))))
        assert f"seat {seat} (pair {seat % 2}): {cards}" in text
    assert text.count("  trick ") == 5 and text.count("  bid: ") >= 1
    gp = f"game points pair 0 {row.game_points_0}, pair 1 {row.game_points_1}"
    assert gp in text
    result = next(line for line in text.splitlines() if line.startswith("  result: "))
    if row.contract == 0:
        assert "no contract" in result
    else:
        made = "made" if row.made == 1 else "failed"
        declarer = f"seat {row.declarer} (pair {row.declarer % 2})"
        assert f"{CONTRACTS[row.contract]} by {declarer} {made}" in result


def test_cuatrola_replay_of_a_game_ends_with_its_winner() -> None:
    g = GAMES["cuatrola"]
    games = simulate("cuatrola", n=3, level="game", seed=2).games
    text = g.replay("ro", 4, "greedy", 2, "game", 2, bid_policies="threshold")
    last = games.iloc[2]
    assert text.count("Game 2, hand ") == last.hands
    assert text.rstrip().endswith(
        f"won by pair {last.winner} (seats {last.winner} and {last.winner + 2}), scores "
        f"pair 0 {last.score_0}, pair 1 {last.score_1}, after {last.hands} hands"
    )
    with pytest.raises(ValueError, match="played by 4"):
        g.replay("ro", 2, "greedy", 2, "game", 0)
    with pytest.raises(ValueError, match="index"):
        g.replay("ro", 4, "greedy", 2, "game", -1)


def test_cuarenta_replay_is_the_reference_format() -> None:
    from cuarenta_sim.cuarenta.reference import play_game
    from cuarenta_sim.cuarenta.reference.replay import format_game

    text = GAMES["cuarenta"].replay("quito", 2, "greedy,random", 4, "data", 1)
    assert text == format_game(play_game("quito", 2, ["greedy", "random"], 4, "data", 1))


def test_scenarios_dispatch_through_the_registry() -> None:
    play = {"kind": "play", "rules": "quito", "table": ["5", "K"], "card": "5", "base": ["5"]}
    plain = cuarenta_sim.evaluate(play)
    assert plain["captured"] == ["5", "5"]
    assert cuarenta_sim.evaluate({**play, "game": "cuarenta"}) == plain
    trick = {"game": "cuatrola", "kind": "trick", "trump": "e", "trick": ["3c", "Ao", "Rc", "Sc"]}
    assert cuarenta_sim.evaluate(trick)["points"] == 27
    assert cuarenta_sim.evaluate({**trick, "game": "poker"}) == {
        "error": "game must be one of cuarenta, cuatrola; got 'poker'"
    }


# ------------------------------------------------------------------ a toy third game
@dataclass(frozen=True)
class CoinSpec:
    """Coin flips: hand i is heads when a hash of (root, i) is odd; a game is 3 flips."""

    level: str
    keep_hands: bool
    root: int

    def provenance(self) -> dict[str, Any]:
        return {"rules": "fair", "rules_switches": {}, "policies": ["flip"], "players": 1}

    def default_chunk(self) -> int:
        return 64

    def records_per_game(self) -> float:
        return 1 if self.level == "flip" else 3


def _flips(root: int, index: np.ndarray) -> np.ndarray:
    x = (index.astype(np.uint64) + np.uint64(root % 2**32)) * np.uint64(2654435761)
    return ((x >> np.uint64(7)) & np.uint64(1)).astype(np.int8)


def _coin_frames(spec: CoinSpec, out: tuple[int, int]) -> tuple[Any, Any]:
    start, stop = out
    games = np.arange(start, stop, dtype=np.int64)
    if spec.level == "flip":
        return pd.DataFrame({"hand": games, "heads": _flips(spec.root, games)}), None
    game = np.repeat(games, 3)
    heads = _flips(spec.root, game * 3 + np.tile(np.arange(3), len(games)))
    hands = pd.DataFrame({"game": game, "heads": heads}) if spec.keep_hands else None
    won = heads.reshape(-1, 3).sum(axis=1) >= 2
    frame = pd.DataFrame(
        {"game": games, "winner": won.astype(np.int8), "hands": np.full(len(games), 3),
         "truncated": np.zeros(len(games), dtype=bool)}
    )  # fmt: skip
    return hands, frame


def _coin_aggregate(level: str, hands: Any, games: Any) -> Aggregates:
    return Aggregates(
        level,
        None if hands is None else Counters.from_arrays({"heads": hands["heads"].to_numpy()}),
        None if games is None else {"all": Counters.from_arrays(
            {k: games[k].to_numpy() for k in ("winner", "hands", "truncated")})},
    )  # fmt: skip


def _coin_summaries(run: Any, confidence: float = 0.95) -> dict[str, pd.DataFrame]:
    if isinstance(run, Aggregates):
        heads, n = run.hands.sums["heads"], run.hands.n
    else:
        heads, n = int(run.hands["heads"].sum()), len(run.hands)
    return {"Per flip": pd.DataFrame([proportion("heads", heads, n, confidence)],
                                     columns=ESTIMATE_COLUMNS)}  # fmt: skip


COIN = Game(
    name="coin", title="Coin", spec_doc="tests/unit/test_game_registry.py", engine_version=1,
    player_counts=(1,), default_players=1, levels=("flip", "match"), default_level="flip",
    units={"flip": ("flip", "flips"), "match": ("match", "matches")}, default_rules="fair",
    presets={"fair": "fair"}, resolve_rules=lambda r: r, rules_rows=lambda r: [],
    presets_rows=lambda: (["switch", "fair"], []), default_policies="flip",
    policy_table=lambda: (["policy"], [["flip"]]),
    make_spec=lambda rules, players, policies, level, root, keep_hands: CoinSpec(
        level, keep_hands, root),
    run_range=lambda spec, start, stop: (start, stop), frames=_coin_frames,
    aggregates_from_dict=Aggregates.from_dict, aggregate_frames=_coin_aggregate,
    summaries=_coin_summaries, evaluate=lambda obj: {"error": "no scenarios"},
    replay=lambda *a, **k: "", warmup=lambda: None, default_n=100, record_bytes=16,
)  # fmt: skip


def test_a_new_game_is_one_registration(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """A game registered from outside the package runs every output mode of the pipeline."""
    import cuarenta_sim.game as game_module

    monkeypatch.setitem(game_module._REGISTRY, "coin", COIN)
    full = simulate("coin", n=500, seed=4)
    assert full.provenance["game"] == "coin" and full.provenance["hands_played"] == 500
    for chunk in (1, 7, 499):
        pd.testing.assert_frame_equal(simulate("coin", n=500, seed=4, chunk_size=chunk).hands,
                                      full.hands)  # fmt: skip
    agg = aggregate("coin", n=500, seed=4, chunk_size=33, dataset=tmp_path, records=True)
    assert agg.hands.sums["heads"] == int(full.hands["heads"].sum())
    pd.testing.assert_frame_equal(cuarenta_sim.Results.from_dataset(tmp_path).hands, full.hands)
    match = simulate("coin", n=40, level="match", seed=4, keep_hands=False)
    assert match.hands is None and match.provenance["hands_played"] == 120
    assert match.provenance["truncated"] == 0
    # The largest run in chunks of 64: 2**20 chunks (cuarenta_sim.limits); n = 10**30 is
    # beyond any int64 game index and refused (issue 20).
    run = check_simulation("coin", n=64 * 2**20, level="match", seed=1, aggregates=True)
    assert run.n == 64 * 2**20 and run.chunk == 64 and run.mode == "aggregates"
    with pytest.raises(ValueError, match=r"n must be a positive whole number up to"):
        check_simulation("coin", n=10**30, level="match", seed=1, aggregates=True)
    # An unmeasured game: the memory model's fallback on its declared record size.
    with pytest.raises(ValueError, match=r"matches with its records kept .* --aggregates-only"):
        check_simulation("coin", n=2**40, level="match", seed=1, chunk_size=2**25)
    with pytest.raises(ValueError, match="unknown option bid_policies for game 'coin'"):
        check_simulation("coin", bid_policies="never")
