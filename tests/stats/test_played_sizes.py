"""Provenance lists only the sizes that were played (issue 18 cold read: the players' guide
and the odds report printed configured ``n_chicas`` / ``n_mesas`` for levels they never
played, or played at other sizes)."""

from __future__ import annotations

from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.framework import NOT_PLAYED, played_sizes, provenance


def _run(level: str, n: int) -> dict:
    return {"rules": "quito", "players": 2, "policies": ["learned"] * 2, "level": level, "n": n}


def test_a_level_no_run_played_is_marked_not_played() -> None:
    settings = StudySettings(n=1_000_000)
    runs = [_run("data", 1_000_000), _run("data", 1000)]
    assert settings.n_chicas > 0 and settings.n_mesas > 0  # configured, but never played
    sizes = played_sizes(settings, runs)
    assert sizes == {"n_datas": 1_000_000, "n_chicas": NOT_PLAYED, "n_mesas": NOT_PLAYED}
    prov = provenance("odds", settings, runs, 1.0)
    assert prov["n_chicas"] == NOT_PLAYED and prov["n_mesas"] == NOT_PLAYED


def test_sizes_played_at_other_values_than_configured_are_listed() -> None:
    settings = StudySettings(n=200_000)
    runs = [_run("data", 200_000), _run("chica", 200), _run("chica", 4000), _run("mesa", 10_000)]
    assert settings.n_chicas not in (200, 4000) and settings.n_mesas != 10_000
    assert played_sizes(settings, runs) == {
        "n_datas": 200_000,
        "n_chicas": [200, 4000],
        "n_mesas": 10_000,
    }


def test_configured_size_kept_when_played_and_unknown_levels_left_alone() -> None:
    settings = StudySettings(n=3000, chicas=500, mesas=50)
    runs = [_run("data", 3000), _run("data", 750), _run("chica", 500), _run("mesa", 50)]
    assert played_sizes(settings, runs) == {"n_datas": 3000, "n_chicas": 500, "n_mesas": 50}
    # Runs that name no level (e.g. hands of another game): nothing says what was played.
    assert played_sizes(settings, [{"n": 10}])["n_chicas"] == 500
