"""Outside opponents: our policies against OpenSpiel's bots in duplicate chicas."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from cuarenta_sim.cuarenta.actions import ACTION_OF, action_of
from cuarenta_sim.cuarenta.engine.decide import decide
from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.cuarenta.reference.events import PlayEvent
from cuarenta_sim.cuarenta.reference.game import observe
from cuarenta_sim.cuarenta.reference.state import rank_counts
from cuarenta_sim.rl import outside, outside_agents
from cuarenta_sim.rl.outside import (
    IsmctsSettings,
    parse_player,
    play_chica,
    play_outside_duplicate,
    resample_world,
)
from cuarenta_sim.rng import root_from_seed

#: A small IS-MCTS budget: the tests check the plumbing, not the bot's strength.
SMALL_ISMCTS = "openspiel-ismcts(simulations=4,rollout_length=20,point_reward=0.025)"


def test_parse_ismcts_settings() -> None:
    spec = parse_player("openspiel-ismcts(simulations=1000,uct_c=2,rollouts=1)")
    assert spec.kind == "ismcts"
    assert spec.ismcts == IsmctsSettings(simulations=1000, uct_c=2.0, rollouts=1)
    assert spec.canonical == (
        "openspiel-ismcts(simulations=1000,uct_c=2,rollouts=1,rollout_length=0,"
        "point_reward=0,final=max_visit_count,selection=uct,world_samples=-1)"
    )
    # The canonical form parses back to the same settings.
    assert parse_player(spec.canonical) == spec
    custom = parse_player(
        "openspiel-ismcts(simulations=50,uct_c=1.5,final=max_value,selection=puct,"
        "rollout_length=40,point_reward=0.025,world_samples=8)"
    ).ismcts
    assert custom == IsmctsSettings(50, 1.5, 1, 40, 0.025, "max_value", "puct", 8)
    described = parse_player("openspiel-ismcts(simulations=7)").describe()["settings"]
    assert described["max_simulations"] == 7
    assert described["final_policy_type"] == "ISMCTSFinalPolicyType.MAX_VISIT_COUNT"
    assert parse_player("openspiel-random").kind == "random"
    assert parse_player("pimc(samples=4)").canonical.startswith("pimc(samples=4,")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openspiel-ismcts(budget=5)", r"unknown parameter 'budget' of openspiel-ismcts; accepted"),
        ("openspiel-ismcts(simulations=0)", r"bad value '0' for openspiel-ismcts parameter"),
        ("openspiel-ismcts(uct_c=x)", r"parameter uct_c; accepted: a number"),
        ("openspiel-ismcts(final=best)", r"accepted: max_visit_count, normalized_visit_count"),
        ("openspiel-ismcts(world_samples=0)", r"accepted: -1"),
        ("openspiel-ismcts(rollouts=1,rollouts=2)", r"given twice"),
        ("openspiel-ismcts(simulations)", r"expected param=value"),
        ("openspiel-mcts", r"unknown OpenSpiel bot 'mcts'; accepted: openspiel-ismcts"),
        ("openspiel-random(seed=1)", r"openspiel-random takes no parameters"),
        ("openspiel-ismcts(", r"malformed player spec"),
        ("best", r"unknown policy 'best'"),
    ],
)
def test_bad_player_specs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_player(spec)


@pytest.mark.parametrize("policy", ["greedy", "heuristic", "openspiel-random"])
def test_same_player_both_sides_is_exactly_even(policy: str) -> None:
    """Duplicate symmetry: with the same player on both sides the two seatings are the same
    game mirrored, so each side wins one chica of every pair and scores the same points."""
    m = play_outside_duplicate(policy, policy, n=3, seed=11)
    s = m.summary()
    assert s["win_rate"] == 0.5
    assert s["points_per_data"] == 0.0
    assert (m.pairs["a_wins"] == 1.0).all()
    assert (m.pairs["a_points"] == m.pairs["b_points"]).all()


@pytest.mark.parametrize("sides", [("greedy", "heuristic"), ("heuristic", "pimc(samples=2)")])
def test_deterministic_policies_replay_the_reference_engine(sides: tuple[str, str]) -> None:
    """Through OpenSpiel, with the decks fed as chance outcomes, deterministic policies play
    exactly the reference engine's chica of the same seed and index (greedy, heuristic; pimc
    draws its search state differently, so it is only checked for legality by the run)."""
    seed = 5
    root, _ = root_from_seed(seed)
    for chica in range(2):
        r = play_chica(sides, root=root, chica=chica)
        if "pimc" in sides[1]:
            assert r.winner in (0, 1) and r.decisions[0] > 0 and r.decisions[1] > 0
            continue
        log = play_game("quito", 2, list(sides), seed=seed, level="chica", index=chica)
        plays = [action_of(e.outcome.play) for e in log.events if isinstance(e, PlayEvent)]
        assert r.actions == plays
        assert r.winner == log.game["winner"]


@pytest.mark.parametrize("policy", ["greedy", "heuristic(no_ace_trail=300)", "pimc(samples=3)"])
def test_our_choice_is_decide_on_the_seat_observation(
    policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every action our side sends is ``decide`` on the seat's observation, mapped to its id."""
    seen: list[tuple[object, list[int], int]] = []
    real = outside_agents.decide

    def spy(spec: str, obs: object, search_state: list[int]) -> int:
        k = real(spec, obs, search_state)
        seen.append((obs, list(search_state), k))
        return k

    monkeypatch.setattr(outside_agents, "decide", spy)
    root, _ = root_from_seed(3)
    game = pyspiel.load_game("python_cuarenta", {"rules": "quito", "players": 2})
    state = game.new_initial_state()
    agent = outside_agents.PolicyAgent(parse_player(policy).policy, root, 0, 0)
    rng = np.random.default_rng(0)
    checked = 0
    while not state.is_terminal() and checked < 12:
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        elif state.current_player() == 0:
            action = agent.act(state)
            obs, search_state, k = seen[-1]
            # The observation is the seat's view of this state, and the action is decide's.
            assert obs == observe(state.core.state, 0, state.core.board)
            assert decide(policy, obs, search_state) == k
            assert action == ACTION_OF[obs.plays[k]]
            assert action in state.legal_actions()
            state.apply_action(action)
            checked += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked == len(seen) and checked > 0


def test_match_is_deterministic_with_a_seed() -> None:
    a = play_outside_duplicate("greedy", SMALL_ISMCTS, n=1, seed=7)
    b = play_outside_duplicate("greedy", SMALL_ISMCTS, n=1, seed=7)
    assert a.pairs.equals(b.pairs)
    assert a.decisions == b.decisions
    r1 = play_chica(("pimc(samples=2)", "openspiel-random"), root=9, chica=0)
    r2 = play_chica(("pimc(samples=2)", "openspiel-random"), root=9, chica=0)
    assert r1.actions == r2.actions
    other = play_chica(("pimc(samples=2)", "openspiel-random"), root=10, chica=0)
    assert other.actions != r1.actions
    s = a.summary()
    assert s["pairs"] == 1 and s["games"] == 2
    assert 0.0 <= s["lower"] <= s["win_rate"] <= s["upper"] <= 1.0
    assert s["a_decisions"] > 0 and s["b_decisions_per_s"] > 0


@pytest.mark.parametrize("players", [2, 4])
def test_resample_keeps_the_information_state(players: int) -> None:
    """The resampled world reads the same to the seat (information state string), keeps its
    hand, and deals the other seats hands that agree with their announced rondas."""
    game = pyspiel.load_game("python_cuarenta", {"rules": "quito", "players": players})
    rng = np.random.default_rng(4)
    rs = np.random.RandomState(4)
    changed = 0
    for _ in range(3):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 300:
            if state.is_chance_node():
                outcomes = [o for o, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(outcomes)))
                continue
            p = state.current_player()
            new = resample_world(state, p, rs)
            assert new.information_state_string(p) == state.information_state_string(p)
            assert new.observation_string(p) == state.observation_string(p)
            assert new.legal_actions() == state.legal_actions()
            nst, st = new.core.state, state.core.state
            assert nst.hands[p] == st.hands[p]
            # Every card is in exactly one place (R1.1): hands, table, piles, not dealt.
            undealt = [c for c in range(40) if c not in set(nst.deck)]
            places = [c for h in nst.hands for c in h] + nst.table + undealt
            places += [c for pile in nst.piles for c in pile]
            assert sorted(places) == list(range(40))
            assert len(set(nst.deck)) == len(nst.deck) == len(st.deck)
            for o in range(players):
                assert len(nst.hands[o]) == len(st.hands[o])
                # The deal of each seat (its plays of this deal plus its hand) makes exactly
                # the rondas it announced (R4).
                dealt = rank_counts(nst.hands[o])
                for e in new.core.events:
                    if isinstance(e, PlayEvent) and (e.data, e.deal, e.seat) == (
                        new.core.data,
                        nst.deal,
                        o,
                    ):
                        dealt[e.outcome.play.rank] += 1
                assert tuple(r for r, c in enumerate(dealt) if c >= 3) == st.rondas[o]
            changed += any(nst.hands[o] != st.hands[o] for o in range(players) if o != p)
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
    assert changed > 0


def test_resample_needs_a_decision_node() -> None:
    game = pyspiel.load_game("python_cuarenta", {"rules": "quito", "players": 2})
    with pytest.raises(ValueError, match="needs a decision node"):
        resample_world(game.new_initial_state(), 0, np.random.RandomState(0))


def test_bad_match_arguments() -> None:
    with pytest.raises(ValueError, match="n must be a whole number >= 1"):
        play_outside_duplicate("greedy", "openspiel-random", n=0)
    with pytest.raises(ValueError, match="unknown parameter 'x' of openspiel-ismcts"):
        play_outside_duplicate("greedy", "openspiel-ismcts(x=1)", n=1)


def test_bots_as_tournament_players() -> None:
    """OpenSpiel's bots enter a round-robin tournament by spec, next to our policies."""
    from cuarenta_sim.tournament import TournamentSettings, run_tournament

    settings = TournamentSettings(
        policies=("greedy", "heuristic", "openspiel-random"), chicas=2, seed=3, bootstrap=0
    )
    result = run_tournament(settings, outside.tournament_play(seed=3))
    assert len(result.matches) == 3
    first = result.pairs[("greedy", "openspiel-random", "chica")]
    assert first.equals(play_outside_duplicate("greedy", "openspiel-random", n=1, seed=3).pairs)
    with pytest.raises(ValueError, match="level chica only"):
        outside.tournament_play()("greedy", "openspiel-random", "mesa", 1)


def test_our_side_sees_nothing_of_the_hidden_hands() -> None:
    """Information discipline: in worlds that differ only in the cards hidden from the seat
    (resampled), the seat's observation and so our policies' actions are the same."""
    game = pyspiel.load_game("python_cuarenta", {"rules": "quito", "players": 2})
    rng = np.random.default_rng(8)
    rs = np.random.RandomState(8)
    root, _ = root_from_seed(8)
    specs = [parse_player(p).policy for p in ("greedy", "heuristic", "pimc(samples=4)")]
    state = game.new_initial_state()
    compared = differed = 0
    while not state.is_terminal() and compared < 40:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
            continue
        p = state.current_player()
        other = resample_world(state, p, rs)
        differed += other.core.state.hands[1 - p] != state.core.state.hands[1 - p]
        for spec in specs:
            acts = [outside_agents.PolicyAgent(spec, root, 0, p).act(s) for s in (state, other)]
            assert acts[0] == acts[1]
        compared += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert compared > 0 and differed > 0
