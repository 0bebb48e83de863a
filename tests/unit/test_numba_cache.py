"""Package-wide numba cache stamps (cuarenta_sim.numba_cache): a cached kernel is stale as
soon as any module of the package changes, not only its own file."""

from __future__ import annotations

from pathlib import Path

from cuarenta_sim import numba_cache
from cuarenta_sim.cuarenta.engine import play


def _locator(dispatcher: object) -> object:
    return dispatcher._cache._impl._locator  # type: ignore[attr-defined]


def test_package_kernels_use_the_package_digest() -> None:
    assert numba_cache.install() is True
    kernel = next(v for v in vars(play).values() if hasattr(v, "_cache") and v._cache._impl)
    loc = _locator(kernel)
    assert type(loc).__name__.startswith("Package")
    assert loc.get_source_stamp() == numba_cache.package_digest()


def test_digest_changes_with_any_file(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    before = numba_cache.package_digest.__wrapped__(str(tmp_path))
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")
    after = numba_cache.package_digest.__wrapped__(str(tmp_path))
    assert before != after


def test_other_files_keep_numba_default() -> None:
    assert not numba_cache._in_package(numba_cache.__file__.replace("cuarenta_sim", "elsewhere"))
    assert numba_cache._in_package(numba_cache.__file__)
