"""Every report's answers are claims that pass the checker (issue 18 items 1 and 2).

Each report is generated at a tiny size through :func:`cuarenta_sim.studies.run_study` (which
refuses a report whose claims fail :func:`cuarenta_sim.studies.claims.check_claims`) and
written into a temporary directory: ``claims.json`` holds every answer sentence with its
evidence, and the sentences are the ones in ``report.md``. Then one overclaim is planted in a
real claim of the report and the checker must refuse it.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from cuarenta_sim import studies
from cuarenta_sim.studies.claims import ClaimError, check_claims, render_claim

#: Tiny settings of each report (the sizes of the existing report tests).
TINY = {
    "quito-vs-cuenca": {"n": 2000, "seed": 4, "players": "2,4", "policies": "greedy;random",
                        "confirm": "heuristic", "confirm_n": 400, "chicas": 300, "mesas": 100},
    "odds": {"n": 20_000, "seed": 1, "players": "2,4", "policies": "greedy;random",
             "confirm": "none"},
    "sensitivity": {"n": 2000, "seed": 1, "players": "2", "policies": "greedy;random",
                    "confirm": "none", "chicas": 400, "mesas": 200},
    "strategies": {"n": 12, "players": "2", "policies": "random,greedy,heuristic,learned"},
    "players-guide": {"n": 400, "policies": "heuristic"},
    "cuatrola-bidding": {"n": 2000, "seed": 5, "policies": "greedy"},
}  # fmt: skip


@pytest.fixture(scope="module", params=sorted(TINY))
def built(request, tmp_path_factory):
    name = request.param
    study = studies.get_study(name)
    settings = study.settings(**TINY[name])
    rep = studies.run_study(name, settings)
    out = tmp_path_factory.mktemp(name.replace("-", "_"))
    rep.write(out)
    return name, rep, out


def test_report_claims_pass_and_are_written(built) -> None:
    name, rep, out = built
    assert rep.claims, f"{name} states no claims"
    check_claims(rep.claims)
    data = json.loads((out / "claims.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in data] == [c.id for c in rep.claims]
    md = (out / "report.md").read_text(encoding="utf-8")
    for c in data:
        assert {"id", "sentence", "evidence", "test", "verdict", "scope", "caveats"} <= set(c)
        assert c["evidence"], c["id"]
        assert c["sentence"] in md.replace("\n", " ") or c["sentence"] in md, c["sentence"]
    prov = json.loads((out / "provenance.json").read_text(encoding="utf-8"))
    assert len(prov["code_hash"]) == 64 and prov["code_files"]
    assert isinstance(prov["engine_version"], int)


def test_planted_overclaim_in_a_real_claim_is_refused(built) -> None:
    _name, rep, _ = built
    claim = rep.claims[0]
    planted = dataclasses.replace(claim, template=claim.template + " It is 123.456 in every case.")
    with pytest.raises(ClaimError) as info:
        check_claims([*rep.claims[1:], planted])
    assert "number" in info.value.kinds, render_claim(planted)


def test_robustness_never_counts_a_run_too_small_to_tell() -> None:
    import pandas as pd

    from cuarenta_sim.cuarenta.studies.claim_rows import across_models
    from cuarenta_sim.cuarenta.studies.panel import robustness
    from cuarenta_sim.studies.claims import TOO_SMALL

    rows = pd.DataFrame(
        {
            "model": ["learned", "heuristic", "greedy", "solver (confirm)"],
            "metric": "datas_per_chica",
            "estimate": [-0.20, -0.19, -0.28, 0.05],
            "relative": [-0.06, -0.058, -0.088, 0.015],
            "verdict": ["resolved", "resolved", "resolved", TOO_SMALL],
        }
    )
    line = robustness(rows)
    assert line.startswith("same sign in 3 of 3 models"), line
    assert f"{TOO_SMALL} in 1 (not counted)" in line
    text = across_models(rows, relative=True)
    assert text.startswith("same sign in 3 of 3 models"), text
    assert f"{TOO_SMALL}: solver" in text
    # the same run labelled not resolved is counted against agreement
    rows.loc[3, "verdict"] = "not resolved"
    assert robustness(rows).startswith("same sign in 3 of 4 models")
    assert across_models(rows, relative=True).startswith("same sign in 3 of 4 models")


def test_across_models_with_nothing_resolved_says_so_without_a_verdict_word() -> None:
    import pandas as pd

    from cuarenta_sim.cuarenta.studies.claim_rows import across_models
    from cuarenta_sim.studies.claims import verdict_words

    rows = pd.DataFrame(
        {
            "model": ["learned", "heuristic", "solver (confirm)"],
            "metric": "datas_per_chica",
            "estimate": [-0.01, 0.0, float("nan")],
            "relative": [-0.001, 0.0, float("nan")],
            "verdict": ["not resolved", "identical", "undefined"],
        }
    )
    text = across_models(rows, relative=True)
    assert text.startswith("no model resolves it"), text
    assert "resolved" not in verdict_words(text.replace("not resolved", ""))


#: Claims of sentences rendered outside the Answers section (issue 18 item 1): each must be in
#: claims.json and in report.md at the tiny sizes (non-transitivity needs solver and pimc in the
#: tournament: tests/strategies/test_strength_claims.py).
SECTION_CLAIMS = {
    "strategies": ("strategies.ratings_without_random.2p", "strategies.tactic_check.2p"),
    "sensitivity": ("sens.additivity",),
    "cuatrola-bidding": ("bidding.dealer_trumps",),
}


def test_section_sentences_are_claims_in_claims_json(built) -> None:
    name, _rep, out = built
    data = {c["id"]: c for c in json.loads((out / "claims.json").read_text(encoding="utf-8"))}
    md = (out / "report.md").read_text(encoding="utf-8")
    for cid in SECTION_CLAIMS.get(name, ()):
        assert cid in data, f"{cid} not in claims.json: {sorted(data)}"
        assert data[cid]["sentence"] in md, data[cid]["sentence"]
        assert data[cid]["evidence"] and data[cid]["scope"]["players"]
