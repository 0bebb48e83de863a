"""Second cold read of reports/sensitivity (issue 18): each sentence says what it rests on.

The headline answers name the method, the number of chicas and the Holm family of their
interval; the *it cannot show* cell of a 38-point switch cites the run that saw no pair
differ instead of "never"; the presets' sizes say which column is at Holm's level; the
summary says the confirmatory solver played only its flips; the tornado text says the chart
is the headline model's only.
"""

from __future__ import annotations

from test_cold_read_sensitivity_answers import _diff

from cuarenta_sim.cuarenta.studies.common import prose
from cuarenta_sim.cuarenta.studies.panel import Model
from cuarenta_sim.cuarenta.studies.rule_claims import basis_text, sensitivity_claims
from cuarenta_sim.cuarenta.studies.switch_notes import (
    CONFIRM_SWITCHES,
    SWITCH_SCOPE,
    cannot_show,
    confirm_words,
)
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.claims import check_claims, render_claim

MODELS = [
    Model("learned", ("learned",), 40_000, "headline", 10_000, 2_000),
    Model("heuristic", ("heuristic",), 10_000, "panel", 2_500, 500),
    Model("solver (confirm)", ("solver",), 100, "confirm", 25, 10),
]


def _claims() -> dict:
    diff = _diff().assign(family_size=6.0)
    s = StudySettings(n=100, players=(2,), models=("learned", "heuristic"))
    claims = sensitivity_claims(diff, ["learned", "heuristic"], s, "caida_limpia_cumulative=true")
    check_claims(claims)
    return {c.id: render_claim(c) for c in claims}


def test_headline_answers_state_method_size_and_holm_family() -> None:
    """Old: "17.47% [16.75, 18.19] (0.593 [...] datas, resolved)" with no n, method or
    level, beside a 95% interval of the same effect elsewhere."""
    text = _claims()
    basis = (
        "`paired`, 2,500 chicas, interval at Holm's level over the 6 flips tested on this metric"
    )
    assert f"resolved; {basis})." in text["sens.top"], text["sens.top"]
    assert f"under learned ({basis}); " in text["sens.qc"], text["sens.qc"]


def test_basis_falls_back_to_the_marginal_level_for_a_family_of_one() -> None:
    row = _diff().iloc[0].copy()
    row["family_size"] = 1.0
    assert basis_text(row) == "`paired`, 2,500 chicas, 95% interval"
    row["level"], row["n"] = "mesa", 500
    assert basis_text(row).startswith("`paired`, 500 mesas,")


def test_a_38_switch_cannot_show_cites_the_pairs_not_never() -> None:
    """Old: "datas start at 0-0 and never reach 38" on evidence of 0 differing pairs."""
    assert "and never reach" not in repr(SWITCH_SCOPE)
    zero = cannot_show("at_38=none", {"differing": 0, "n": 40_000})
    assert zero.endswith("(almost) never reach 38; no pair differed in 40,000 datas"), zero
    some = cannot_show("ronda_blocked_from=30", {"differing": 3, "n": 40_000})
    assert some.endswith("; 3 of 40,000 datas differed"), some
    # A switch that is not a score switch keeps its own wording, no count.
    assert (
        cannot_show("capture_compulsory=true", {"differing": 0, "n": 9})
        == (SWITCH_SCOPE["capture_compulsory"][2])
    )


def test_presets_sizes_say_which_columns_are_at_holms_level() -> None:
    """Old: "seed 0; 95% intervals; 11 s" while the measured column is at Holm's level."""
    s = StudySettings(n=100, players=(2,))
    text = prose("sensitivity").presets(s, MODELS[0], "TABLE", "", "", 11.0)
    assert "seed 0; 95% intervals" not in text
    assert (
        "seed 0; the *measured* column at the level Holm tested its row, the sum columns "
        "at 95% intervals; 11 s in this run"
    ) in text, text


def test_summary_says_the_solver_played_only_its_flips() -> None:
    """Old: "`solver (confirm)` 100 datas, 25 chicas, 10 mesas" read as every rule set."""
    s = StudySettings(n=100, players=(2,))
    text = prose("sensitivity").summary(s, "quito", MODELS[0], MODELS, "TABLE", confirm_words())
    words = confirm_words()
    assert all(f"`{c}`" in words for c in CONFIRM_SWITCHES)
    assert (
        f"`solver (confirm)` 100 datas, 25 chicas, 10 mesas (only the flips of {words}; "
        "the other rule sets were not played by it); seed 0"
    ) in text, text
    assert "`heuristic` 10,000 datas, 2,500 chicas, 500 mesas;" in text


def test_tornado_text_says_the_chart_is_the_headline_models() -> None:
    """Old: "The tornado chart draws the same intervals as whiskers" under a table of every
    model, while the chart draws the headline model only."""
    s = StudySettings(n=100, players=(2,))
    base = {"estimate": 3.4, "lower": 3.3, "upper": 3.5, "method": "normal", "defined": True}
    text = prose("sensitivity").metric(
        s, "datas_per_chica", [(2, base)], False, "paired", "TABLE", "learned"
    )
    assert "draws the same intervals" not in text
    assert "The tornado chart draws learned's intervals only" in text, text
