"""Cold-read findings of issue 18 in reports/odds and reports/quito-vs-cuenca (branch
i18-fix-qo): each sentence is built from, or checked against, the rows it rests on."""

from __future__ import annotations

import pandas as pd
import pytest

from cuarenta_sim.cuarenta import analysis, odds
from cuarenta_sim.cuarenta.studies.rule_claims import distinct_checks, odds_claims
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.claims import check_claims, render_claim


def _odds_rows(players: int) -> list[dict]:
    """Dealing-odds rows as odds_check prints them: side 1 misses for ronda and ronda or
    better; a 2-player seat repeats side 0; the 4-player run repeats the 2-player decks."""
    rows = []
    for event, miss in (("ronda", True), ("doble_ronda", False), ("ronda_or_better", True)):
        exact = {"ronda": 0.1435, "doble_ronda": 0.0022, "ronda_or_better": 0.1454}[event]
        side0 = dict(estimate=exact + 1e-4, lower=exact - 6e-4, upper=exact + 8e-4)
        side1 = dict(estimate=exact + 9e-4, lower=exact + 2e-4, upper=exact + 16e-4)
        if not miss:
            side1 = dict(estimate=exact - 2e-4, lower=exact - 9e-4, upper=exact + 7e-4)
        scopes = (["seat"] if players == 2 else []) + ["side 0", "side 1"]
        for scope in scopes:
            v = side1 if scope == "side 1" else side0
            rows.append(
                dict(event=event, scope=scope, players=players, exact=exact, n=1_000_000,
                     method="wilson", defined=True, **v)
            )  # fmt: skip
    for r in rows:
        r["within"] = r["lower"] <= r["exact"] <= r["upper"]
    return rows


def test_odds_inside_counts_distinct_checks_not_repeated_rows() -> None:
    """Finding: '29 of 33' counted each of 2 misses twice; 33 rows hold 15 separate checks."""
    table = pd.DataFrame(_odds_rows(2) + _odds_rows(4))
    assert len(table) == 15 and int(table["within"].sum()) == 11  # old count: 11 of 15
    checks = distinct_checks(table)
    assert len(checks) == 6 and int(checks["within"].sum()) == 4
    s = StudySettings(n=1_000_000, players=(2, 4), models=("learned",))
    rates = pd.DataFrame(
        {
            "metric": "caidas_per_play",
            "players": [2, 4],
            "model": "learned",
            "estimate": 0.11,
            "lower": 0.10,
            "upper": 0.12,
            "n": 1_000_000,
            "method": "ratio",
            "defined": True,
        }
    )
    claims = odds_claims(table, rates, ["learned"], "quito", s)
    inside = next(c for c in claims if c.id == "odds.inside")
    sentence = render_claim(inside)
    assert sentence.startswith("4 of 6 distinct exact dealing odds"), sentence
    assert (
        "15 rows hold 9 repeats, value for value: the player counts deal the same decks "
        "and a 2-player seat is a side" in sentence
    )
    # one player count: the seat rows are the only repeats, and the sentence says only that
    two = odds_claims(table[table["players"] == 2], rates, ["learned"], "quito", s)
    one = render_claim(next(c for c in two if c.id == "odds.inside"))
    assert "9 rows hold 3 repeats, value for value: a 2-player seat is a side" in one, one
    assert "outside: ronda side 1, ronda or better side 1" in sentence
    check_claims([inside])


def test_caida_risk_columns_are_states_where_the_next_player_holds_five() -> None:
    """Finding: unseen = 30, 20, 10 with the next player holding 5 never occur (R2.2, R3.2)."""
    two = analysis.caida_risk_when_next_holds_five(2)
    assert [c for c in two.columns if c != "seen"] == [f"unseen={u}" for u in (35, 25, 15, 5)]
    four = analysis.caida_risk_when_next_holds_five(4)
    assert [c for c in four.columns if c != "seen"] == [
        f"unseen={u}" for u in (35, 34, 33, 15, 14, 13)
    ]
    assert four.loc[0, "unseen=34"] == pytest.approx(float(odds.next_player_holds(1, 34, 5)))
    states = analysis.caida_risk_states(2)
    # 2 players: unseen - next hand is 30, 20, 10, 0 in deals 1..4 (the rest is the stock)
    assert set(states["unseen"] - states["next_hand"]) == {30, 20, 10, 0}
    assert not ((states["unseen"] == 30) & (states["next_hand"] == 5)).any()
    with pytest.raises(ValueError, match="players must be 2 or 4"):
        analysis.caida_risk_states(3)


def test_odds_risk_prose_says_when_the_table_applies() -> None:
    from cuarenta_sim.cuarenta.studies.common import prose

    s = StudySettings(n=1_000, players=(2, 4), models=("learned",))
    text = str(prose("odds").risk(s, [(2, "T2"), (4, "T4")], "CHECK"))
    assert "the next player holds 5 of them" not in text
    assert "still holds all 5 cards" in text and "\n\nT2\n" in text and "\n\nT4\n" in text
    assert "`clopper-pearson bound`" in text


def _qc_diff() -> pd.DataFrame:
    """Differences rows as the committed quito-vs-cuenca report prints them (fractions)."""
    rows = []
    specs = {
        ("datas_per_chica", 2): [
            ("learned", -0.2028, -0.2117, -0.1938, -0.0598, -0.0623, -0.0572, 25_000),
            ("heuristic", -0.195, -0.212, -0.178, -0.0575, -0.0623, -0.0527, 6_250),
            ("greedy", -0.278, -0.294, -0.261, -0.0882, -0.0932, -0.0832, 6_250),
            ("solver (confirm)", -0.236, -0.320, -0.152, -0.067, -0.090, -0.044, 860),
        ],
        ("datas_per_chica", 4): [
            ("learned", -0.2008, -0.2107, -0.1908, -0.0631, -0.0661, -0.0600, 25_000),
            ("heuristic", -0.221, -0.238, -0.203, -0.0705, -0.0759, -0.0651, 6_250),
            ("greedy", -0.297, -0.313, -0.280, -0.0996, -0.1048, -0.0943, 6_250),
            ("solver (confirm)", -0.181, -0.263, -0.099, -0.055, -0.079, -0.031, 707),
        ],
        ("points", 2): [
            ("learned", 1.5272, 1.5204, 1.5340, 0.07144, 0.07113, 0.07175, 1_000_000),
            ("heuristic", 1.493, 1.480, 1.506, 0.06947, 0.06888, 0.07005, 250_000),
            ("greedy", 2.605, 2.591, 2.620, 0.1114, 0.11083, 0.11197, 250_000),
            ("solver (confirm)", 1.44, 0.84, 2.04, 0.069, 0.040, 0.098, 500),
        ],
        ("dealer_advantage", 2): [
            ("learned", 1.0128, 1.0032, 1.0224, 0.1684, 0.1666, 0.1702, 1_000_000),
            ("heuristic", 1.063, 1.046, 1.080, 0.1951, 0.1913, 0.1989, 250_000),
            ("greedy", 1.159, 1.145, 1.173, 0.3294, 0.3234, 0.3354, 250_000),
            ("solver (confirm)", 1.1, 0.1, 2.1, 0.21, 0.01, 0.46, 500),
        ],
    }
    for (metric, p), models in specs.items():
        for m, e, lo, hi, r, rlo, rhi, n in models:
            rows.append(
                dict(metric=metric, players=p, model=m, estimate=e, lower=lo, upper=hi,
                     relative=r, relative_lower=rlo, relative_upper=rhi, n=n,
                     verdict="resolved", differing=n // 2, defined=True,
                     method="paired", no_variation=False)
            )  # fmt: skip
    return pd.DataFrame(rows)


QC_LABELS = ["learned", "heuristic", "greedy", "solver (confirm)"]
QC_POLICIES = {("solver (confirm)", 2): "solver", ("solver (confirm)", 4): "solver(samples=128)"}


def test_qc_answers_say_the_tuned_players_were_not_retuned_for_cuenca() -> None:
    """Finding: effects under learned and heuristic were given without saying both were tuned
    under Quito only and play Cuenca unchanged."""
    from cuarenta_sim.cuarenta.studies.qc_claims import qc_claims

    s = StudySettings(n=1_000_000, players=(2, 4), models=tuple(QC_LABELS[:3]))
    claims = qc_claims(_qc_diff(), QC_LABELS, s, QC_POLICIES)
    text = {c.id: render_claim(c) for c in claims}
    for cid in ("qc.length.2p", "qc.length.4p"):
        assert "(learned and heuristic tuned under Quito, not re-tuned for Cuenca" in text[cid]
    for cid in ("qc.length.2p.learned", "qc.points.2p", "qc.dealer.2p"):
        assert "learned tuned under Quito, not re-tuned for Cuenca" in text[cid], text[cid]
    check_claims(claims)


def test_qc_confirm_run_is_named_by_its_policy_and_size() -> None:
    """Finding: with 4 players 'solver' was solver(samples=128) on 707 chicas only."""
    from cuarenta_sim.cuarenta.studies.qc_claims import qc_claims

    s = StudySettings(n=1_000_000, players=(2, 4), models=tuple(QC_LABELS[:3]))
    claims = qc_claims(_qc_diff(), QC_LABELS, s, QC_POLICIES)
    text = {c.id: render_claim(c) for c in claims}
    four = text["qc.length.4p"]
    assert "6% under learned and solver(samples=128) on 707 chicas" in four, four
    assert "from -5.5% under solver(samples=128) on 707 chicas" in four
    assert "solver on 860 chicas" in text["qc.length.2p"]
    assert "solver on 500 datas" in text["qc.points.2p"]
    check_claims(claims)


def _prose():
    from cuarenta_sim.cuarenta.studies.common import prose

    return prose("quito_vs_cuenca")


def test_qc_rondas_identical_only_at_level_data_and_chica_rows_name_their_preset() -> None:
    """Finding: 'Quito and Cuenca are identical here' while the level-chica rows are Quito's."""
    from cuarenta_sim.cuarenta.studies import qc_sections
    from cuarenta_sim.cuarenta.studies.quito_vs_cuenca import CHICA_ODDS_LEVEL

    assert CHICA_ODDS_LEVEL == "chica (quito)"
    base = dict(event="ronda", players=2, exact=0.264141, n=1000, method="wilson", defined=True)
    table = pd.DataFrame(
        [
            dict(base, scope="anyone", level="data", estimate=0.26, lower=0.25, upper=0.27,
                 within=True, comparable=True),
            dict(base, scope="anyone", level=CHICA_ODDS_LEVEL, estimate=0.25, lower=0.24,
                 upper=0.26, within=float("nan"), comparable=False),
        ]
    )  # fmt: skip
    text = qc_sections.rondas_section(table)
    assert "identical here" not in text
    assert "**at level data**" in text and "`chica (quito)`" in text
    assert "| chica (quito) |" in text


def test_qc_convergence_interval_is_labelled_unadjusted_and_tied_to_the_tables() -> None:
    """Finding: the convergence paragraph's [-0.2089, -0.1966] and the tables' [-0.2117,
    -0.1938] were the same estimate with nothing saying which level each is."""
    import numpy as np

    from cuarenta_sim.cuarenta.studies.panel import Model
    from cuarenta_sim.cuarenta.studies.quito_vs_cuenca import _convergence_vs_tables
    from cuarenta_sim.studies.convergence import convergence_note

    rng = np.random.default_rng(0)
    text, _, _ = convergence_note(
        [rng.normal(-0.2, 1.0, 400), rng.normal(-0.2, 1.0, 100)],
        what="d", unit="chicas", confidence=0.95,
    )  # fmt: skip
    assert (
        "(`normal`, 95% interval, unadjusted)." in text
        or "(`t`, 95% interval, unadjusted)." in text
    )
    head = Model("learned", ("learned",), 1000, "headline", 100, 10)
    s = StudySettings(n=1000, players=(2, 4), models=("learned",))
    tied = _convergence_vs_tables(_qc_diff(), head, s)
    assert "-0.2028 [-0.2117, -0.1938]" in tied and "Holm" in tied and "unadjusted 95%" in tied


def test_qc_methods_half_widths_are_95_percent_and_the_printed_ones_are_given() -> None:
    """Finding: 'half-width of about 0.2 pp', '±1.5 pp' were 95% half-widths beside tables
    printed at Holm's level (learned ±0.26, solver ±2.3 and ±2.4)."""
    from cuarenta_sim.cuarenta.studies import qc_sections
    from cuarenta_sim.cuarenta.studies.panel import Model

    models = [
        Model(m, (m,), 1000, "headline" if m == "learned" else "panel", 100, 10) for m in QC_LABELS
    ]
    s = StudySettings(n=1000, players=(2, 4), models=("learned",))
    printed = qc_sections.printed_halfwidths(_qc_diff(), models, s)
    assert "`learned` ±0.26 pp (2 players), ±0.31 pp (4 players)" in printed
    assert "`solver (confirm)` ±2.30 pp (2 players), ±2.40 pp (4 players)" in printed
    est = pd.DataFrame(
        [
            dict(players=p, variant=v, metric=m, n=100)
            for p in (2, 4)
            for v in ("quito", "cuenca")
            for m in ("datas_per_chica", "first_dealer_wins")
        ]
    )
    text = qc_sections.methods_section(
        est, s, models, {m: 1.0 for m in QC_LABELS}, "C", "", printed
    )
    assert "95% half-width (unadjusted) of about 0.2 pp" in text
    assert "**95% half-widths (unadjusted)**" in text and printed in text


def test_qc_equal_score_states_do_not_claim_a_resolved_edge() -> None:
    """Finding: 7 of 12 equal-score rows contain 50% and one lies below it."""
    from cuarenta_sim.cuarenta.studies.qc_sections import equal_states

    cells = [  # (estimate, lower, upper, n) of the committed report's equal-score rows
        (0.630, 0.568, 0.688, 246), (0.554, 0.484, 0.623, 193), (0.611, 0.539, 0.678, 185),
        (0.576, 0.513, 0.637, 243), (0.561, 0.483, 0.637, 155), (0.710, 0.639, 0.772, 176),
        (0.532, 0.463, 0.600, 201), (0.518, 0.442, 0.593, 164), (0.561, 0.491, 0.629, 196),
        (0.477, 0.407, 0.547, 193), (0.617, 0.526, 0.701, 115), (0.55, 0.48, 0.62, 180),
    ]  # fmt: skip
    rows = [pd.Series(dict(estimate=e, lower=lo, upper=hi, n=n)) for e, lo, hi, n in cells]
    eq = equal_states(rows)
    assert eq == dict(total=12, above=5, contain=7, below=1, n_min=115, n_max=246)
    text = str(_prose().winprob("TABLE", eq))
    assert "is the next dealer's edge" not in text
    assert "above 50% in 5 of these 12 rows and contains 50% in 7" in text
    assert "1 estimate lies below 50%" in text and "mostly not resolved" in text


def test_qc_sources_say_where_a_caida_limpia_is_booked() -> None:
    """Finding: Quito's 2-point 'todo dos' plays are booked to caida, never said."""
    from cuarenta_sim.cuarenta.studies.qc_sections import caida_limpia_booking

    booking = caida_limpia_booking()
    assert booking == [
        {"name": "Quito", "total": 2, "caida": 2, "limpia": 0},
        {"name": "Cuenca", "total": 4, "caida": 2, "limpia": 2},
    ]
    text = str(_prose().sources("TABLE", booking))
    assert "under Quito it scores 2 points, 2 booked to caida and 0 to limpia" in text
    assert "under Cuenca it scores 4 points, 2 booked to caida and 2 to limpia" in text
    assert "\n\nTABLE\n" in text


def test_odds_risk_section_orders_each_table_by_unseen() -> None:
    from cuarenta_sim.cuarenta.studies.odds_report import _risk_section

    risk = pd.concat(
        [analysis.caida_risk_when_next_holds_five(p).assign(players=p) for p in (2, 4)],
        ignore_index=True,
    )
    check = pd.DataFrame(
        [dict(seen=4, exact=0.0, estimate=0.0, lower=0.0, upper=0.0072, trials=513, n=513,
              method="clopper-pearson bound", defined=True, within=True)]
    )  # fmt: skip
    s = StudySettings(n=1_000, players=(2, 4), models=("learned",))
    text = _risk_section(risk, check, s)
    assert "| seen | unseen=35 | unseen=25 | unseen=15 | unseen=5 |" in text
    assert (
        "| seen | unseen=35 | unseen=34 | unseen=33 | unseen=15 | unseen=14 | unseen=13 |" in text
    )
    assert "| clopper-pearson bound |" in text


# --- second cold read (branch i18-fix2-qo) ---------------------------------------------------


def test_odds_caida_headline_gives_method_n_and_tuning() -> None:
    """Finding: the caida headline interval gave no method, no n and no tuning note."""
    table = pd.DataFrame(_odds_rows(2))
    s = StudySettings(n=1_000_000, players=(2,), models=("learned", "greedy"))
    rates = pd.DataFrame(
        {
            "metric": "caidas_per_play",
            "players": 2,
            "model": ["learned", "greedy"],
            "estimate": [0.112213, 0.1086],
            "lower": [0.112124, 0.1080],
            "upper": [0.112303, 0.1092],
            "n": [1_000_000, 250_000],
            "method": "ratio",
            "defined": True,
        }
    )
    claims = odds_claims(table, rates, ["learned", "greedy"], "quito", s)
    caida = next(c for c in claims if c.id == "odds.caida.2p")
    text = render_claim(caida)
    assert (
        "(rules quito; `ratio` over 1,000,000 datas; learned tuned under Quito, see Methods "
        "*Tuning*)" in text
    ), text
    check_claims([caida])
    # an untuned headline gets no tuning note
    other = odds_claims(table, rates.iloc[::-1], ["greedy", "learned"], "quito", s)
    text = render_claim(next(c for c in other if c.id == "odds.caida.2p"))
    assert "(rules quito; `ratio` over 250,000 datas)" in text, text


def test_qc_answers_give_method_holm_level_n_and_relative_wording() -> None:
    """Findings: the answers' intervals gave no method, no level (Holm) and, for points and
    the dealer's edge, no n; the across-models range was a relative change, unsaid."""
    from cuarenta_sim.cuarenta.studies.qc_claims import qc_claims

    s = StudySettings(n=1_000_000, players=(2, 4), models=tuple(QC_LABELS[:3]))
    claims = qc_claims(_qc_diff(), QC_LABELS, s, QC_POLICIES)
    text = {c.id: render_claim(c) for c in claims}
    for cid in ("qc.length.2p.learned", "qc.length.4p.learned"):
        assert (
            "`paired log-ratio` and `paired` intervals at the level Holm tested the row"
            in text[cid]
        ), text[cid]
    for cid in ("qc.points.2p", "qc.dealer.2p"):
        assert (
            "(resolved; `paired` over 1,000,000 datas, interval at the level Holm tested the row;"
            in text[cid]
        ), text[cid]
        assert "across models, relative change: same sign in 4 of 4" in text[cid], text[cid]
    check_claims(claims)


def test_qc_four_player_answers_say_heuristic_was_tuned_with_two_players() -> None:
    """Finding: the 4-player answer said heuristic was tuned under Quito, but it was tuned
    with 2 players only and used unchanged with 4."""
    from cuarenta_sim.cuarenta.studies.qc_claims import qc_claims, tuned_note

    s = StudySettings(n=1_000_000, players=(2, 4), models=tuple(QC_LABELS[:3]))
    text = {c.id: render_claim(c) for c in qc_claims(_qc_diff(), QC_LABELS, s, QC_POLICIES)}
    four = "heuristic tuned for the two-player game only, used unchanged here"
    assert four in text["qc.length.4p"], text["qc.length.4p"]
    assert four not in text["qc.length.2p"] and "used unchanged" not in text["qc.length.4p.learned"]
    assert tuned_note(["learned"], 4) == "learned tuned under Quito, not re-tuned for Cuenca"


def test_panel_identical_counts_the_models_run() -> None:
    """Finding (shared a): 'identical under every model' beside a 'not run at this level'
    column; the line counts the rows it was given."""
    from cuarenta_sim.cuarenta.studies.panel import robustness

    rows = pd.DataFrame(
        {
            "metric": "p_ronda_dealt",
            "model": ["learned", "heuristic", "greedy"],
            "estimate": 0.0,
            "relative": 0.0,
            "verdict": "identical",
            "differing": 0,
            "n": [1_000_000, 250_000, 250_000],
        }
    )
    assert robustness(rows) == "identical under the 3 models run"
    assert robustness(rows, short=True) == "identical in all"


def test_panel_opposite_signs_are_named_with_enough_digits() -> None:
    """Finding: 'same sign in 1 of 3 models; opposite sign in 1; ...; size 0.00 pp' hid
    which sign was the reference and printed a size of 0.00."""
    from cuarenta_sim.cuarenta.studies.panel import robustness

    rows = pd.DataFrame(
        {
            "metric": "caidas_per_play",
            "model": ["learned", "heuristic", "greedy"],
            "estimate": [0.000045, -0.000025, 0.0],
            "relative": [0.0004, -0.00021, 0.0],
            "verdict": ["resolved, possibly negligible", "resolved, possibly negligible",
                        "identical"],
            "differing": [100_000, 20_000, 0],
            "n": [1_000_000, 250_000, 250_000],
        }
    )  # fmt: skip
    line = robustness(rows)
    assert line == (
        "same sign in 1 of 3 models (positive); opposite sign in 1 (negative); identical in 1; "
        "size +0.0045 pp; opposite sign -0.0025 pp"
    ), line
    assert robustness(rows, short=True) == "1/3 same sign, 1 opposite"


def test_no_variation_rate_per_hand_gets_the_clopper_pearson_bound() -> None:
    """Finding (shared b): 'doble rondas per dealt hand | 0.0000% (no interval) | ratio' in
    a 500-data run without a doble ronda, though Methods define a `clopper-pearson bound`."""
    from cuarenta_sim.cuarenta.compare_metrics import cuarenta_metrics as default_metrics
    from cuarenta_sim.stats import NO_VARIATION_METHOD

    metric = next(m for m in default_metrics() if m.name == "doble_rondas_per_hand")
    frame = pd.DataFrame({"x": range(500)})
    # per data: 0 doble rondas out of 8 dealt hands
    metric = type(metric)(**{**metric.__dict__, "value": lambda f: [0.0] * len(f),
                             "denominator": lambda f: [8.0] * len(f)})  # fmt: skip
    row = metric.estimate(frame)
    assert row["method"] == NO_VARIATION_METHOD and bool(row["defined"]), row
    assert row["lower"] == 0.0 and 0.0 < row["upper"] < 0.01, row
    rates = [m for m in default_metrics() if m.name.endswith(("_per_play", "_per_hand"))]
    assert rates and all(m.value_range == (0.0, 1.0) for m in rates)


def test_qc_summary_says_what_each_percentage_is_of() -> None:
    """Finding: 'percentages are percentages of plays, datas or chicas' left out shares of
    points (of points) and the relative column (of the Quito value)."""
    from cuarenta_sim.cuarenta.studies.panel import Model

    head = Model("learned", ("learned",), 1000, "headline", 100, 10)
    s = StudySettings(n=1000, players=(2,), models=("learned",))
    text = str(_prose().summary(s, head, [head], "TABLE"))
    assert "(a share of points from a source: of points)" in text, text
    assert "the relative column is a percentage of the Quito value" in text


def test_odds_risk_prose_describes_the_first_plays_of_a_deal() -> None:
    """Finding: 'the first trail of each deal' described the states wrongly: they are the
    deal's first play(s) when that play is a trail (table cards carry over, R3.2)."""
    from cuarenta_sim.cuarenta.studies.common import prose

    s = StudySettings(n=1_000, players=(2, 4), models=("learned",))
    text = str(prose("odds").risk(s, [(2, "T2"), (4, "T4")], "CHECK"))
    assert "first trail of each deal" not in text
    assert "the first play of each deal when that play is a trail" in text
    assert "the first three plays of each deal when that play is a trail" in text


def test_a_bound_just_below_zero_prints_its_sign() -> None:
    """Finding: '1.0 pp [-0.0, 2.4]' hid the sign of the lower bound."""
    from cuarenta_sim.studies.framework import cell

    text = cell(0.0104, -0.0004, 0.0243, percent=True, suffix=" pp")
    assert text == "1.04 pp [-0.04, 2.43]", text
    # a bound far from 0 keeps the usual decimals; an exact 0 stays 0
    assert cell(0.0104, 0.002, 0.0243, percent=True, suffix=" pp") == "1.0 pp [0.2, 2.4]"


def test_qc_rondas_table_shows_both_sides_by_name() -> None:
    """Finding: the row labelled 'side' was side 0 only; side 1, whose interval excluded the
    exact value, was left out."""
    from cuarenta_sim.cuarenta.studies import qc_sections

    base = dict(event="ronda", players=2, exact=0.143543, n=1_000_000, method="wilson",
                defined=True, level="data", comparable=True)  # fmt: skip
    table = pd.DataFrame(
        [
            dict(base, scope="side 0", estimate=0.14363, lower=0.14295, upper=0.14432,
                 within=True),
            dict(base, scope="side 1", estimate=0.14439, lower=0.14370, upper=0.14508,
                 within=False),
            dict(base, scope="anyone", exact=0.264141, estimate=0.26481, lower=0.26395,
                 upper=0.26568, within=True),
        ]
    )  # fmt: skip
    text = qc_sections.rondas_section(table)
    assert "| ronda | side 0 |" in text and "| ronda | side 1 |" in text, text
    assert "| ronda | side |" not in text
    assert "one side (4 hands)" not in text and "`side 1`: 4 hands each" in text
