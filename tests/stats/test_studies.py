"""cuarenta_sim.studies: each report builds and writes report.md, figures and provenance."""

import json

import pytest

from cuarenta_sim import studies
from cuarenta_sim.cuarenta import studies as cuarenta_studies

TINY = {"n": 3_000, "seed": 2, "players": (2,), "chicas": 600, "mesas": 300}


@pytest.fixture(scope="module")
def qc() -> studies.GeneratedReport:
    return studies.run_study("quito-vs-cuenca", studies.StudySettings(**TINY))


def test_quito_vs_cuenca_answers_the_questions(qc, tmp_path) -> None:
    written = qc.write(tmp_path / "qc")
    names = sorted(p.relative_to(tmp_path / "qc").as_posix() for p in written)
    assert names == [
        "claims.json",
        "figures/chica_length.png",
        "figures/convergence.png",
        "figures/points_by_source.png",
        "figures/win_probability.png",
        "provenance.json",
        "report.md",
    ]
    md = (tmp_path / "qc" / "report.md").read_text()
    for heading in (
        "## How much does Cuenca scoring shorten a chica?",
        "## Where do a data's points come from?",
        "## How big is the dealer's advantage?",
        "## How often is a ronda dealt?",
        "## How often is a play a caida?",
        "## Resolution",
        "## Reproduce",
        "## Provenance",
    ):
        assert heading in md
    for fig in ("chica_length", "points_by_source", "win_probability", "convergence"):
        assert f"(figures/{fig}.png)" in md
    assert "**Convergence of Cuenca - Quito datas per chica (2 players" in md
    conv = qc.tables["convergence"]
    assert sorted(conv["replicate"].unique()) == [0, 1, 2]
    assert conv.loc[conv["replicate"] == 0, "n"].max() == 600
    assert "cuarenta-sim report quito-vs-cuenca --n 3000 --seed 2 --players 2" in md
    prov = json.loads((tmp_path / "qc" / "provenance.json").read_text())
    assert prov["report"] == "quito-vs-cuenca" and prov["n_datas"] == 3_000
    assert {r["rules"] for r in prov["runs"]} == {"quito", "cuenca"}
    assert len(prov["runs"]) == 6  # 2 presets x (data, chica, mesa)
    png = (tmp_path / "qc" / "figures" / "points_by_source.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list((tmp_path / "qc").rglob("*.tmp"))


def test_quito_vs_cuenca_summary_table(qc) -> None:
    summary = qc.tables["summary"]
    assert list(summary.columns) == [
        "metric",
        "players",
        "Quito",
        "Cuenca",
        "Cuenca - Quito",
        "relative",
        "verdict",
    ]
    row = summary[summary["metric"] == "datas per chica"].iloc[0]
    assert row["verdict"].split(" (")[0] in ("resolved", "not resolved", "no difference")
    assert "datas per chica" in qc.summary and "Cuenca - Quito" in qc.summary
    diffs = qc.tables["differences"].set_index("metric")
    # R7.2 changes scoring only: the plays (with greedy players) and the deals are the same.
    assert diffs.loc["ronda_dealt", "verdict"] == "identical"
    assert diffs.loc["points", "estimate"] > 0


def test_rewriting_removes_stale_figures(qc, tmp_path) -> None:
    stale = tmp_path / "qc" / "figures" / "old.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"x")
    qc.write(tmp_path / "qc")
    assert not stale.exists()


def test_odds_study(tmp_path) -> None:
    rep = studies.run_study("odds", studies.StudySettings(n=20_000, seed=1, players=(2, 4)))
    rep.write(tmp_path / "odds")
    md = (tmp_path / "odds" / "report.md").read_text()
    assert "## Dealing odds (R4)" in md and "## Caida risk (R6.1)" in md
    assert sorted(p.name for p in (tmp_path / "odds" / "figures").iterdir()) == [
        "convergence.png",
        "exact_vs_simulated.png",
    ]
    assert "**Convergence of P(a ronda is dealt in a data), 2 players.**" in md
    assert "(figures/convergence.png)" in md
    conv = rep.tables["convergence"]
    assert sorted(conv["replicate"].unique()) == [0, 1, 2]
    assert conv.groupby("replicate")["n"].max().tolist() == [20_000, 5_000, 5_000]
    odds = rep.tables["odds"]
    assert set(odds["players"]) == {2, 4} and odds["defined"].all()
    assert set(rep.tables["caida_rates"]["metric"]) >= {"caidas_per_play"}
    # only the sizes it played: datas (no chica or mesa is played)
    prov = json.loads((tmp_path / "odds" / "provenance.json").read_text())
    assert prov["n_datas"] == 20_000 and "n_chicas" not in prov and "n_mesas" not in prov
    assert "| n_chicas |" not in md and "| n_mesas |" not in md


def test_sensitivity_study(tmp_path) -> None:
    settings = studies.StudySettings(n=2_000, seed=1, players=(2,), chicas=400, mesas=200)
    rep = studies.run_study("sensitivity", settings)
    rep.write(tmp_path / "sens")
    figures = sorted(p.stem for p in (tmp_path / "sens" / "figures").glob("*.png"))
    assert figures == sorted(
        ["convergence", *(f"tornado_{m}" for m in cuarenta_studies.TORNADO_METRICS)]
    )
    conv = rep.tables["convergence"]
    assert conv.groupby("replicate")["n"].max().tolist() == [400, 100, 100]
    # The main run replays the headline's base chicas: its final estimate is the base's.
    est = rep.tables["estimates"]
    head = est["model"].iloc[0]
    base = est[
        (est["variant"] == "base")
        & (est["metric"] == "datas_per_chica")
        & (est["model"] == head)
        & (est["players"] == 2)
    ]["estimate"].iloc[0]
    final = conv[conv["replicate"] == 0].iloc[-1]["estimate"]
    assert final == pytest.approx(base)
    diff = rep.tables["differences"]
    assert (diff["baseline"] == "base").all()
    assert "caida_limpia_cumulative=true" in set(diff["variant"])
    md = (tmp_path / "sens" / "report.md").read_text()
    assert "## Effect on datas per chica" in md
    # Issue 18 item 6: presets against the base beside the flips, with the additivity check
    # and the tuned-on-Quito disclosure.
    presets = rep.tables["presets"]
    assert set(presets["variant"]) == {"preset:cuenca", "preset:pagat", "preset:quito_torneo"}
    adds = rep.tables["additivity"]
    assert set(adds["preset"]) == {"cuenca", "pagat", "quito_torneo"}
    cuenca = adds[(adds["preset"] == "cuenca") & (adds["metric"] == "datas_per_chica")].iloc[0]
    # Cuenca is one flip from Quito: the "sum" is that flip, which replays the same decks.
    assert cuenca["switches"] == 1 and cuenca["summed"] == pytest.approx(cuenca["measured"])
    assert "## Presets as played: do the flips add up?" in md
    # greedy has no tuned weights: no tuning disclosure (the learned/heuristic panel gets one,
    # tests/stats/test_cold_read_wording.py)
    assert "tuned under Quito" not in md
    assert "sum - measured [95%]" in md
    assert "**Convergence of datas per chica (" in md and "(figures/convergence.png)" in md


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0}, "--n must be a positive"),
        ({"n": 10, "players": (3,)}, "--players must be 2, 4"),
        ({"n": 10, "players": (2, 2)}, "twice"),
        ({"n": 10, "seed": -1}, "--seed"),
        ({"n": 10, "chicas": 0}, "--chicas"),
    ],
)
def test_settings_validation(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        studies.StudySettings(**kwargs)


def test_unknown_study() -> None:
    with pytest.raises(ValueError, match="unknown report 'nope'; accepted: quito-vs-cuenca"):
        studies.run_study("nope", studies.StudySettings(n=10))
