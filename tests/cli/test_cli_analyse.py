"""``cuarenta-sim analyse`` and ``cuarenta-sim replay --record`` (issue 21 item 2)."""

from __future__ import annotations

import json
from pathlib import Path

from cuarenta_sim.cuarenta.review import DEFAULT_SAMPLES

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "game_record.json"


def test_analyse_prints_the_table(run_cli) -> None:
    run = run_cli("analyse", str(EXAMPLE), "--samples", "8")
    assert run.code == 0, run.err
    assert "40 decisions, final scores 20-6" in run.out
    assert "points lost" in run.out and "Largest mistakes:" in run.out
    assert "8 worlds per sampled decision" in run.out


def test_analyse_writes_json_md_and_html(run_cli, tmp_path: Path) -> None:
    run = run_cli(
        "analyse", str(EXAMPLE), "--samples", "8", "--seed", "3", "--json", "r.json", "--md", "r.md"
    )
    assert run.code == 0, run.err
    review = json.loads((tmp_path / "r.json").read_text())
    assert review["samples"] == 8 and review["seed"] == 3
    assert len(review["decisions"]) == 40 and len(review["seats"]) == 2
    assert all(r["lost"] >= 0 for r in review["decisions"])
    md = (tmp_path / "r.md").read_text()
    assert "![Points lost per decision](r.png)" in md and "| seat |" in md
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    run = run_cli("analyse", str(EXAMPLE), "--samples", "8", "--html", "r.html")
    assert run.code == 0, run.err
    page = (tmp_path / "r.html").read_text()
    assert "data:image/png;base64," in page and "<table>" in page
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_replay_record_is_analysed(run_cli, tmp_path: Path) -> None:
    run = run_cli(
        "replay", "--level", "chica", "--seed", "2", "--policies", "greedy,random",
        "--record", "g.json",
    )  # fmt: skip
    assert run.code == 0, run.err
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["episode"] == "chica" and record["names"] == ["greedy", "random"]
    assert record["source"] == {"seed": 2, "level": "chica", "index": 0}
    run = run_cli("analyse", "g.json", "--samples", "4")
    assert run.code == 0, run.err
    assert f"winner side {record['result']['winner']}" in run.out


def test_default_samples_are_the_reviews() -> None:
    from typer.main import get_command

    from cuarenta_sim.cli.app import app

    params = {p.name: p for p in get_command(app).commands["analyse"].params}  # type: ignore[attr-defined]
    assert params["samples"].default == DEFAULT_SAMPLES


def test_bad_input_exits_2_with_one_line(run_cli, tmp_path: Path) -> None:
    record = json.loads(EXAMPLE.read_text())
    record["datas"][0]["deals"][1]["plays"][2]["base"] = ["K", "K"]
    (tmp_path / "bad.json").write_text(json.dumps(record))
    run = run_cli("analyse", "bad.json")
    run.assert_bad_input()
    assert "datas[0].deals[1].plays[2] (play 12 of the game)" in run.err
    (tmp_path / "rules.json").write_text(
        json.dumps({**json.loads(EXAMPLE.read_text()), "rules": "x"})
    )
    run = run_cli("analyse", "rules.json")
    run.assert_bad_input()
    assert "rules:" in run.err
    (tmp_path / "notjson.json").write_text("{")
    run_cli("analyse", "notjson.json").assert_bad_input()
    run_cli("analyse", "missing.json").assert_bad_input()
    run = run_cli("analyse", str(EXAMPLE), "--samples", "1")
    run.assert_bad_input()
    assert "--samples" in run.err
    run = run_cli("analyse", str(EXAMPLE), "--html", "a.html", "--md", "a.md")
    run.assert_bad_input()
    assert not (tmp_path / "a.html").exists()
    run = run_cli("replay", "--level", "mesa", "--record", "m.json")
    run.assert_bad_input()
    assert "mesa" in run.err and not (tmp_path / "m.json").exists()
    run = run_cli("replay", "--game", "cuatrola", "--record", "c.json")
    run.assert_bad_input()
