"""Cold-read defects of reports/quito-vs-cuenca and reports/odds (issue 18).

Quito-vs-cuenca's Methods cite no benchmark figure as if this report had measured it (no
"strongest player", no 57.95% or "half the cost" from benchmarks/README.md, no "earlier
125-chica run"); a design value names its file, seed and date. Odds says how `learned` was
tuned, in the wording the rule reports share (:data:`.common.TUNING`), and its provenance lists
only the sizes it played (datas: no chica or mesa is played).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import cuarenta_sim
from cuarenta_sim.cuarenta.studies.common import TUNING, prose, tuned_disclosure, tuning_of
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.framework import provenance

TEMPLATES = Path(cuarenta_sim.__file__).parent / "cuarenta" / "templates"


def test_quito_vs_cuenca_methods_cite_no_unmeasured_benchmark_figure() -> None:
    text = (TEMPLATES / "quito_vs_cuenca.md.j2").read_text(encoding="utf-8")
    for stale in ("strongest", "57.95", "half the cost", "earlier 125-chica"):
        assert stale not in text, stale
    assert "benchmarks/results/learned_proxy.json, seed 0, committed 2026-12-01" in text


def test_odds_methods_say_how_learned_was_tuned_in_the_shared_wording() -> None:
    labels = ["learned", "heuristic", "greedy", "solver (confirm)"]
    assert tuning_of(labels) == [TUNING["learned"], TUNING["heuristic"]]
    assert tuning_of(["greedy", "solver (confirm)"]) == []
    # quito-vs-cuenca's disclosure is built from the same phrases
    assert TUNING["learned"] in tuned_disclosure(labels, "Cuenca")
    models = [SimpleNamespace(label=m, n=1_000) for m in labels]
    text = prose("odds").methods(models, {}, "", " and ".join(tuning_of(labels)))
    assert "imitation of `pimc` under Quito, then evolution strategies" in text
    assert "against `heuristic` under Quito" in text
    untuned = prose("odds").methods(models[2:], {}, "", "")
    assert "Tuning" not in untuned


def test_provenance_lists_only_the_sizes_played() -> None:
    s = StudySettings(n=1_000, players=(2,))
    data_only = provenance("odds", s, [], 1.0, levels=("data",))
    assert data_only["n_datas"] == 1_000
    assert "n_chicas" not in data_only and "n_mesas" not in data_only
    every = provenance("quito_vs_cuenca", s, [], 1.0)
    assert {"n_datas", "n_chicas", "n_mesas"} <= set(every)
