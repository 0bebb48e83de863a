"""The strategies report (issue 13 items 5, 6; issue 12 item 5): head-to-head tables, the
Bradley-Terry misfit warning, shared-deck bootstrap across matches of unequal sizes, folk
tactics forced on ``learned`` with Holm verdicts, and the report end to end at tiny sizes."""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.bradley_terry import bootstrap_draws, ratings
from cuarenta_sim.cuarenta.engine import trace_game
from cuarenta_sim.cuarenta.engine.learned import FEATURE_NAMES
from cuarenta_sim.cuarenta.policies.learned import load_weights
from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.cuarenta.strategies import _ratings_section, strategies_study
from cuarenta_sim.cuarenta.strategy_play import (
    DEFAULT_POLICIES,
    SEARCH_DIVISOR,
    WEAK_SEARCH_DIVISOR,
    search_pair_sizes,
)
from cuarenta_sim.cuarenta.strategy_tables import fit_sentence, matrix_rows, tournament_text
from cuarenta_sim.cuarenta.tactics import (
    FORCED,
    LEARNED_TACTICS,
    deviated_weights,
    family_verdicts,
    learned_tactics,
    pair_test,
    write_deviation,
)
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.tournament import PAIR_COLUMNS, TournamentSettings, run_tournament


def _frame(a_wins: np.ndarray) -> pd.DataFrame:
    n = len(a_wins)
    return pd.DataFrame(
        {
            "game": np.arange(n),
            "a_wins": a_wins.astype(np.float64),
            "games": np.full(n, 2),
            "a_points": (20 * a_wins).astype(np.int64) + 5,
            "b_points": (20 * (2 - a_wins)).astype(np.int64) + 5,
            "datas": np.full(n, 6),
        },
        columns=list(PAIR_COLUMNS),
    )


def _synthetic_play(win: dict[frozenset, tuple[str, float]], seed: int = 0):
    """A duplicate-match player of made-up policies: ``a`` wins each game with the chance
    given for the pair (the first name of the entry is the one the chance belongs to)."""

    def play(a: str, b: str, level: str, n: int) -> pd.DataFrame:
        first, p = win[frozenset((a, b))]
        p = p if first == a else 1.0 - p
        # A stable seed per match (str hashes change between processes).
        rng = np.random.default_rng([zlib.crc32(f"{a}/{b}/{level}".encode()), seed])
        return _frame(rng.binomial(1, p, (n, 2)).sum(axis=1))

    return play


ROCK_PAPER_SCISSORS = {
    frozenset(("rock", "scissors")): ("rock", 0.75),
    frozenset(("scissors", "paper")): ("scissors", 0.75),
    frozenset(("paper", "rock")): ("paper", 0.75),
}


def test_head_to_head_matrix_shape_and_intervals_with_unequal_pair_sizes() -> None:
    names = ("rock", "paper", "scissors")
    settings = TournamentSettings(
        policies=names, chicas=400, mesas=0, bootstrap=50,
        pair_sizes=(("paper", "scissors", 100, 0),),
    )  # fmt: skip
    result = run_tournament(settings, _synthetic_play(ROCK_PAPER_SCISSORS))
    table = result.head_to_head
    assert len(table) == 3 * 2  # every ordered pair of distinct policies
    assert (table["lower"] <= table["win_rate"]).all() and (
        table["win_rate"] <= table["upper"]
    ).all()
    assert (table["ppd_lower"] < table["ppd_upper"]).all()
    assert set(table["win_method"]) == {"clustered wilson"} and set(table["ppd_method"]) == {
        "ratio"
    }
    pairs = {(r["a"], r["b"]): r["pairs"] for _, r in table.iterrows()}
    assert pairs[("paper", "scissors")] == pairs[("scissors", "paper")] == 50
    assert pairs[("rock", "paper")] == 200
    rows = matrix_rows(table, "win_rate", lambda v: f"{100 * v:.1f}")
    assert [len(r) for r in rows] == [4, 4, 4]
    assert [rows[i][i + 1] for i in range(3)] == ["-", "-", "-"]
    text = tournament_text(result)
    assert "row vs column" in text and "disc." in text
    assert all(len(line) <= 100 for line in text.splitlines()), text


def test_bradley_terry_misfit_warning_is_shown_on_intransitive_results() -> None:
    settings = TournamentSettings(policies=("rock", "paper", "scissors"), chicas=2000, bootstrap=20)
    result = run_tournament(settings, _synthetic_play(ROCK_PAPER_SCISSORS))
    assert result.fit is not None and result.fit.misfit
    section = _ratings_section(result)
    assert "**Warning: Bradley-Terry misfits these results.**" in section
    assert "deviance" in fit_sentence(result.fit) and "degree of freedom" in section
    # A transitive tournament: no warning.
    transitive = {
        frozenset(("rock", "paper")): ("rock", 0.6),
        frozenset(("paper", "scissors")): ("paper", 0.6),
        frozenset(("rock", "scissors")): ("rock", 0.6 * 0.6 / (0.6 * 0.6 + 0.4 * 0.4)),
    }
    fitted = run_tournament(settings, _synthetic_play(transitive, seed=1))
    assert not fitted.fit.misfit and "Warning" not in _ratings_section(fitted)


def test_bootstrap_draws_share_deals_across_matches_of_unequal_sizes() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        big, small, same = bootstrap_draws([60, 25, 60], rng)
        assert same is big and big.size == 60
        # The smaller match takes exactly the drawn deals it played, in draw order: with
        # separate draws this would fail.
        assert np.array_equal(small, big[big < 25])


def test_ratings_bootstrap_of_unequal_matches_resamples_shared_decks_together() -> None:
    """Policies b and c play a on the same decks with the same results, and each other on
    fewer decks (every pair split): in every replicate they stay tied, so their intervals are
    identical; resampling the matches separately would tell them apart."""
    rng = np.random.default_rng(11)
    luck = rng.binomial(2, 0.35, 300).astype(np.float64)
    matches = [(0, 1, luck), (0, 2, luck.copy()), (1, 2, np.ones(120))]
    r = ratings(["a", "b", "c"], matches, bootstrap=200, seed=2).set_index("policy")
    assert r.loc["b", "lower"] == pytest.approx(r.loc["c", "lower"], abs=1e-9)
    assert r.loc["b", "upper"] == pytest.approx(r.loc["c", "upper"], abs=1e-9)


def test_pair_test_is_exact_on_a_handful_of_discordant_pairs() -> None:
    # 4 of 4 discordant pairs favour a: exact p = 0.125, not resolved.
    a_wins = np.array([2.0] * 4 + [1.0] * 96)
    t = pair_test(_frame(a_wins))
    assert (t["n_ab"], t["n_ba"], t["discordant"], t["test"]) == (4, 0, 4, "exact binomial")
    assert t["p_value"] == pytest.approx(0.125)
    assert t["effect"] == pytest.approx(0.02)
    row = pd.DataFrame([{**t, "tactic": "x"}])
    assert family_verdicts(row)["verdict"].iloc[0] == "not resolved (4 discordant pairs)"
    # No pair differed on many decks: the row says so of itself (not "never binds", a
    # tactic-level word that needs every row of the tactic without a discordant pair) ...
    flat = pd.DataFrame([{**pair_test(_frame(np.ones(5000))), "tactic": "x"}])
    assert (
        family_verdicts(flat)["verdict"].iloc[0] == "no pair's result changed (0 discordant pairs)"
    )
    # ... but on a handful of decks it is no evidence of equality.
    few = pd.DataFrame([{**pair_test(_frame(np.ones(20))), "tactic": "x"}])
    assert family_verdicts(few)["verdict"].iloc[0] == "not resolved (0 discordant pairs)"


def test_tactic_verdicts_are_holm_adjusted_over_the_family() -> None:
    # Five tactics each with p = 0.034 (1.5 percentage points, outside the margin): each
    # alone resolves, Holm over five does not.
    rows = []
    for _ in range(5):
        # 115 pairs won twice, 85 lost twice, 800 split.
        a_wins = np.array([2.0] * 115 + [0.0] * 85 + [1.0] * 800)
        rows.append(pair_test(_frame(a_wins)))
    frame = pd.DataFrame(rows)
    assert (frame["p_value"] < 0.05).all() and (frame["test"] == "mcnemar score").all()
    out = family_verdicts(frame)
    assert (out["family_size"] == 5).all() and (out["p_adjusted"] > 0.05).all()
    assert all(v.startswith("not resolved") for v in out["verdict"])
    # Issue 18 finding 1: the marginal intervals exclude 0 on these unresolved rows; the
    # printed ones (at the level Holm tested each row) contain it.
    assert (frame["effect_lower"] > 0).all()
    assert (out["effect_lower_adj"] <= 0).all() and (out["test_level"] > 0.95).all()
    assert (out["effect_lower"] == frame["effect_lower"]).all()  # the marginal one is kept
    alone = family_verdicts(frame.iloc[[0]])
    assert alone["verdict"].iloc[0] == "helps" and alone["effect_lower_adj"].iloc[0] > 0
    # A large effect survives the correction.
    strong = pd.DataFrame([*rows[:4], pair_test(_frame(np.array([0.0] * 300 + [1.0] * 4700)))])
    fam = family_verdicts(strong)
    verdicts = fam["verdict"].tolist()
    assert verdicts[-1] == "hurts" and verdicts[0].startswith("not resolved")
    resolved = fam["verdict"].isin(("helps", "hurts"))
    excludes = (fam["effect_lower_adj"] > 0) | (fam["effect_upper_adj"] < 0)
    assert (resolved == excludes).all()


def test_deviated_weights_shift_only_the_tactic_feature() -> None:
    base = load_weights("learned_v1").weights
    points = FEATURE_NAMES.index("points")
    for tactic in LEARNED_TACTICS:
        w = deviated_weights("learned_v1", tactic, 2.0)
        j = FEATURE_NAMES.index(tactic.feature)
        diff = w - base
        assert np.count_nonzero(diff) == 2  # one feature, both player counts
        assert list(diff[:, j]) == [tactic.sign * round(2.0 * abs(int(base[r, points])))
                                    for r in range(2)]  # fmt: skip
    with pytest.raises(ValueError, match="dose must be >= 0"):
        deviated_weights("learned_v1", LEARNED_TACTICS[0], -1.0)


def test_forced_tactic_plays_the_same_in_kernel_and_reference(tmp_path) -> None:
    """The deviation is a weights file of the learned kernel: kernel and reference twin agree
    play for play on it, and forcing the tactic changes play."""
    tactic = next(t for t in LEARNED_TACTICS if t.tactic == "no_ace_trail")
    spec = write_deviation(tmp_path, "learned_v1", tactic, FORCED)
    policies = (spec, "learned")
    changed = False
    for i in range(6):
        ker = trace_game("quito", 2, policies, 9, "data", i)
        log = play_game("quito", players=2, policies=policies, seed=9, level="data", index=i)
        assert np.array_equal(log.trace, ker), f"game {i}"
        changed |= not np.array_equal(ker, trace_game("quito", 2, ("learned", "learned"),
                                                      9, "data", i))  # fmt: skip
    assert changed


def test_learned_tactics_rows_and_families() -> None:
    frame = learned_tactics(chicas=20, doses=(1.0, FORCED), seed=3)
    assert len(frame) == 2 * len(LEARNED_TACTICS)
    assert frame["forced"].sum() == len(LEARNED_TACTICS)
    forced = frame[frame["forced"]]
    assert forced["verdict"].str.len().gt(0).all()
    assert (frame.loc[~frame["forced"], "verdict"] == "").all()
    assert frame["dose_verdict"].str.len().gt(0).all()
    assert (frame["games"] == 20).all()
    assert (
        (frame["effect_lower"] <= frame["effect"]) & (frame["effect"] <= frame["effect_upper"])
    ).all()
    with pytest.raises(ValueError, match="even whole number"):
        learned_tactics(chicas=3)


def test_search_pairs_are_smaller() -> None:
    sizes = search_pair_sizes(DEFAULT_POLICIES, 20_000)
    assert {(a, b) for a, b, _, _ in sizes} == {
        (a, b) for i, a in enumerate(DEFAULT_POLICIES) for b in DEFAULT_POLICIES[i + 1:]
        if "pimc" in (a, b) or "solver" in (a, b)
    }  # fmt: skip
    weak = {(a, b) for a, b, c, _ in sizes if c == 20_000 // WEAK_SEARCH_DIVISOR}
    assert weak == {(a, b) for a, b, _, _ in sizes if {a, b} & {"random", "greedy"}}
    assert {(c, m) for _, _, c, m in sizes} == {
        (20_000 // SEARCH_DIVISOR, 0),
        (20_000 // WEAK_SEARCH_DIVISOR, 0),
    }
    assert search_pair_sizes(("random", "greedy"), 20_000) == ()


def test_strategies_report_end_to_end_tiny() -> None:
    settings = StudySettings(
        n=12, players=(2,), policies=("random", "greedy", "learned", "solver(samples=2)")
    )
    out = strategies_study(settings)
    md = out.report.to_markdown()
    headings = [h for h, _ in out.report.sections]
    assert headings[0] == "Answers"
    assert 3 <= out.report.sections[0][1].count(". ") + 1 <= 6
    for h in ("Head-to-head, 2 players", "Ratings, 2 players",
              "Folk tactics forced on the learned player, 2 players",
              "Folk tactics as switches of the tuned heuristic, 2 players",
              "Strength against cost", "Methods"):  # fmt: skip
        assert h in headings, headings
    assert "percentage points" in md and "Tuned-heuristic results" in md
    assert {"head_to_head_2p", "ratings_2p", "tactics_dose_response", "tactics",
            "convergence"} <= set(out.figures)  # fmt: skip
    # No heuristic in this panel: the convergence figure follows the first pair's match.
    methods = dict(out.report.sections)["Methods"]
    assert "**Convergence of random's win rate vs greedy, 2 players.**" in methods
    assert "(figures/convergence.png)" in methods
    conv = out.tables["convergence"]
    assert conv.groupby("replicate")["n"].max().tolist() == [6, 2, 2]
    # The console starts with the answers and its tables fit 100 columns.
    first = out.summary.splitlines()[0]
    assert first == out.report.sections[0][1].split(". ")[0] + "." or first.startswith("With ")
    assert all(len(line) <= 100 for line in out.summary.splitlines()), out.summary
    m = out.tables["matches_2p"]
    solver_pairs = m[m["b"].str.startswith("solver") & (m["level"] == "chica")]
    assert (solver_pairs["pairs"] == 1).all()  # 12 // 20 chicas -> at least one pair
    assert not (m["b"].str.startswith("solver") & (m["level"] == "mesa")).any()
    assert out.report.provenance["search_chicas_per_pair"] == 2
    assert out.report.provenance["tactic_chicas"] == 6
    assert (out.tables["tactics_learned"]["games"] == 6).all()
    # Issue 18 item 4: the tactic answer rests on the ablation, with the tuning disclosed
    # wherever a tuned player's tactic results appear, and one verdict replayed vs solver.
    sections = dict(out.report.sections)
    ablation = sections["Folk tactics by ablation of the learned player, 2 players"]
    assert "Tuning disclosed" in ablation and "evolution strategies" in ablation
    assert "Removing each folk tactic's weight" in sections["Answers"]
    assert "Forced on the learned player" not in sections["Answers"]
    forced = sections["Folk tactics forced on the learned player, 2 players"]
    assert "evolution strategies" in forced and "not the tactic test" in forced
    assert "coordinate search" in sections[
        "Folk tactics as switches of the tuned heuristic, 2 players"]  # fmt: skip
    assert set(out.tables["tactics_ablation"]["arm"]) == {"removed", "reversed"}
    assert (out.tables["tactic_check"]["opponent"] == "solver").all()
    assert out.report.provenance["tactic_check_pairs"] == 2
    # Issue 18 item 8: ratings without the random player with widened intervals; speeds
    # measured by the report, with repeats; the OpenSpiel page linked.
    ratings = sections["Ratings, 2 players"]
    assert "**Without the random player.**" in ratings and "widened by the misfit" in ratings
    strength = sections["Strength against cost"]
    assert "measured by this report" in strength and "(openspiel.md)" in strength
    assert (out.tables["speeds"]["repeats"] == 3).all()
    assert "benchmarks/" not in str(out.report.provenance.get("strength_vs_cost", {}).get("path"))
    # Cold read: every figure the report writes is named in its text (ratings and tactics
    # figures were not).
    for name in out.figures:
        assert f"figures/{name}" in md or f"figures/{name.rsplit('_', 1)[0]}_*" in md, name


def test_exact_rows_get_the_exact_interval_at_the_holm_level() -> None:
    """Below 100 discordant pairs the printed interval is recomputed exactly (dual to the exact
    test) at the level Holm tested the row: resolved iff it excludes 0, on every row."""
    rows = [
        pair_test(_frame(np.array([2.0] * k + [0.0] + [1.0] * (200 - k - 1))))
        for k in (8, 8, 12, 30)
    ]
    frame = pd.DataFrame(rows)
    assert (frame["test"] == "exact binomial").all()
    fam = family_verdicts(frame)
    resolved = fam["verdict"].isin(("helps", "hurts"))
    excludes = (fam["effect_lower_adj"] > 0) | (fam["effect_upper_adj"] < 0)
    assert resolved.tolist() == [False, False, True, True] and (resolved == excludes).all()
    # 8 of 9 discordant pairs: p = 0.039 < 0.05 alone, so the marginal interval excludes 0;
    # Holm stops there, and the printed interval contains 0.
    assert (frame["p_value"].iloc[:2] < 0.05).all() and (frame["effect_lower"].iloc[:2] > 0).all()
    # Holm tested every row below the nominal level: each printed interval is wider.
    width = fam["effect_upper_adj"] - fam["effect_lower_adj"]
    assert (width >= frame["effect_upper"] - frame["effect_lower"] - 1e-12).all()
