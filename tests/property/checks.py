"""Invariants of a reference game, checked at every step (used by the property tests).

:func:`checked_game` plays a game with an ``on_step`` hook that verifies, after every deal and
step: the 40 cards are conserved (R1.1), every chosen play was legal in the state before it
(contract section 3, checked independently of the engine's enumeration), scores stay even
(R1.4) and change by exactly the step's points, and no side reaches the target before the
step that ends the chica (R9.2). :func:`check_records` then ties the per-data records and the
game record (contract section 8) to the trace (contract section 7).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from cuarenta_sim.cuarenta.cards import RANK_VALUES
from cuarenta_sim.cuarenta.reference import GameLog, ScoreBoard, legal_plays, play_game
from cuarenta_sim.cuarenta.reference.events import (
    AnnounceEvent,
    ChicaEnd,
    ClaimsEvent,
    DealEvent,
    EndEvent,
    Event,
    PlayEvent,
)
from cuarenta_sim.cuarenta.reference.state import DataState
from cuarenta_sim.cuarenta.rules import RuleSet


class StepChecker:
    """The ``on_step`` hook: keeps the state seen after the last step and compares."""

    def __init__(self, rules: RuleSet, level: str) -> None:
        self.rules = rules
        self.level = level
        self.hands: list[list[int]] = []
        self.table: list[int] = []
        self.scores = (0, 0)
        self.steps = 0

    def __call__(self, state: DataState, board: ScoreBoard, event: Event) -> None:
        assert state.total_cards() == 40, "R1.1: 40 cards in hands, table, piles and stock"
        cards = sorted(
            [c for h in state.hands for c in h]
            + state.table
            + state.stock
            + [c for p in state.piles for c in p]
        )
        assert cards == list(range(40)), "every card exactly once"
        scores = (board.scores[0], board.scores[1])
        assert scores[0] % 2 == 0 and scores[1] % 2 == 0, "R1.4: scores stay even"
        if isinstance(event, DealEvent) and event.deal == 0:
            self.scores = scores  # a new data (possibly a new chica with reset scores)
        if isinstance(event, PlayEvent):
            self._check_play(state, event)
        if isinstance(event, AnnounceEvent | PlayEvent | ClaimsEvent | EndEvent):
            self.steps += 1
            assert event.scores == scores
            assert scores[0] - self.scores[0] == event.points[0], "points add up (side 0)"
            assert scores[1] - self.scores[1] == event.points[1], "points add up (side 1)"
            assert min(event.points) >= 0
            if self.level != "data":
                reached = max(scores) >= self.rules.target
                won_by_doble = isinstance(event, AnnounceEvent) and event.wins
                # R9.2: the chica ends exactly when a side reaches the target, never before.
                assert board.ended == (reached or won_by_doble)
                if reached:
                    assert board.winner is not None
                    assert scores[board.winner] >= self.rules.target
        self.scores = scores
        self.hands = [list(h) for h in state.hands]
        self.table = list(state.table)

    def _check_play(self, state: DataState, event: PlayEvent) -> None:
        play = event.outcome.play
        hand = [c // 4 for c in self.hands[event.seat]]
        table = [c // 4 for c in self.table]
        assert play.rank in hand, "the played rank was in hand"
        base = list(play.base)
        for r in base:
            assert r in table, "the base lies on the table"
            table.remove(r)
        if len(base) == 1:
            assert base[0] == play.rank, "R5.1: a one-card base is a match"
        elif len(base) > 1:
            assert play.rank < 7 and all(r < 7 for r in base), "R1.2: faces never sum"
            assert sum(RANK_VALUES[r] for r in base) == RANK_VALUES[play.rank], "R5.2"
            limit = self.rules.max_sum_cards
            assert limit is None or len(base) <= limit, "R5.2: max_sum_cards"
        elif self.rules.capture_compulsory:
            assert not _can_capture(play.rank, [c // 4 for c in self.table], self.rules)
        counts_hand = [hand.count(r) for r in range(10)]
        counts_table = [[c // 4 for c in self.table].count(r) for r in range(10)]
        assert play in legal_plays(counts_hand, counts_table, self.rules)
        # R5.4: the run took consecutive ranks from played rank + 1, one each, whole.
        run = list(event.outcome.run)
        assert run == list(range(play.rank + 1, play.rank + 1 + len(run)))
        after = [c // 4 for c in state.table]
        if base:
            assert play.rank + 1 + len(run) > 9 or (play.rank + 1 + len(run)) not in after
        assert event.outcome.limpia == (bool(base) and not after), "R7.1"


def _can_capture(rank: int, table: list[int], rules: RuleSet) -> bool:
    """Brute force: does ``rank`` have a match or a sum on ``table`` (R5.1, R5.2)?"""
    if rank in table:
        return True
    if rank >= 7:
        return False
    numeric = [r for r in table if r < 7]
    top = len(numeric) if rules.max_sum_cards is None else min(len(numeric), rules.max_sum_cards)
    return any(
        sum(RANK_VALUES[r] for r in combo) == RANK_VALUES[rank]
        for size in range(2, top + 1)
        for combo in combinations(numeric, size)
    )


def check_records(log: GameLog) -> None:
    """Tie the per-data records and the game record to the trace (contract 7 and 8)."""
    trace = log.trace
    assert trace.dtype == np.int64 and trace.shape[1] == 17
    n_datas = len(log.hands)
    for pos, rec in enumerate(log.hands):
        data = 0 if log.level == "data" else pos
        if log.level != "data":
            chica = rec.get("chica", 0)
            chica_rows = _chica_rows(log, chica)
            rows = trace[chica_rows][trace[chica_rows, 1] == data]
        else:
            rows = trace
        plays = rows[rows[:, 0] == 2]
        assert rec["plays"] == len(plays)
        for k in (0, 1):
            assert rec[f"points_{k}"] == int(rows[:, 10 + k].sum())
            sources = sum(
                rec[f"{s}_points_{k}"] for s in ("ronda", "caida", "limpia", "carton", "other")
            )
            assert sources == rec[f"points_{k}"]
            mine = plays[plays[:, 3] % 2 == k]
            assert rec[f"caidas_{k}"] == int(mine[:, 7].sum())
            assert rec[f"limpias_{k}"] == int(mine[:, 8].sum())
            assert rec[f"caidas_en_ronda_{k}"] == int(mine[:, 9].sum())
            assert rec[f"caidas_limpias_{k}"] == int((mine[:, 7] & mine[:, 8]).sum())
            announces = rows[(rows[:, 0] == 1) & (rows[:, 3] % 2 == k)]
            assert rec[f"rondas_{k}"] == int((announces[:, 9] == 1).sum())
            assert rec[f"doble_rondas_{k}"] == int((announces[:, 9] == 2).sum())
        end = rows[rows[:, 0] == 4]
        if len(end):
            assert end[0, 16] == 64 * rec["cards_0"] + rec["cards_1"]
            leftover_taken = rec["cards_0"] + rec["cards_1"] == 40
            assert leftover_taken or rec["cards_0"] + rec["cards_1"] + rec["leftover"] == 40
        else:
            assert log.level != "data" and rec["ended"], "only a chica's end skips the count"
        if log.level != "data":
            last = rows[-1]
            assert (rec["score_0"], rec["score_1"]) == (int(last[14]), int(last[15]))
            assert rec["ended"] == (pos == n_datas - 1 or _ends_chica(log, pos))
    if log.level == "data":
        assert log.game is None
        assert log.hands[0]["plays"] == 40
        return
    g = log.game
    assert g is not None
    assert g["hands"] == n_datas
    assert not g["truncated"]
    last = trace[-1]
    assert (g["score_0"], g["score_1"]) == (int(last[14]), int(last[15]))
    assert g["win_kind"] == int(last[0])
    ends = [e for e in log.events if isinstance(e, ChicaEnd)]
    assert ends[-1].winner == g["winner"]
    if log.level == "mesa":
        wins = [sum(e.winner == k for e in ends) for k in (0, 1)]
        assert (g["chicas_0"], g["chicas_1"]) == tuple(wins)
        rules = log.rules
        if g["zapateria"]:
            assert rules.zapateria_ends_mesa and len(ends) == 1 and ends[0].zapateria
        else:
            assert wins[g["winner"]] == rules.chicas_to_win
    else:
        assert g["zapateria"] == ends[0].zapateria
        loser = g[f"score_{1 - g['winner']}"]
        assert g["zapateria"] == (loser < log.rules.zapateria_below)


def _chica_rows(log: GameLog, chica: int) -> np.ndarray:
    """Boolean mask of the trace rows of one chica (scores reset at each chica)."""
    mask = np.zeros(len(log.trace), dtype=bool)
    positions = {rec["hand"] for rec in log.hands if rec.get("chica", 0) == chica}
    mask[np.isin(log.trace[:, 1], list(positions))] = True
    return mask


def _ends_chica(log: GameLog, pos: int) -> bool:
    nxt = log.hands[pos + 1] if pos + 1 < len(log.hands) else None
    return nxt is not None and nxt.get("chica", 0) != log.hands[pos].get("chica", 0)


def checked_game(rules: Any, players: int, policies: Any, seed: int, level: str) -> GameLog:
    """Play a game with every per-step invariant checked, then check its records."""
    checker = StepChecker(RuleSet.preset(rules) if isinstance(rules, str) else rules, level)
    log = play_game(rules, players, policies, seed=seed, level=level, on_step=checker)
    assert checker.steps == len(log.trace)
    check_records(log)
    return log
