"""The RL encodings against the reference engine: action order, legal actions, observations."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cuarenta_sim.cuarenta import actions as cuarenta_actions
from cuarenta_sim.cuarenta import observation as cuarenta_obs
from cuarenta_sim.cuarenta.reference import legal_plays, observe
from cuarenta_sim.cuarenta.reference.events import PlayEvent
from cuarenta_sim.cuarenta.reference.plays import Play, card_options
from cuarenta_sim.cuarenta.reference.state import rank_counts
from cuarenta_sim.cuarenta.reference.step import CuarentaGame, _rank_actions
from cuarenta_sim.cuarenta.rules import RuleSet, resolve_rules
from cuarenta_sim.cuatrola import observation as cuatrola_obs
from cuarenta_sim.cuatrola.cards import N_CARDS
from cuarenta_sim.cuatrola.reference import legal_plays as cuatrola_legal_plays
from cuarenta_sim.cuatrola.reference.step import BID0, N_ACTIONS, CuatrolaGame, action_name
from cuarenta_sim.cuatrola.rules import resolve_rules as resolve_cuatrola
from cuarenta_sim.rng import root_from_seed

RULES = [
    resolve_rules("quito"),
    resolve_rules("quito_torneo"),
    resolve_rules("quito(capture_compulsory=true,max_sum_cards=3)"),
]


def _random_counts(rng: random.Random, cards: int) -> list[int]:
    counts = [0] * 10
    while sum(counts) < cards:
        r = rng.randrange(10)
        if counts[r] < 4:
            counts[r] += 1
    return counts


def test_action_space_lists_every_play_once_in_canonical_order() -> None:
    plays = cuarenta_actions.PLAYS
    assert len(set(plays)) == len(plays) == cuarenta_actions.N_ACTIONS == 53
    # Ascending rank, trail first, then match, then sums (engine contract section 3).
    keys = [(p.rank, 0 if p.is_trail else 1 if p.is_match else 2) for p in plays]
    assert keys == sorted(keys)
    assert cuarenta_actions.action_name(0) == "A trail"
    assert cuarenta_actions.play_of(cuarenta_actions.action_of(plays[10])) == plays[10]
    with pytest.raises(ValueError, match="from 0 to 52"):
        cuarenta_actions.play_of(53)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.slug())
def test_sorted_legal_actions_are_the_reference_legal_plays(rules: RuleSet) -> None:
    """For random hands and tables, the legal action ids, ascending, name exactly the
    reference engine's canonical legal plays, in order (the cache key loses nothing)."""
    rng = random.Random(5)
    cache: dict[tuple[object, ...], tuple[int, ...]] = {}
    for _ in range(1500):
        table = _random_counts(rng, rng.randrange(0, 9))
        hand = _random_counts(rng, rng.randrange(1, 6))
        if any(h + t > 4 for h, t in zip(hand, table, strict=True)):
            continue
        ids: list[int] = []
        for rank in range(10):
            if hand[rank]:
                opts = _rank_actions(cache, rules, rank, tuple(table))
                want = [cuarenta_actions.action_of(p) for p in _plays(rank, table, rules)]
                assert list(opts) == want
                ids.extend(opts)
        assert ids == sorted(ids)
        assert [cuarenta_actions.PLAYS[a] for a in ids] == legal_plays(hand, table, rules)


def _plays(rank: int, table: list[int], rules: RuleSet) -> list[Play]:
    return [Play(rank, base) for base in card_options(rank, table, rules)]


def _decode(vec: np.ndarray, players: int) -> dict[str, np.ndarray]:
    out, at = {}, 0
    for name, size in cuarenta_obs.segments(players):
        out[name] = vec[at : at + size]
        at += size
    return out


def _counts(thermo: np.ndarray) -> list[int]:
    cells = thermo.reshape(10, 4)
    # A thermometer code: cell k is on exactly when the count exceeds k.
    assert np.all(np.diff(cells, axis=1) <= 0)
    return [int(c) for c in cells.sum(axis=1)]


@pytest.mark.parametrize(("rules", "players"), [("quito", 2), ("pagat", 4), ("quito_torneo", 2)])
def test_cuarenta_observation_is_the_reference_observation(rules: str, players: int) -> None:
    """At every decision of random episodes, the observation vector decodes to the reference
    engine's Observation of that seat (contract section 6): nothing more, nothing less."""
    rng = random.Random(11)
    root, _ = root_from_seed(3)
    rule_set = resolve_rules(rules)
    for index in range(2):
        game = CuarentaGame(rule_set, players, "chica", "streams", root, index)
        vec = np.empty(cuarenta_obs.observation_size(players), np.float32)
        while not game.terminal:
            seat = game.current
            st = game.state
            assert st is not None
            ref = observe(st, seat, game.board)
            d = _decode(cuarenta_obs.encode(game, seat, vec), players)
            side = seat % 2
            assert _counts(d["hand"]) == list(ref.hand)
            assert _counts(d["table"]) == list(ref.table)
            assert _counts(d["played"]) == list(ref.played)
            # Captured cards are public (captures are face up): the piles' rank counts.
            assert _counts(d["captured_own"]) == rank_counts(st.piles[side])
            assert _counts(d["captured_other"]) == rank_counts(st.piles[1 - side])
            for k in range(1, players):
                other = (seat + k) % players
                block = d["known"][40 * (k - 1) : 40 * k]
                assert _counts(block) == list(ref.known[other])
            for k in range(players):
                ranks = set(np.flatnonzero(d["rondas"][10 * k : 10 * k + 10]).tolist())
                assert ranks == set(ref.rondas[(seat + k) % players])
            trail = np.flatnonzero(d["trail"]).tolist()
            assert trail == ([] if ref.trail is None else [ref.trail])
            assert bool(d["trail_in_ronda"][0]) == ref.trail_in_ronda
            assert int(np.argmax(d["dealer"])) == (ref.dealer - seat) % players
            assert int(np.argmax(d["deal"])) == ref.deal
            sizes = [round(float(x) * 5) for x in d["hand_sizes"]]
            assert sizes == [ref.hand_sizes[(seat + k) % players] for k in range(players)]
            piles = [round(float(x) * 40) for x in d["piles"]]
            assert piles == [ref.piles[side], ref.piles[1 - side]]
            target = rule_set.target
            assert np.allclose(
                d["scores"], [ref.scores[side] / target, ref.scores[1 - side] / target]
            )
            last = d["last_capturer"].tolist()
            want = [0, 0]
            if ref.last_capturer is not None:
                want[0 if ref.last_capturer == side else 1] = 1
            assert last == want
            # The legal actions are the reference's legal plays in order.
            assert [cuarenta_actions.PLAYS[a] for a in game.legal_actions()] == list(ref.plays)
            legal = game.legal_actions()
            game.apply_action(legal[rng.randrange(len(legal))])
        assert any(isinstance(e, PlayEvent) for e in game.events)


def test_cuarenta_observation_ignores_hidden_cards() -> None:
    """Swapping two cards between the opponent's hand and the stock changes nothing that
    seat 0 observes (information discipline: hidden cards never leak)."""
    root, _ = root_from_seed(8)
    game = CuarentaGame(resolve_rules("quito"), 2, "chica", "streams", root, 0)
    st = game.state
    assert st is not None and st.stock
    vec0 = cuarenta_obs.encode(game, 0, np.empty(cuarenta_obs.observation_size(2), np.float32))
    before = vec0.copy()
    # Find an opponent card and a stock card of different ranks that are not announced.
    for i, card in enumerate(st.hands[1]):
        for j, hidden in enumerate(st.stock):
            if card // 4 != hidden // 4 and card // 4 not in st.rondas[1]:
                if hidden // 4 in st.rondas[1]:
                    continue
                st.hands[1][i], st.stock[j] = hidden, card
                after = cuarenta_obs.encode(game, 0, vec0)
                assert np.array_equal(before, after)
                return
    pytest.fail("no swappable card found")


def test_cuatrola_action_space() -> None:
    assert N_ACTIONS == 24 and BID0 == N_CARDS
    assert action_name(0) == "Ao" and action_name(BID0) == "pass" and action_name(23) == "quintola"
    with pytest.raises(ValueError, match="from 0 to 23"):
        action_name(24)


def test_cuatrola_observation_and_legal_actions() -> None:
    """Random games: legal cards are the reference ``legal_plays``; the observation shows the
    own hand, the public trick and played cards, and never another seat's cards."""
    rng = random.Random(2)
    root, _ = root_from_seed(4)
    vec = np.empty(cuatrola_obs.OBSERVATION_SIZE, np.float32)
    o, at = {}, 0
    for name, size in cuatrola_obs.SEGMENTS:
        o[name] = slice(at, at + size)
        at += size
    steps = cantes_seen = 0
    games = (CuatrolaGame(resolve_cuatrola("ro"), "game", "streams", root, i) for i in range(4))
    for game in games:
        while not game.terminal:
            seat = game.current
            cuatrola_obs.encode(game, seat, vec)
            assert set(np.flatnonzero(vec[o["hand"]]).tolist()) == game.hands[seat]
            assert int(np.flatnonzero(vec[o["trump_card"]])[0]) == game.trump_card
            assert bool(vec[o["bidding"]][0]) == game.bidding
            if not game.bidding:
                cuatrola_vec = vec[o["trick"]].reshape(4, N_CARDS)
                shown = {(int(k), int(c)) for k, c in zip(*np.nonzero(cuatrola_vec), strict=True)}
                want = {
                    ((s - seat) % 4, c) for c, s in zip(game.trick, game.trick_seats, strict=True)
                }
                assert shown == want
                legal = cuatrola_legal_plays(game.hands[seat], game.trick, game.trump)
                assert list(game.legal_actions()) == legal
            else:
                assert all(a >= BID0 for a in game.legal_actions())
            sung = vec[o["sung"]].reshape(4, 4)
            shown_cantes = {(int(k), int(suit)) for k, suit in zip(*np.nonzero(sung), strict=True)}
            assert shown_cantes == {((p - seat) % 4, suit) for p, suit in game.cantes}
            cantes_seen += bool(game.cantes)
            # Cards of other hands appear nowhere but where they were played.
            others = set().union(*(game.hands[s] for s in range(4) if s != seat))
            visible = np.flatnonzero(vec[o["hand"]]).tolist()
            assert not others & set(visible)
            legal_ids = game.legal_actions()
            # Everybody passes (no contract, so cantes are sung, C4.3); cards at random.
            game.apply_action(legal_ids[0 if game.bidding else rng.randrange(len(legal_ids))])
            steps += 1
    assert steps > 20 and cantes_seen > 0
