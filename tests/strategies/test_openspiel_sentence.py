"""The strategies report's sentence on the outside-opponents page names exactly the pairings
the page holds (issue 18: it named an OpenSpiel uniform-random bot that played no row)."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

from cuarenta_sim.cuarenta.strength import OPENSPIEL_DATA, load_openspiel, openspiel_sentence

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "reports" / "strategies" / "openspiel.md"


def test_package_copy_is_the_results_the_committed_page_was_written_from() -> None:
    page = PAGE.read_text(encoding="utf-8")
    out = re.search(r"--out (\S+)", page)
    assert out is not None
    source = json.loads((ROOT / out.group(1)).read_text(encoding="utf-8"))
    data = load_openspiel()
    assert data is not None and data["results"] == source["results"]
    assert data["bots"] == source["bots"]
    # One table row of the page per result.
    table_rows = [ln for ln in page.splitlines() if ln.startswith("| `")]
    assert len(table_rows) == len(data["results"])


def test_sentence_names_the_rows_and_the_bots_that_played_none() -> None:
    data = load_openspiel()
    text = openspiel_sentence(data)
    played = {r["b"].split("(")[0] for r in data["results"]}
    assert f"holds {len(data['results'])} pairing" in text
    for r in data["results"]:
        assert f"`{r['a_label']}` against OpenSpiel's" in text
        assert f"{int(r['pairs']):,} duplicate pairs" in text
    if "openspiel-random" not in played:
        assert "No row was played against OpenSpiel's uniform-random bot" in text
        assert "IS-MCTS and uniform-random bots" not in text


def test_sentence_follows_the_data_not_a_fixed_text() -> None:
    data = json.loads(OPENSPIEL_DATA.read_text(encoding="utf-8"))
    row = dict(data["results"][0])
    extra = {**row, "b": "openspiel-random", "b_label": "openspiel-random", "pairs": 40,
             "games": 80}  # fmt: skip
    text = openspiel_sentence({**data, "results": [row, extra]})
    assert "holds 2 pairings" in text and "uniform-random bot (`openspiel-random`)" in text
    assert "No row was played" not in text and "40 duplicate pairs (80 chicas)" in text
    assert "openspiel.md" in openspiel_sentence(None)


def test_benchmark_page_says_the_random_bot_played_no_row(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    bench = importlib.import_module("openspiel_opponents")
    doc = json.loads(OPENSPIEL_DATA.read_text(encoding="utf-8"))
    text = bench.report_markdown(doc)
    assert "configured, but no row of this page played it" in text
