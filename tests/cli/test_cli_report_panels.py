"""`cuarenta-sim report` with player panels: bad panel, --confirm and --precision input."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--policies", "greedy;;heuristic"], "empty model"),
        (["--policies", "greedy;smart"], "unknown policy 'smart'"),
        (["--confirm", "smart"], "--confirm 'smart'"),
        (["--confirm-n", "0"], "--confirm-n must be a positive"),
        (["--precision", "0"], "--precision must be a half-width"),
        (["--precision", "75"], "--precision must be a half-width"),
        (["--precision", "0.5", "--n", "100"], "give --n or --precision, not both"),
    ],
)
def test_bad_panel_input_exits_2_with_one_line(run_cli, tmp_path, args, needle) -> None:
    run = run_cli("report", "quito-vs-cuenca", *args, "--out", str(tmp_path), "--no-progress")
    run.assert_bad_input()
    assert needle in run.err
    assert len(run.err.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())


def test_simulate_sizes_n_from_precision(run_cli) -> None:
    from cuarenta_sim.stats import required_n

    run = run_cli("simulate", "--precision", "5", "--no-progress")
    assert run.code == 0, run.err
    n = required_n("proportion", 0.05)
    assert f"{n:,} datas" in run.out and f"--n {n}" in run.reproduce
    bad = run_cli("simulate", "--precision", "-1", "--no-progress")
    bad.assert_bad_input()
    assert "--precision must be a half-width" in bad.err


def test_confirm_n_without_a_confirmatory_model_is_refused(run_cli) -> None:
    run = run_cli("report", "quito-vs-cuenca", "--confirm", "none", "--confirm-n", "100",
                  "--n", "100")  # fmt: skip
    assert run.code == 2
    assert "--confirm-n needs a confirmatory model" in run.err
    assert len(run.err.strip().splitlines()) == 1
