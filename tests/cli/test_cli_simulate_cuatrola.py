"""`cuarenta-sim simulate --game cuatrola` and the game dispatch of `cuarenta_sim.simulate`."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import cuarenta_sim
from cuarenta_sim.results import Results


def test_simulate_cuatrola_prints_estimates_and_saves(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "c.parquet"
    run = run_cli(
        "simulate",
        "--game",
        "cuatrola",
        "--n",
        "300",
        "--level",
        "game",
        "--seed",
        "3",
        "--no-progress",
        "--out",
        str(out),
    )
    assert run.code == 0, run.err
    for needle in (
        "Cuatrola simulation: rules ro",
        "made_solo",
        "first_dealer_pair_wins",
        "wilson",
    ):
        assert needle in run.out
    assert run.reproduce.startswith("cuarenta-sim simulate --game cuatrola")
    back = Results.from_parquet(out)
    direct = cuarenta_sim.simulate(game="cuatrola", n=300, level="game", seed=3)
    pd.testing.assert_frame_equal(back.hands, direct.hands)
    pd.testing.assert_frame_equal(back.games, direct.games)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--game", "chess"], "unknown game 'chess'; accepted: cuarenta, cuatrola"),
        (["--game", "cuatrola", "--players", "2"], "Cuatrola is played by 4"),
        (["--game", "cuatrola", "--level", "chica"], "unknown Cuatrola level 'chica'"),
        (["--game", "cuatrola", "--policies", "smart"], "unknown play policy 'smart'"),
        (["--game", "cuatrola", "--rules", "quito"], "quito"),
        (["--game", "cuatrola", "--n", "0"], "n must be a positive"),
        (["--bid-policies", "never"], "--bid-policies does not apply to --game cuarenta"),
        (["--game", "cuatrola", "--confidence", "1"], "confidence must be strictly between"),
        (["--game", "cuatrola", "--bid-policies", "threshold(solo=1,solo=2)"], "given twice"),
        (["--game", "cuatrola", "--rules", "ro(target=21,target=11)"], "given twice"),
    ],
)
def test_simulate_cuatrola_bad_options(run_cli, args: list[str], needle: str) -> None:
    run = run_cli("simulate", "--no-progress", "--n", "10", *args)
    run.assert_bad_input()
    assert needle in run.err


def test_simulate_cuatrola_report_aggregates_and_dataset(run_cli, tmp_path: Path) -> None:
    """Cuatrola takes --report, --aggregates-only and --dataset like Cuarenta; the counters
    give the same estimates as the records."""
    base = ("simulate", "--game", "cuatrola", "--n", "400", "--level", "game", "--seed", "2",
            "--no-progress")  # fmt: skip
    frames = run_cli(*base, "--report", str(tmp_path / "rep"))
    assert frames.code == 0, frames.err
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Cuatrola simulation: ro" in md and "`docs/cuatrola.md`" in md
    counters = run_cli(*base, "--aggregates-only")
    assert counters.code == 0, counters.err
    stored = run_cli(*base, "--dataset", str(tmp_path / "ds"))
    assert stored.code == 0, stored.err
    assert any(p.name.endswith(".parquet") for p in (tmp_path / "ds").iterdir())

    def table(text: str) -> list[str]:
        return [ln for ln in text.splitlines() if "wilson" in ln or "normal" in ln]

    assert table(frames.out) and table(counters.out) == table(frames.out)
    assert table(stored.out) == table(frames.out)


def test_simulate_dispatches_on_game() -> None:
    c = cuarenta_sim.simulate(rules="quito", players=2, policies="greedy", n=50, seed=1)
    assert c.provenance["game"] == "cuarenta"
    t = cuarenta_sim.simulate(game="cuatrola", n=50, seed=1)
    assert t.provenance["game"] == "cuatrola" and len(t.hands) == 50
    with pytest.raises(ValueError, match="unknown game 'chess'; accepted: cuarenta, cuatrola"):
        cuarenta_sim.simulate(game="chess")
    alias = cuarenta_sim.simulate(game="cuatrola", policies="random", n=50, seed=1)
    assert alias.provenance["policies"] == ["random"] * 4
    with pytest.raises(ValueError, match="players must be 4"):
        cuarenta_sim.simulate(game="cuatrola", players=2, n=10)
    with pytest.raises(ValueError, match="unknown option bid_policies for game 'cuarenta'"):
        cuarenta_sim.simulate(bid_policies="never", n=10)
