"""The batched environment against the reference engine, transition by transition.

Each env plays seeded random legal actions (a numpy Generator); the same actions are then fed
to the reference engine (:func:`cuarenta_sim.cuarenta.reference.play_game`) through a scripted
policy, which checks at every decision the seat to act, the legal actions (mask), the
observation (decoded from the reference state: hand, table, played and captured cards, scores
...), and afterwards the rewards and the end of the episode.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.cuarenta.reference.state import rank_counts
from cuarenta_sim.rl import batched_state as bs
from cuarenta_sim.rl.batched import (
    ACTION_IDS,
    ACTION_PLAYS,
    N_ACTIONS,
    BatchedCuarenta,
    action_name,
    observation_segments,
    random_states,
)

SEED = 77
WIN, POINT = 3.0, 0.5


def thermo(counts) -> list[float]:
    out = []
    for c in counts:
        out.extend(1.0 if k < c else 0.0 for k in range(4))
    return out


def reference_observation(state, obs, seat: int, target: int) -> np.ndarray:
    """The full observation of ``seat`` built from the reference engine's state."""
    n = obs.players
    side = seat % 2
    v: list[float] = []
    v += thermo(obs.hand) + thermo(obs.table) + thermo(obs.played)
    v += thermo(rank_counts(state.piles[side])) + thermo(rank_counts(state.piles[1 - side]))
    for k in range(1, n):
        v += thermo(obs.known[(seat + k) % n])
    for k in range(n):
        v += [1.0 if r in obs.rondas[(seat + k) % n] else 0.0 for r in range(10)]
    v += [1.0 if obs.trail == r else 0.0 for r in range(10)]
    v += [1.0 if obs.trail is not None and obs.trail_in_ronda else 0.0]
    v += [1.0 if (obs.dealer - seat) % n == k else 0.0 for k in range(n)]
    v += [1.0 if obs.deal == d else 0.0 for d in range(8 // n)]
    v += [obs.hand_sizes[(seat + k) % n] / 5 for k in range(n)]
    v += [obs.piles[side] / 40, obs.piles[1 - side] / 40]
    v += [min(obs.scores[side], target) / target, min(obs.scores[1 - side], target) / target]
    last = obs.last_capturer
    v += [1.0 if last == side else 0.0, 1.0 if last is not None and last != side else 0.0]
    return np.array(v, dtype=np.float32)


@dataclass
class Record:
    """What one env showed at its decisions."""

    game: int
    seats: list[int] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    obs: list[np.ndarray] = field(default_factory=list)
    scores: list[tuple[int, int]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    rewards: list[np.ndarray] = field(default_factory=list)
    final: tuple[int, int] | None = None


def run_env(env: BatchedCuarenta, seed: int, max_steps: int = 100_000) -> list[Record]:
    """Play one episode per env (auto_reset off) with random legal actions; record it."""
    rng = np.random.default_rng(seed)
    out = env.reset()
    recs = [Record(int(g)) for g in env.episode_index]
    for _ in range(max_steps):
        live = ~out.terminated
        if not live.any():
            break
        actions = np.full(env.n_envs, -1, dtype=np.int64)
        scores = env.scores
        for i in np.flatnonzero(live):
            legal = np.flatnonzero(out.action_mask[i])
            a = int(rng.choice(legal))
            r = recs[i]
            r.seats.append(int(out.current_player[i]))
            r.masks.append(out.action_mask[i].copy())
            r.obs.append(out.observation[i].copy())
            r.scores.append((int(scores[i, 0]), int(scores[i, 1])))
            r.actions.append(a)
            actions[i] = a
        out = env.step(actions)
        for i in np.flatnonzero(live):
            recs[i].rewards.append(out.reward[i].copy())
            if out.terminated[i]:
                recs[i].final = tuple(int(x) for x in env.final_scores[i])
    assert out.terminated.all()
    return recs


@dataclass
class Scripted:
    """Reference policy replaying a recorded env, checking every decision against it."""

    rec: Record
    target: int
    name: str = "scripted"
    stochastic: bool = False
    t: int = 0
    state: object = None

    def hook(self, state, _board, _event) -> None:
        self.state = state

    def choose(self, obs, _rng) -> int:
        rec, t = self.rec, self.t
        assert t < len(rec.actions), f"game {rec.game}: the reference asks a decision more"
        where = f"game {rec.game} decision {t}"
        assert obs.seat == rec.seats[t], where
        legal = [ACTION_IDS[(p.rank, tuple(p.base))] for p in obs.plays]
        assert legal == sorted(legal), where  # the ids follow the canonical order
        assert legal == list(np.flatnonzero(rec.masks[t])), where
        assert tuple(obs.scores) == rec.scores[t], where
        if len(rec.obs[t]):
            ref = reference_observation(self.state, obs, obs.seat, self.target)
            np.testing.assert_array_equal(rec.obs[t], ref, err_msg=where)
        self.t += 1
        return legal.index(rec.actions[t])


def check_against_reference(env: BatchedCuarenta, recs: list[Record]) -> None:
    rules = env.ruleset
    target = rules.target
    for rec in recs:
        script = Scripted(rec, target)
        if env.opponent is None:
            policies = [script] * env.players
        else:
            policies = [script if s % 2 == 0 else env.opponent for s in range(env.players)]
        log = play_game(
            rules, env.players, policies, seed=env.seed, level=env.episode, index=rec.game,
            on_step=script.hook,
        )  # fmt: skip
        assert script.t == len(rec.actions), f"game {rec.game}: decisions differ"
        final = tuple(int(x) for x in log.trace[-1, 14:16])
        assert rec.final == final, f"game {rec.game}"
        # Rewards: zero-sum per side; the running sum is the score difference so far.
        if env.episode == "chica":
            winner = log.game["winner"]
        else:
            winner = 0 if final[0] > final[1] else (1 if final[1] > final[0] else -1)
        diffs = [s0 - s1 for s0, s1 in rec.scores[1:]] + [final[0] - final[1]]
        side0 = np.cumsum([r[0] for r in rec.rewards])
        expected = POINT * np.array(diffs, dtype=np.float64)
        if winner >= 0:
            expected[-1] += WIN if winner == 0 else -WIN
        np.testing.assert_allclose(side0, expected, rtol=0, atol=1e-4, err_msg=str(rec.game))
        for r in rec.rewards:
            for j in range(len(r)):
                assert r[j] == (r[0] if j % 2 == 0 else -r[0])


CASES = [
    ("quito", 2, "data", None),
    ("cuenca", 4, "data", None),
    ("quito", 2, "chica", "heuristic"),
    ("pagat", 2, "data", "random"),
    ("quito_torneo", 4, "chica", "greedy"),
    ("quito", 4, "data", "heuristic(cards=200)"),
]


@pytest.mark.parametrize(("rules", "players", "episode", "opponent"), CASES)
def test_transitions_match_the_reference_engine(rules, players, episode, opponent) -> None:
    n = 6 if episode == "data" else 2
    env = BatchedCuarenta(
        n, rules, players, episode, opponent, seed=SEED, auto_reset=False, win_reward=WIN,
        point_reward=POINT, start_index=3,
    )  # fmt: skip
    recs = run_env(env, seed=5)
    assert sorted(r.game for r in recs) == list(range(3, 3 + n))
    check_against_reference(env, recs)
    # The compact observation is the full one with counts and integers.
    compact = BatchedCuarenta(
        n, rules, players, episode, opponent, seed=SEED, auto_reset=False,
        observation="compact", start_index=3,
    )  # fmt: skip
    crecs = run_env(compact, seed=5)
    segs = observation_segments(players, "full")
    for rec, crec in zip(recs, crecs, strict=True):
        assert crec.actions == rec.actions
        for full, small in zip(rec.obs, crec.obs, strict=True):
            assert small.dtype == np.int8
            assert np.array_equal(small, compact_of(full, segs, env.ruleset.target))


def compact_of(full: np.ndarray, segs, target: int) -> np.ndarray:
    out = []
    at = 0
    for name, size in segs:
        part = full[at : at + size]
        at += size
        if name in ("hand", "table", "played", "captured_own", "captured_other", "known"):
            out.extend(part.reshape(-1, 4).sum(axis=1))
        elif name == "hand_sizes":
            out.extend(np.rint(part * 5))
        elif name == "piles":
            out.extend(np.rint(part * 40))
        elif name == "scores":
            out.extend(np.rint(part * target))
        else:
            out.extend(part)
    return np.array(out).astype(np.int8)


def test_auto_reset_plays_the_next_game_index() -> None:
    """Episode k of env i is game start_index + k * n_envs + i, as if started there."""
    n = 3
    auto = BatchedCuarenta(n, "quito", 2, "data", "heuristic", seed=SEED, point_reward=1.0)
    rng = np.random.default_rng(9)
    out = auto.reset()
    seen: dict[int, list[tuple[int, int]]] = {}
    for _ in range(60):  # 3 episodes of 10 learner decisions each
        games = auto.episode_index
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in out.action_mask])
        for i in range(n):
            seen.setdefault(int(games[i]), []).append((int(actions[i]), 0))
        out = auto.step(actions)
    assert sorted(seen) == list(range(9))
    for game in (4, 7):  # env 1, episodes 1 and 2
        single = BatchedCuarenta(
            1, "quito", 2, "data", "heuristic", seed=SEED, auto_reset=False, start_index=game
        )
        o = single.reset()
        for a, _ in seen[game]:
            assert o.action_mask[0, a]
            o = single.step(np.array([a]))
        assert o.terminated[0]


@pytest.mark.parametrize("observation", ["full", "compact"])
def test_results_do_not_depend_on_threads(observation: str) -> None:
    runs = []
    for threads in (1, 2):
        env = BatchedCuarenta(
            64, "quito", 4, "chica", None, seed=3, threads=threads, observation=observation,
            point_reward=1.0,
        )  # fmt: skip
        states = random_states(64, 11)
        out = env.reset()
        acc = [out.observation.copy()]
        for _ in range(300):
            out = env.step(env.random_actions(states))
            acc += [out.observation.copy(), out.action_mask.copy(), out.reward.copy(),
                    out.terminated.copy(), out.current_player.copy()]  # fmt: skip
        runs.append(acc)
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)


def test_observation_hides_what_the_seat_cannot_know() -> None:
    """Other seats' unannounced cards, future deals and streams never reach the observation;
    the own hand does (so the check can fail)."""
    env = BatchedCuarenta(32, "quito", 4, "data", "heuristic", seed=8)
    states = random_states(32, 2)
    out = env.reset()
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(25):
        for i in range(env.n_envs):
            st = env._st.copy()
            seat = int(st[i, bs.F_SEAT])
            for k in range(1, 4):
                other = (seat + k) % 4
                hand = int(st[i, bs.F_HANDS + other])
                known = int(st[i, bs.F_KNOWN + other])
                size = sum((hand >> (4 * r)) & 15 for r in range(10))
                # Keep the size and the announced ronda cards; shuffle the rest.
                free = size - sum((known >> (4 * r)) & 15 for r in range(10))
                new = known
                for _ in range(free):
                    new += 1 << (4 * int(rng.integers(0, 10)))
                st[i, bs.F_HANDS + other] = new
            st[i, bs.F_DEALS : bs.F_DEALS + 8] = rng.integers(0, 1 << 40, 8)
            obs = np.zeros((env.n_envs, env.observation_size), dtype=np.float32)
            bs.write_observation(obs, i, st, seat, 4, 40, True)
            assert np.array_equal(obs[i], out.observation[i])
            st[i, bs.F_HANDS + seat] += 1  # one more ace in the own hand
            bs.write_observation(obs, i, st, seat, 4, 40, True)
            assert not np.array_equal(obs[i], out.observation[i])
            checked += 1
        out = env.step(env.random_actions(states))
    assert checked == 25 * 32


def test_policy_actions_are_the_opponents_choices() -> None:
    """policy_actions('heuristic') at seat 0 plays what the reference heuristic plays."""
    env = BatchedCuarenta(4, "quito", 2, "data", "heuristic", seed=SEED, auto_reset=False)
    out = env.reset()
    recs = [Record(int(g)) for g in env.episode_index]
    while not out.terminated.all():
        actions = env.policy_actions("heuristic")
        for i in np.flatnonzero(~out.terminated):
            r = recs[i]
            r.seats.append(int(out.current_player[i]))
            r.masks.append(out.action_mask[i].copy())
            r.obs.append(out.observation[i].copy())
            r.scores.append(tuple(int(x) for x in env.scores[i]))
            r.actions.append(int(actions[i]))
        out = env.step(actions)
    for rec in recs:
        log = play_game("quito", 2, "heuristic", seed=SEED, level="data", index=rec.game)
        plays = [e for e in log.steps() if type(e).__name__ == "PlayEvent" and e.seat == 0]
        ids = [ACTION_IDS[(e.outcome.play.rank, tuple(e.outcome.play.base))] for e in plays]
        assert ids == rec.actions


def test_action_table() -> None:
    assert N_ACTIONS == len(ACTION_PLAYS) == 53
    assert action_name(0) == "A trail"
    assert ACTION_IDS[(6, (0, 5))] == 2 * 6 + 2 + int(bk_sum_index(6, (0, 5)))
    assert observation_segments(2) and sum(s for _, s in observation_segments(2)) == 285
    assert sum(s for _, s in observation_segments(4)) == 387
    assert sum(s for _, s in observation_segments(2, "compact")) == 105
    assert sum(s for _, s in observation_segments(4, "compact")) == 147


def bk_sum_index(rank: int, base: tuple[int, ...]) -> int:
    from cuarenta_sim.cuarenta.tables import SUM_START, enumerate_sum_bases

    return int(SUM_START[rank]) + enumerate_sum_bases(rank + 1).index(base)


# ---------------------------------------------------------------- bad input
def test_bad_constructor_arguments() -> None:
    for kwargs, words in [
        ({"n_envs": 0}, "n_envs"),
        ({"players": 3}, "players must be 2 or 4"),
        ({"episode": "mesa"}, "accepted: data, chica"),
        ({"opponent": "pimc"}, "not supported"),
        ({"opponent": "learned"}, "not supported"),
        ({"opponent": "solver"}, "not supported"),
        ({"opponent": "nobody"}, "unknown policy"),
        ({"observation": "pixels"}, "accepted: none, full, compact"),
        ({"seed": -1}, "seed"),
        ({"threads": 0}, "threads"),
        ({"rules": "boston"}, "unknown preset"),
        ({"auto_reset": 1}, "auto_reset"),
        ({"point_reward": float("nan")}, "finite"),
        ({"start_index": -2}, "start_index"),
    ]:
        args = {"n_envs": 2, **kwargs}
        with pytest.raises(ValueError, match=words):
            BatchedCuarenta(**args)


def test_bad_actions_raise_and_step_nothing() -> None:
    env = BatchedCuarenta(3, "quito", 2, "data", None, seed=1, auto_reset=False)
    with pytest.raises(ValueError, match="reset"):
        env.step(np.zeros(3, dtype=np.int64))
    out = env.reset()
    before = env._st.copy()
    illegal = int(np.flatnonzero(~out.action_mask[1])[0])
    actions = np.array([np.flatnonzero(m)[0] for m in out.action_mask], dtype=np.int64)
    actions[1] = illegal
    with pytest.raises(ValueError, match=r"env 1: action \d+ is not legal .* legal actions: "):
        env.step(actions)
    assert np.array_equal(env._st, before)
    with pytest.raises(ValueError, match="shape"):
        env.step(actions[:2])
    with pytest.raises(ValueError, match="integer dtype"):
        env.step(actions.astype(np.float64))
    with pytest.raises(ValueError, match="numpy integer array"):
        env.step(actions.tolist())
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.full(3, 99, dtype=np.int64))
    actions[1] = np.flatnonzero(out.action_mask[1])[0]
    out = env.step(actions.astype(np.int32))  # other integer dtypes are accepted
    while not out.terminated.all():
        actions = np.array(
            [np.flatnonzero(m)[0] if m.any() else -1 for m in out.action_mask], dtype=np.int64
        )
        out = env.step(actions)
    with pytest.raises(ValueError, match="env 0 is terminated"):
        env.step(np.zeros(3, dtype=np.int64))
    out = env.step(np.full(3, -1, dtype=np.int64))  # a terminated env stays so, reward 0
    assert out.terminated.all() and not out.reward.any() and (out.current_player == -1).all()
    out = env.reset()
    assert not out.terminated.any()
    with pytest.raises(ValueError, match="deterministic"):
        env.policy_actions("random")
    with pytest.raises(ValueError, match="shape"):
        env.random_actions(np.zeros((2, 4), dtype=np.uint64))
