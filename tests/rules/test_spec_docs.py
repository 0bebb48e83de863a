"""The specs the project ships (docs/) are the ones its judges and tests follow.

Only files inside the repository are read: the project must run and test without any
directory beside it. Section F of docs/cuarenta.md (the scenario interface) documents the
judge's kinds and fields and the paragraph on steps after a win (R9.2) and on ``options``
(tests/rules/test_section_f_after_a_win.py tests its behaviour); every worked example of
section E has scenario files; the Cuatrola judge's kinds are those of docs/cuatrola_contract.md
section 8; the README's scenario examples evaluate.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from cuarenta_sim.cuarenta import scenario as cuarenta_judge
from cuarenta_sim.cuatrola import scenario as cuatrola_judge
from cuarenta_sim.scenario import evaluate

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"


def section(text: str, heading: str) -> str:
    """The body of the ``## heading...`` section of a Markdown text, up to the next one."""
    match = re.search(rf"^## {re.escape(heading)}.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def cuarenta_section_f() -> str:
    return section((DOCS / "cuarenta.md").read_text(encoding="utf-8"), "F ")


def test_section_f_states_the_step_after_a_win() -> None:
    """The shipped spec carries the R9.2 paragraph that the judge follows."""
    text = " ".join(cuarenta_section_f().split())
    for sentence in (
        "Once a side has won (R9.2), nothing more is credited or announced in that step",
        "an `end` stops at the count that reaches the target (a later falla is not added)",
        "a `deal` lists no announcement after a winning one",
        "`options` is a set: its order carries no meaning",
    ):
        assert sentence in text


#: The kinds the shared spec's section F defines.
SPEC_KINDS = ("play", "deal", "end")


def test_section_f_fields_are_the_judges() -> None:
    """Each kind's input bullet of section F names exactly the judge's fields of that kind."""
    text = cuarenta_section_f()
    inputs = text.split("Output:")[0]
    common = set(cuarenta_judge._COMMON)
    for kind in SPEC_KINDS:
        bullet = re.search(rf"^- `{kind}`:(.*?)(?=^- |^\S|\Z)", inputs, re.M | re.S)
        assert bullet, f"section F documents no {kind} input"
        named = set(re.findall(r"`([a-z_]+)`", bullet.group(1)))
        assert named == set(cuarenta_judge.FIELDS[kind]) - common, kind
    assert set(re.findall(r"`(play|deal|end)`", inputs)) == set(SPEC_KINDS)
    # Every other kind the judge answers is a project extension, documented in the engine
    # contract so that docs/cuarenta.md stays the shared spec verbatim.
    assert set(cuarenta_judge.KINDS) - set(SPEC_KINDS) == {"solve", "advise"}


def test_solve_kind_is_documented_with_the_judges_fields() -> None:
    """``solve`` (issue 12) is documented in section F style in docs/engine_contract.md."""
    text = section((DOCS / "engine_contract.md").read_text(encoding="utf-8"), "9. ")
    inputs = text.split("Output:")[0]
    named = set(re.findall(r"`([a-z_]+)`", inputs))
    extra = set(cuarenta_judge.FIELDS["solve"]) - set(cuarenta_judge.FIELDS["play"])
    assert extra <= named, extra - named
    assert {"values", "best"} <= set(re.findall(r"`([a-z_]+)`", text))


def test_advise_kind_is_documented_with_the_judges_fields() -> None:
    """``advise`` (issue 21) is documented in docs/engine_contract.md section 10: every field
    it adds to ``solve``'s, and every output field."""
    text = section((DOCS / "engine_contract.md").read_text(encoding="utf-8"), "10. ")
    inputs, outputs = text.split("**Output**")
    named = set(re.findall(r"`([a-z_]+)`", inputs))
    extra = set(cuarenta_judge.FIELDS["advise"]) - set(cuarenta_judge.FIELDS["solve"])
    assert extra and extra <= named, extra - named
    fields = {"values", "best", "exact", "play", "samples", "interval", "continuation"}
    named = set(re.findall(r"`([a-z_]+)`", outputs)) | set(re.findall(r'"([a-z_]+)"', outputs))
    assert fields | {"card", "base", "value", "lower", "upper"} <= named


def test_every_worked_example_has_scenario_files() -> None:
    """Section E's examples E1..E20 are machine readable in tests/scenarios (section F)."""
    spec = (DOCS / "cuarenta.md").read_text(encoding="utf-8")
    numbers = {int(n) for n in re.findall(r"^- E(\d+) ", section(spec, "E "), re.M)}
    assert numbers == set(range(1, 21))
    files = sorted((ROOT / "tests" / "scenarios").glob("E*.json"))
    assert {int(p.name[1:3]) for p in files} == numbers
    for path in files:
        spec_file = json.loads(path.read_text(encoding="utf-8"))
        assert "error" not in evaluate(spec_file), path.name


def test_cuatrola_contract_names_the_judges_kinds() -> None:
    contract = (DOCS / "cuatrola_contract.md").read_text(encoding="utf-8")
    judge = section(contract, "8. Judge")
    assert '"trick" | "bids" | "hand" | "solve"' in judge
    assert tuple(re.findall(r'"(trick|bids|hand|solve)"', judge)[:4]) == cuatrola_judge.KINDS


def test_readme_scenario_examples_evaluate() -> None:
    """The README's ``echo '{...}' | cuarenta-sim scenario -`` lines, both games."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = re.findall(
        r"^echo '(\{.*\})' \| cuarenta-sim scenario (?:--game (\w+) )?-$", readme, re.M
    )
    games = set()
    for line, flag in examples:
        obj = json.loads(line)
        game = obj.get("game", flag or "cuarenta")
        games.add(game)
        obj = {**obj, "game": game}
        assert "error" not in evaluate(obj), line
    assert games == {"cuarenta", "cuatrola"}
