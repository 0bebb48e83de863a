"""Claims and their checker (issue 18 item 1): valid claims pass, planted overclaims fail.

Each mutation test starts from a valid claim, plants one overclaim and asserts the checker
refuses it naming that kind.
"""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from cuarenta_sim.studies.claims import (
    TOO_SMALL,
    Claim,
    ClaimError,
    Evidence,
    Scope,
    check_claims,
    claim_problems,
    count_agreement,
    render_claim,
    table_rows,
    verdict_words,
    write_claims,
)

ROW = Evidence(
    table="panel",
    row="datas per chica|2|learned",
    values={"estimate": -5.8213, "lower": -6.0012, "upper": -5.6401, "n": 1_000_000},
    verdict="resolved: cuenca lower",
    model="learned",
)
SCOPE = Scope(
    models=("learned",), players=(2,), rules=("quito", "cuenca"), sizes={"datas": 1_000_000}
)


def headline(**changes: object) -> Claim:
    """A valid single-model claim; ``changes`` replace its fields."""
    base = Claim(
        id="qc.headline.2p",
        template=(
            "With 2 players under {model}, Cuenca has fewer datas per chica than Quito by "
            "{rel:.2f}% [{lo:.2f}, {hi:.2f}] (resolved; {n:,} datas)."
        ),
        values={"model": "learned", "rel": 5.8213, "lo": -6.0012, "hi": -5.6401, "n": 1_000_000},
        evidence=(ROW,),
        test="paired delta method, Holm over 11 metrics",
        verdict="resolved",
        scope=SCOPE,
        caveats=("one model's Monte Carlo error, not model uncertainty",),
    )
    return dataclasses.replace(base, **changes)


def panel_rows(verdicts: tuple[str, ...], estimates: tuple[float, ...]) -> tuple[Evidence, ...]:
    models = ("learned", "heuristic", "greedy", "solver")
    return tuple(
        Evidence(
            table="panel",
            row=f"datas per chica|2|{m}",
            values={"estimate": e, "lower": e - 0.5, "upper": e + 0.5},
            verdict=v,
            model=m,
            role="agreement",
        )
        for m, v, e in zip(models, verdicts, estimates, strict=True)
    )


def agreement_claim(**changes: object) -> Claim:
    rows = panel_rows(("resolved", "resolved", "resolved", TOO_SMALL), (-5.8, -6.1, -8.8, 1.2))
    base = Claim(
        id="qc.agree",
        template=(
            "Same sign in {k} of {m} models (learned, heuristic, greedy); "
            "the solver run is too small to tell."
        ),
        values={"k": 3, "m": 3},
        evidence=rows,
        test="per-model paired tests, Holm",
        verdict="mixed",
        scope=Scope(models=("learned", "heuristic", "greedy", "solver"), players=(2,)),
        direction=-1,
    )
    return dataclasses.replace(base, **changes)


def kinds_of(claims: list[Claim], **kw: object) -> set[str]:
    with pytest.raises(ClaimError) as info:
        check_claims(claims, **kw)
    return info.value.kinds


# ------------------------------------------------------------------------------ valid claims
def test_valid_claims_pass_and_render():
    check_claims([headline(), agreement_claim()])
    text = render_claim(headline())
    assert "5.82%" in text and "[-6.00, -5.64]" in text and "1,000,000" in text


def test_names_are_not_numbers_and_player_lists_are_read():
    claim = headline(
        template="Under {model} (learned_v2 weights, rule R5.2), 2 players: {rel:.1f}% (resolved).",
    )
    check_claims([claim])


def test_claims_json_round_trip(tmp_path):
    path = write_claims([headline()], tmp_path / "claims.json")
    data = json.loads(path.read_text())
    assert data[0]["id"] == "qc.headline.2p"
    assert data[0]["sentence"] == render_claim(headline())
    assert set(data[0]) >= {"id", "sentence", "evidence", "test", "verdict", "scope", "caveats"}
    assert data[0]["evidence"][0]["values"]["n"] == 1_000_000


# ------------------------------------------------------------------------- mutation: numbers
def test_number_not_in_evidence_is_refused():
    # a planted number in the template text, not in the values: parsed from the sentence
    claim = headline(template=headline().template.replace("by {rel:.2f}%", "by 6.02%"))
    assert "number" in kinds_of([claim])


def test_number_rounded_to_more_digits_than_evidence_supports_is_refused():
    claim = headline(values={**headline().values, "rel": 5.83})
    problems = claim_problems([claim])
    assert [k for _, k, _ in problems] == ["number"]


def test_rounding_to_printed_precision_is_accepted():
    claim = headline(template="With 2 players under {model}, about {rel:.0f}% fewer (resolved).")
    check_claims([claim])


def test_constants_must_be_declared():
    claim = headline(template="With 2 players under {model}, 95% interval [{lo:.2f}, {hi:.2f}].")
    assert "number" in kinds_of([claim])
    check_claims([dataclasses.replace(claim, constants={"confidence level, %": 95})])


# ------------------------------------------------------------------------ mutation: verdicts
@pytest.mark.parametrize(
    "word", ["not resolved", "no difference", "negligible", "too small to tell"]
)
def test_verdict_word_contradicting_rows_is_refused(word):
    claim = headline(template=headline().template.replace("(resolved;", f"({word};"))
    assert "verdict" in kinds_of([claim])


def test_resolved_on_not_resolved_row_is_refused():
    row = dataclasses.replace(
        ROW, verdict="not resolved", values={**ROW.values, "lower": -6.1, "upper": 0.2}
    )
    claim = headline(evidence=(row,), verdict="not resolved")
    assert "verdict" in kinds_of([claim])


def test_helps_needs_a_helps_row():
    row = dataclasses.replace(ROW, verdict="hurts")
    claim = headline(
        evidence=(row,),
        verdict="hurts",
        template=headline().template.replace("(resolved;", "(helps;"),
    )
    assert "verdict" in kinds_of([claim])
    ok = dataclasses.replace(claim, template=headline().template.replace("(resolved;", "(hurts;"))
    check_claims([ok])


def test_not_resolved_is_not_read_as_resolved():
    assert verdict_words("not resolved, the run is too small to tell") == [
        "too small to tell",
        "not resolved",
    ]


# --------------------------------------------------------------------------- mutation: scope
def test_single_model_number_without_its_model_is_refused():
    claim = headline(template=headline().template.replace(" under {model}", ""))
    assert "scope" in kinds_of([claim])


def test_player_count_outside_scope_is_refused():
    claim = headline(template=headline().template.replace("With 2 players", "With 2 and 4 players"))
    assert "scope" in kinds_of([claim])


def test_single_player_count_unnamed_is_refused():
    claim = headline(template=headline().template.replace("With 2 players under", "Under"))
    assert kinds_of([claim]) == {"scope"}


def test_other_model_or_all_models_is_refused():
    other = headline(template=headline().template + " The same holds under greedy.")
    assert "scope" in kinds_of([other], known_models=("greedy",))
    general = headline(template=headline().template + " This holds for all player models.")
    assert "scope" in kinds_of([general])


def test_rule_set_outside_scope_is_refused():
    claim = headline(template=headline().template + " Pagat is the same.")
    assert "scope" in kinds_of([claim], known_rules=("pagat",))


# ----------------------------------------------------------------------- mutation: agreement
def test_agreement_count_including_too_small_run_is_refused():
    claim = agreement_claim(
        template="Same sign in {k} of {m} models (learned, heuristic, greedy, solver).",
        values={"k": 3, "m": 4},
    )
    problems = claim_problems([claim])
    assert "agreement" in {k for _, k, _ in problems}
    assert any(TOO_SMALL in msg for _, _, msg in problems)


def test_agreement_count_with_wrong_numerator_is_refused():
    claim = agreement_claim(values={"k": 2, "m": 3})
    assert "agreement" in kinds_of([claim])


def test_count_agreement_skips_too_small():
    assert count_agreement(["resolved", TOO_SMALL, "not resolved"], [-1.0, 2.0, -0.1]) == (1, 2)
    assert count_agreement(["resolved", TOO_SMALL, "resolved"], [-1.0, -2.0, -0.1]) == (2, 2)
    assert count_agreement(["resolved", "resolved"], [1.0, -2.0], direction=-1) == (1, 2)
    with pytest.raises(ValueError):
        count_agreement(["resolved"], [])


# ------------------------------------------------------------------------ mutation: interval
def test_not_resolved_with_interval_excluding_zero_is_refused_when_compatible():
    row = dataclasses.replace(
        ROW,
        verdict="not resolved",
        values={"estimate": 0.82, "lower": 0.08, "upper": 1.55},
        interval_matches_verdict=True,
    )
    claim = headline(
        evidence=(row,),
        verdict="not resolved",
        template="With 2 players under {model}: {rel:.2f} pp [{lo:.2f}, {hi:.2f}], not resolved.",
        values={"model": "learned", "rel": 0.82, "lo": 0.08, "hi": 1.55},
    )
    assert "interval" in kinds_of([claim])
    # a marginal interval beside a Holm verdict is allowed, but not "the interval contains 0"
    marginal = dataclasses.replace(
        claim, evidence=(dataclasses.replace(row, interval_matches_verdict=False),)
    )
    check_claims([marginal])
    says = dataclasses.replace(marginal, template=marginal.template + " The interval contains 0.")
    assert "interval" in kinds_of([says])


# ------------------------------------------------------------------------ mutation: evidence
def test_evidence_checked_against_tables():
    frame = pd.DataFrame(
        [
            {
                "metric": "datas per chica",
                "players": 2,
                "model": "learned",
                **ROW.values,
                "verdict": ROW.verdict,
            }
        ]
    )
    tables = {"panel": table_rows(frame, ["metric", "players", "model"])}
    check_claims([headline()], tables=tables)
    wrong = dataclasses.replace(ROW, values={**ROW.values, "estimate": -5.9})
    assert "evidence" in kinds_of([headline(evidence=(wrong,))], tables=tables)
    missing = dataclasses.replace(ROW, row="datas per chica|4|learned")
    assert "evidence" in kinds_of([headline(evidence=(missing,))], tables=tables)


def test_every_problem_is_listed_and_template_errors_reported():
    bad_number = headline(id="a", template=headline().template.replace("by {rel:.2f}%", "by 6.02%"))
    bad_template = headline(id="b", template="{missing}")
    with pytest.raises(ClaimError) as info:
        check_claims([bad_number, bad_template])
    ids = {cid for cid, _, _ in info.value.problems}
    assert ids == {"a", "b"}
    assert "template" in info.value.kinds and "number" in info.value.kinds
    assert "6.02" in str(info.value)


def test_pairs_differ_is_not_an_agreement_count_and_scale_applies():
    row = dataclasses.replace(
        ROW,
        values={"relative": -0.058213, "differing": 812, "n": 1000, "estimate": -0.2},
        scale={"relative": 100.0},
    )
    claim = headline(
        evidence=(row,),
        template="With 2 players under {model}: {rel:.1f}% ({k} of {n} pairs differ; resolved).",
        values={"model": "learned", "rel": -5.8213, "k": 812, "n": 1000},
    )
    check_claims([claim])
    unscaled = dataclasses.replace(claim, evidence=(dataclasses.replace(row, scale={}),))
    assert "number" in kinds_of([unscaled])


def test_numbers_inside_model_names_are_not_numbers():
    row = dataclasses.replace(ROW, model="pimc(samples=16)")
    claim = headline(
        evidence=(row,),
        scope=dataclasses.replace(SCOPE, models=("pimc(samples=16)",)),
        values={**headline().values, "model": "pimc(samples=16)"},
    )
    check_claims([claim])


def test_scientific_notation_is_matched_to_its_own_precision():
    row = dataclasses.replace(ROW, values={**ROW.values, "p_value": 2.7e-51})
    claim = headline(evidence=(row,), template=headline().template + " (p = {p:.2g})",
                     values={**headline().values, "p": 2.7e-51})  # fmt: skip
    check_claims([claim])
    wrong = dataclasses.replace(claim, template=headline().template + " (p = 3.1e-51)")
    assert "number" in kinds_of([wrong])


# ------------------------------------------------------------------ generation refuses
def test_generated_report_refuses_bad_claims_and_writes_nothing(tmp_path):
    from cuarenta_sim.reports import Report
    from cuarenta_sim.studies import GeneratedReport

    bad = headline(template=headline().template.replace("by {rel:.2f}%", "by 6.02%"))
    rep = GeneratedReport(name="x", report=Report(title="t", provenance={}), claims=[bad])
    with pytest.raises(ClaimError, match=r"6\.02"):
        rep.write(tmp_path / "x")
    assert not (tmp_path / "x").exists()
    empty = GeneratedReport(name="x", report=Report(title="t", provenance={}))
    with pytest.raises(ClaimError, match="states no claims"):
        empty.write(tmp_path / "x")
    good = GeneratedReport(name="x", report=Report(title="t", provenance={}), claims=[headline()])
    written = good.write(tmp_path / "x")
    assert written[-1].name == "claims.json"
    assert json.loads(written[-1].read_text())[0]["sentence"] == render_claim(headline())
