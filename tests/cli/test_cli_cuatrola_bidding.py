"""`cuarenta-sim report cuatrola-bidding`: options, the report directory, atomic writing."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pytest
from matplotlib.figure import Figure

from cuarenta_sim.studies import StudySettings, run_study

matplotlib.use("Agg")

FIGURES = ["ev_by_class.png", "p_make_by_trumps.png", "thresholds.png", "value_of_mano.png"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "4"], "--players does not apply to cuatrola-bidding"),
        (["--chicas", "10"], "--chicas does not apply to cuatrola-bidding"),
        (["--mesas", "10"], "--mesas does not apply to cuatrola-bidding"),
        (["--policies", "heuristic"], "one Cuatrola play policy for every seat"),
        (["--policies", "greedy,random"], "one Cuatrola play policy for every seat"),
        (["--rules", "quito"], "--rules 'quito'"),
        (["--rules", "ro(nope=1)"], "unknown Cuatrola switch nope"),
        (["--n", "0"], "--n must be a positive whole number of hands per bid"),
        (["--seed", "-1"], "--seed must be a non-negative"),
        (["--threads", "0"], "--threads must be a whole number"),
        (["--confidence", "1.5"], "confidence must be strictly between"),
    ],
)
def test_bad_options(run_cli, tmp_path: Path, args: list[str], needle: str) -> None:
    run = run_cli("report", "cuatrola-bidding", *args, "--out", str(tmp_path))
    run.assert_bad_input()
    assert needle in run.err
    assert not any(tmp_path.iterdir())  # nothing was written


def test_report_writes_the_directory(run_cli, tmp_path: Path) -> None:
    stale = tmp_path / "cuatrola-bidding" / "figures" / "old.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"x")
    run = run_cli(
        "report",
        "cuatrola-bidding",
        "--n",
        "2000",
        "--seed",
        "5",
        "--policies",
        "greedy",
        "--out",
        str(tmp_path),
        "--no-progress",
        "--force",  # the folder exists (a stale figure): replaced as one, the figure gone
    )
    assert run.code == 0, run.err
    out = tmp_path / "cuatrola-bidding"
    assert sorted(p.name for p in out.iterdir()) == [
        "claims.json",
        "classes.csv",  # the full cross of classes the report names (issue 18 cold read)
        "figures",
        "provenance.json",
        "report.md",
    ]
    assert sorted(p.name for p in (out / "figures").iterdir()) == FIGURES
    assert "Cuatrola bidding (2,000 hands per bid, seed 5, greedy play, rules ro)" in run.out
    assert "derived thresholds: threshold(solo=" in run.out
    assert run.reproduce.startswith(
        "cuarenta-sim report cuatrola-bidding --n 2000 --seed 5 --policies greedy --rules ro"
    )
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["n_hands_per_bid"] == 2000 and prov["seed"] == 5 and prov["rules"] == "ro"
    assert [r["bid"] for r in prov["runs"]] == ["pass", "solo", "cuatrola", "quintola"]
    # The held-out runs that judge the derived thresholds are recorded too (issue 18).
    assert prov["held_out_seed"] == 6 and prov["held_out_n_hands_per_bid"] == 1000
    held = prov["held_out_runs"]
    assert [r["bid"] for r in held] == ["pass", "solo", "cuatrola", "quintola"]
    assert {r["seed"] for r in held} == {6} and {r["n"] for r in held} == {1000}
    md = (out / "report.md").read_text()
    assert "| held-out judgement | 6 | solo |" in md
    assert "one trump more" not in md and "trumps more on average" in md
    for heading in (
        "## Bidding table",
        "## The value of being mano",
        "## Thresholds of the threshold policy, from simulation",
        "## Reproduce",
    ):
        assert heading in md
    assert "`wilson`" in md and "`paired`" in md and "`normal`" in md


def test_a_failed_write_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = run_study(
        "cuatrola-bidding",
        StudySettings(n=500, seed=2, policies=("greedy",), rules="ro", players=(4,)),
    )
    assert set(built.tables) >= {"bidding_table", "classes", "strength", "mano"}
    calls = []
    real = Figure.savefig

    def failing(self: Figure, fname: object, **kwargs: object) -> None:
        calls.append(fname)
        if len(calls) == 2:
            Path(str(fname)).write_bytes(b"partial")
            raise OSError("disk full")
        real(self, fname, **kwargs)

    monkeypatch.setattr(Figure, "savefig", failing)
    out = tmp_path / "cuatrola-bidding"
    with pytest.raises(OSError, match="disk full"):
        built.write(out)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [f"figures/{next(iter(built.figures))}.png"]  # only the complete first one


def test_default_settings_use_the_lookahead_player() -> None:
    from cuarenta_sim.cuatrola.bidding_study import DEFAULT_N
    from cuarenta_sim.studies import get_study

    settings = get_study("cuatrola-bidding").settings()
    assert settings.policies == ("pimc(samples=16)",) and settings.rules == "ro"
    assert settings.n == DEFAULT_N
    assert get_study("cuatrola-bidding").command(settings) == (
        f"cuarenta-sim report cuatrola-bidding --n {settings.n} --seed 0 --policies "
        "'pimc(samples=16)' --rules ro"
    )
