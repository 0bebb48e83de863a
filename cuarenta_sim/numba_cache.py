"""Numba's on-disk cache, made safe across modules for this package's kernels.

Why: numba (``@njit(cache=True)``) stamps a cached kernel with a hash of *the one source file
that defines it*. A kernel that calls (and inlines) functions of another module keeps its
stale machine code after that other module changes: after a merge this once ran an old
scoring step that no longer matched the reference engine, and once hung. Here every kernel
defined in this package is stamped with a hash of *all* the package's Python sources instead,
so any change to any module recompiles every cached kernel once, and an installed package
(whose sources never change) keeps its cache.

How: :func:`install` puts locator classes in front of numba's own (``CacheImpl.
_locator_classes``). Each one is numba's locator of the same kind (a user ``NUMBA_CACHE_DIR``,
the in-tree ``__pycache__``, the user-wide cache directory: the same precedence as numba)
restricted to files of this package, whose ``get_source_stamp`` is the package digest.
Functions of other libraries are untouched. If numba's internals change so that the hook
cannot be installed, the package still works with numba's default per-file stamps
(:func:`install` returns ``False``).
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Any

#: Root of the package whose kernels get package-wide stamps.
PACKAGE_ROOT = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=1)
def package_digest(root: str = str(PACKAGE_ROOT)) -> bytes:
    """SHA-256 of every ``.py`` file under ``root`` (sorted relative paths and contents).

    Parameters
    ----------
    root : str
        Directory to hash; default the package root.

    Returns
    -------
    bytes
        32-byte digest, computed once per process (sources do not change under a running
        simulation; a changed file is picked up by the next process).
    """
    h = hashlib.sha256()
    base = Path(root)
    for path in sorted(base.rglob("*.py")):
        h.update(str(path.relative_to(base)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.digest()


def _in_package(py_file: str) -> bool:
    try:
        Path(py_file).resolve().relative_to(PACKAGE_ROOT)
    except (OSError, ValueError):
        return False
    return True


def _package_locator(base: type) -> type:
    """A subclass of numba locator ``base`` that only takes this package's files and stamps
    them with :func:`package_digest`."""

    class PackageLocator(base):  # type: ignore[misc, valid-type]
        def get_source_stamp(self) -> Any:
            return package_digest()

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

    PackageLocator.__name__ = PackageLocator.__qualname__ = f"Package{base.__name__}"
    return PackageLocator


@functools.lru_cache(maxsize=1)
def install() -> bool:
    """Install the package-wide stamps (idempotent). Call before any kernel is decorated.

    Returns
    -------
    bool
        ``True`` when the locators are in place, ``False`` when numba's caching internals
        were not found (then numba's per-file stamps apply) or ``CUARENTA_SIM_NUMBA_STAMPS=0``
        is set in the environment.
    """
    if os.environ.get("CUARENTA_SIM_NUMBA_STAMPS", "1") == "0":
        return False
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover - numba is a core dependency
        return False
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list):
        return False
    bases = [
        getattr(caching, name, None) or getattr(caching, f"_{name}", None)
        for name in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    ]
    if any(b is None for b in bases):
        return False
    classes[0:0] = [_package_locator(b) for b in bases]
    return True
