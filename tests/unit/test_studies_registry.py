"""The study registry: every report registered by its game, with defaults, checks, templates.

No test here simulates: every check must fail before a study's builder runs.
"""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import pytest

from cuarenta_sim import studies
from cuarenta_sim.studies import STUDIES, Study, StudySettings, get_study, run_study, templates
from cuarenta_sim.studies import registry as registry_module

ROOT = Path(__file__).resolve().parents[2]
#: The built-in studies and their games, in registration order.
BUILTIN = {
    "quito-vs-cuenca": "cuarenta",
    "odds": "cuarenta",
    "sensitivity": "cuarenta",
    "strategies": "cuarenta",
    "players-guide": "cuarenta",
    "cuatrola-bidding": "cuatrola",
}


@pytest.fixture
def no_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every builder fail loudly, so a test proves the check ran before any simulation."""

    def boom(settings: StudySettings, progress: object = None) -> None:
        raise AssertionError("the builder ran: the check did not stop it")

    for name in BUILTIN:
        monkeypatch.setitem(registry_module._REGISTRY, name, _replace(STUDIES[name], build=boom))


def _replace(study: Study, **changes: object) -> Study:
    import dataclasses

    return dataclasses.replace(study, **changes)


def test_every_builtin_study_is_registered_by_its_game() -> None:
    assert {name: STUDIES[name].game for name in STUDIES} == BUILTIN
    assert list(STUDIES) == list(BUILTIN)
    assert studies.study_names("cuatrola") == ("cuatrola-bidding",)
    for name, study in STUDIES.items():
        assert study.name == name and study.title and study.description
        assert study.defaults["n"] > 0


def test_the_builders_live_in_the_game_packages() -> None:
    for study in STUDIES.values():
        assert study.build.__module__.startswith(f"cuarenta_sim.{study.game}.")


@pytest.mark.parametrize(
    ("name", "n", "players", "policies", "rules"),
    [
        # Rule studies: the headline of the default panel 'learned;heuristic;greedy'.
        ("quito-vs-cuenca", 1_000_000, (2, 4), ("learned",), "quito"),
        ("odds", 1_000_000, (2, 4), ("learned",), "quito"),
        ("sensitivity", 40_000, (2, 4), ("learned",), "quito"),
        (
            "strategies",
            20_000,
            (2,),
            ("random", "greedy", "heuristic", "learned", "pimc", "solver"),
            "quito",
        ),
        ("players-guide", 200_000, (2, 4), ("learned",), "quito"),
        ("cuatrola-bidding", 250_000, (4,), ("pimc(samples=16)",), "ro"),
    ],
)
def test_defaults(name: str, n: int, players: tuple, policies: tuple, rules: str) -> None:
    settings = get_study(name).settings()
    assert (settings.n, settings.players, settings.policies, settings.rules) == (
        n,
        players,
        policies,
        rules,
    )
    assert settings.seed == 0 and settings.confidence == 0.95


def test_options_are_parsed_as_typed() -> None:
    settings = get_study("odds").settings(
        n=100, players="4", policies="pimc(samples=8,depth=deal),greedy", rules="cuenca"
    )
    assert settings.players == (4,)
    assert settings.policies == ("pimc(samples=8,depth=deal)", "greedy")
    assert settings.rules == "cuenca"
    rules = get_study("sensitivity").settings(rules="quito(max_sum_cards=2)").rules
    assert rules.startswith("quito(") and "max_sum_cards=2" in rules


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("cuatrola-bidding", {"players": "2"}, "--players does not apply to cuatrola-bidding"),
        ("cuatrola-bidding", {"chicas": 10}, "--chicas does not apply to cuatrola-bidding"),
        ("cuatrola-bidding", {"policies": "greedy,random"}, "one Cuatrola play policy"),
        ("cuatrola-bidding", {"rules": "quito"}, "--rules 'quito'"),
        ("cuatrola-bidding", {"n": 0}, "--n must be a positive whole number of hands per bid"),
        ("quito-vs-cuenca", {"rules": "pagat"}, "--rules does not apply to quito-vs-cuenca"),
        ("odds", {"chicas": 10}, "--chicas does not apply to odds"),
        ("odds", {"chicas": 0}, "--chicas must be a positive"),
        ("odds", {"players": "3"}, "--players must be 2, 4 or 2,4 (R2.1)"),
        ("odds", {"players": "2,2"}, "--players must be 2, 4 or 2,4"),
        ("odds", {"policies": "smart"}, "unknown policy 'smart'"),
        ("odds", {"policies": "greedy,random,greedy"}, "--policies"),
        ("odds", {"rules": "bogus"}, "unknown preset 'bogus'"),
        ("odds", {"seed": -1}, "--seed must be a non-negative"),
        ("odds", {"threads": 0}, "--threads must be a whole number"),
        ("odds", {"confidence": 1.5}, "confidence must be strictly between"),
        ("strategies", {"n": 21}, "--n must be an even positive number of chicas per pair"),
        ("strategies", {"mesas": 3}, "--mesas must be an even positive number"),
        ("strategies", {"chicas": 10}, "--chicas does not apply to strategies"),
        ("strategies", {"policies": "greedy,greedy"}, "at least two different policies"),
    ],
)
def test_bad_options_fail_before_any_simulation(
    no_build: None, name: str, options: dict, message: str
) -> None:
    with pytest.raises(ValueError, match=None) as err:
        get_study(name).settings(**options)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_run_study_checks_settings_made_in_python(no_build: None) -> None:
    two_players = StudySettings(n=10, players=(2,), policies=("greedy",), rules="ro")
    with pytest.raises(ValueError, match="cuatrola-bidding is played by 4"):
        run_study("cuatrola-bidding", two_players)
    with pytest.raises(ValueError, match="one Cuatrola play policy"):
        run_study("cuatrola-bidding", StudySettings(n=10, players=(4,), policies=("a", "b")))
    with pytest.raises(ValueError, match="unknown policy"):
        run_study("odds", StudySettings(n=10, policies=("smart",)))
    with pytest.raises(ValueError, match="even"):
        run_study("strategies", StudySettings(n=11, policies=("random", "greedy")))


def test_unknown_study_lists_the_registered_names() -> None:
    with pytest.raises(ValueError) as err:
        get_study("nope")
    assert str(err.value) == f"unknown report 'nope'; accepted: {', '.join(BUILTIN)}"
    with pytest.raises(ValueError, match="unknown report 'nope'"):
        run_study("nope", StudySettings(n=10))


def test_a_study_of_the_other_game_is_refused(no_build: None) -> None:
    with pytest.raises(ValueError, match="studies cuatrola, not cuarenta; cuarenta reports: "):
        get_study("cuatrola-bidding", game="cuarenta")
    with pytest.raises(ValueError, match="cuatrola reports: cuatrola-bidding"):
        run_study("odds", StudySettings(n=10), game="cuatrola")
    assert get_study("odds", game="cuarenta").name == "odds"


@pytest.mark.parametrize("name", list(BUILTIN))
def test_the_reproduce_command_gives_the_same_settings(name: str) -> None:
    study = get_study(name)
    settings = study.settings(n=120, seed=3, confidence=0.9)
    command = study.command(settings)
    assert command == get_study(name).command(settings)
    args = shlex.split(command)
    assert args[:3] == ["cuarenta-sim", "report", name]
    options = dict(zip(args[3::2], args[4::2], strict=True))
    kwargs: dict[str, object] = {
        k.removeprefix("--").replace("-", "_"): v for k, v in options.items()
    }
    for key in ("n", "seed", "chicas", "mesas", "confirm_n"):
        if key in kwargs:
            kwargs[key] = int(str(kwargs[key]))
    kwargs["confidence"] = float(str(kwargs["confidence"]))
    again = study.settings(**kwargs)  # type: ignore[arg-type]
    assert study.command(again) == command
    assert (again.n_chicas, again.n_mesas) == (settings.n_chicas, settings.n_mesas)


def test_register_study_validates() -> None:
    odds = STUDIES["odds"]
    with pytest.raises(ValueError, match="already registered for game 'cuarenta'"):
        studies.register_study(_replace(odds, game="cuatrola"))
    with pytest.raises(ValueError, match="defaults\\['n'\\] must be a positive int"):
        _replace(odds, defaults={"n": 0})
    with pytest.raises(ValueError, match="options \\['level'\\] unknown"):
        _replace(odds, options=("level",))
    with pytest.raises(ValueError, match="reproduce names options it does not take"):
        _replace(odds, reproduce=("chicas",))
    with pytest.raises(ValueError, match="takes a Study"):
        studies.register_study("odds")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- templates
def _template_dirs() -> dict[str, Path]:
    return {game: ROOT / "cuarenta_sim" / game / "templates" for game in ("cuarenta", "cuatrola")}


def test_every_study_has_a_template_that_loads() -> None:
    dirs = _template_dirs()
    for name, study in STUDIES.items():
        found = templates.template_names(dirs[study.game])
        assert f"{name.replace('-', '_')}.md.j2" in found, (name, found)
        module = templates.macros(f"{name.replace('-', '_')}.md.j2", directory=dirs[study.game])
        assert callable(module.methods)


def test_templates_render_sentences_with_the_number_filters() -> None:
    common = templates.macros("common.md.j2", directory=_template_dirs()["cuarenta"])
    assert common.resolution(0, "").startswith("Every difference quoted in this report")
    text = common.resolution(2, "| t |")
    assert text.startswith("2 difference(s) are **not resolved**") and text.endswith("| t |")
    settings = StudySettings(n=1_000_000, seed=7, policies=("greedy",))
    from cuarenta_sim.cuarenta.studies.panel import panel_models

    assert common.sizes(settings, panel_models(settings)) == (
        "per rule set and player count: `greedy` 1,000,000 datas, 250,000 chicas, "
        "100,000 mesas; seed 7; 95% intervals"
    )
    row = {"estimate": 0.25, "lower": 0.2, "upper": 0.3, "defined": True}
    shared = templates.environment(None)
    assert shared.from_string("{{ r | cell(percent=true) }}").render(r=row) == "25.0% [20.0, 30.0]"
    assert shared.from_string("{{ 1234567 | thousands }}").render() == "1,234,567"
    assert templates.macros("methods.md.j2").methods_note().startswith("Interval methods:")


def test_template_errors_are_value_errors(tmp_path: Path) -> None:
    unknown = re.escape("unknown report template 'nope.md.j2'; accepted: ")
    with pytest.raises(ValueError, match=unknown):
        templates.macros("nope.md.j2")
    with pytest.raises(ValueError, match="template directory"):
        templates.macros("methods.md.j2", directory=tmp_path / "no_such_dir")
    (tmp_path / "probe.md.j2").write_text("{{ missing_number }}")
    with pytest.raises(ValueError, match="missing_number"):
        templates.render("probe.md.j2", directory=tmp_path)
    assert templates.render("probe.md.j2", directory=tmp_path, missing_number=3) == "3"


# --------------------------------------------------------------------------- layering
def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names += [base] + [f"{base}.{a.name}" for a in node.names]
    return names


def test_the_shared_study_layer_imports_no_game() -> None:
    package = ROOT / "cuarenta_sim" / "studies"
    games = ("cuarenta", "cuatrola")
    for path in sorted(package.glob("*.py")):
        for name in _imports(path):
            parts = name.lstrip(".").split(".")
            assert not any(
                name.startswith(f"cuarenta_sim.{g}") or (name.startswith("..") and parts[0] == g)
                for g in games
            ), f"{path.name} imports {name}"
    # The studies are named by the games (module:function), not imported by the shared layer.
    from cuarenta_sim.game import GAMES

    named = {name: game.name for game in GAMES.values() for name in game.studies}
    assert named == BUILTIN


def test_a_game_naming_an_unregistered_study_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from cuarenta_sim.game import _REGISTRY, GAMES

    list(STUDIES)  # the built-in games are loaded and checked
    bad = dataclasses.replace(
        GAMES["cuatrola"], studies={"ghost": "cuarenta_sim.cuatrola.bidding_study:ghost"}
    )
    monkeypatch.setitem(_REGISTRY, "cuatrola", bad)
    monkeypatch.setattr(registry_module, "_loaded", {"cuarenta"})
    with pytest.raises(ValueError, match=r"names report 'ghost'.*did not register it"):
        list(STUDIES)
    wrong = dataclasses.replace(
        GAMES["cuatrola"],
        studies={"cuatrola-bidding": "cuarenta_sim.cuatrola.bidding_study:elsewhere"},
    )
    monkeypatch.setitem(_REGISTRY, "cuatrola", wrong)
    with pytest.raises(ValueError, match=r"names builder .*:elsewhere"):
        list(STUDIES)


# --------------------------------------------------------------------------- docs
@pytest.mark.parametrize("doc", ["README.md", "docs/design.md"])
def test_the_docs_name_every_registered_study(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    missing = [name for name in STUDIES if f"`{name}`" not in text]
    assert not missing, f"{doc} does not list {missing}"
