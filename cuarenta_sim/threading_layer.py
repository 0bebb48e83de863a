"""The numba threading layer of the parallel kernels: fork-safe, chosen once at package import.

Why: numba's default layer order tries TBB, then OpenMP, then its own ``workqueue``. Without
TBB it lands on GNU OpenMP on Linux, and GNU OpenMP cannot survive ``fork``: after one
parallel kernel has run in a parent, a child made by the ``fork`` start method (the default of
:mod:`multiprocessing` on Linux before Python 3.14, so ``multiprocessing.Pool``) aborts on its
first parallel kernel ("fork() called from a process already using GNU OpenMP") and
``Pool.map`` waits forever for the dead worker.

What: :func:`select_threading_layer` (run by ``cuarenta_sim/__init__.py`` before any kernel
can run) asks numba for its ``"forksafe"`` layer, which on Linux is TBB when TBB loads and
``workqueue`` otherwise; OpenMP is never used. TBB is a core dependency (the ``tbb`` PyPI
package, pyproject.toml), so installs from pyproject get it:

* ``tbb`` -- fork-safe and thread-safe (several Python threads may run kernels at once).
* ``workqueue`` (fallback when TBB does not load, e.g. a platform with no ``tbb`` wheel) --
  fork-safe but not thread-safe: two Python threads launching parallel kernels at the same
  time abort the process, so without TBB run concurrent simulations in processes, not threads.

The ``tbb`` wheel puts ``libtbb.so.12`` in ``<prefix>/lib``, which is not on the loader path of
a virtual environment, and numba's ``tbbpool`` extension has no run path to find it; so the
library is loaded here by its full path first (the loader then matches numba's dependency on
it by its soname). Results do not depend on the layer: every random draw is keyed by
(seed, game index, stream) (:mod:`cuarenta_sim.rng`), so the frames are identical whatever the
layer or the thread count.

An explicit ``NUMBA_THREADING_LAYER`` in the environment is the user's choice and is kept.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import os
import sys
from pathlib import Path

#: The numba layer asked for: TBB, else ``workqueue`` (never GNU OpenMP, which breaks on fork).
REQUESTED_LAYER = "forksafe"

#: The TBB runtime's file name per platform (the one numba's ``tbbpool`` links against).
_TBB_LIBRARY = {"win32": "tbb12.dll", "darwin": "libtbb.12.dylib"}.get(sys.platform, "libtbb.so.12")

#: Set once by :func:`select_threading_layer`: what it asked numba for, and why.
_selection: dict[str, str] = {}


def _tbb_candidates() -> list[str]:
    """Paths (or the bare name, for the loader's own search) where the TBB runtime may be.

    Returns
    -------
    list of str
        The bare library name first (found on the loader path, e.g. a system TBB or
        ``LD_LIBRARY_PATH``), then the file the ``tbb`` distribution installed, then
        ``<sys.prefix>/lib/<name>``.
    """
    candidates = [_TBB_LIBRARY]
    try:
        files = importlib.metadata.files("tbb") or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    candidates += [str(f.locate()) for f in files if Path(str(f)).name == _TBB_LIBRARY]
    candidates.append(str(Path(sys.prefix) / "lib" / _TBB_LIBRARY))
    return candidates


def load_tbb() -> str | None:
    """Load the TBB runtime into the process so that numba's TBB layer can import.

    Returns
    -------
    str or None
        The name or path it was loaded from, or ``None`` when no candidate loads (no ``tbb``
        package, an unsupported platform...). Never raises.
    """
    mode = getattr(ctypes, "RTLD_GLOBAL", 0)
    for candidate in _tbb_candidates():
        try:
            ctypes.CDLL(candidate, mode=mode)
        except OSError:
            continue
        return candidate
    return None


def _layers_started() -> bool:
    """Whether numba has already started its threading layer (it cannot change after)."""
    try:
        from numba.np.ufunc import parallel
    except ImportError:  # pragma: no cover - numba always ships it
        return False
    return bool(getattr(parallel, "_is_initialized", False))


def select_threading_layer() -> str:
    """Choose numba's fork-safe threading layer before any parallel kernel runs.

    Loads TBB when it is installed (:func:`load_tbb`) and sets
    ``numba.config.THREADING_LAYER`` (and ``NUMBA_THREADING_LAYER`` in ``os.environ``, so that
    numba's re-reading of the environment and child processes keep it) to
    :data:`REQUESTED_LAYER`. Idempotent.

    Returns
    -------
    str
        The layer asked for: ``"forksafe"``, or the user's own ``NUMBA_THREADING_LAYER`` when
        set, or ``"already started"`` when numba's layer had started before this ran (some
        other parallel numba code ran first; numba cannot switch then).
    """
    if _selection:
        return _selection["requested"]
    import numba

    load_tbb()
    if _layers_started():
        requested = "already started"
    elif "NUMBA_THREADING_LAYER" in os.environ:
        requested = os.environ["NUMBA_THREADING_LAYER"]
    else:
        requested = REQUESTED_LAYER
        os.environ["NUMBA_THREADING_LAYER"] = requested
        numba.config.THREADING_LAYER = requested
    _selection["requested"] = requested
    return requested


def threading_layer() -> str | None:
    """The numba threading layer that runs the kernels, once one has run.

    Returns
    -------
    str or None
        ``"tbb"``, ``"workqueue"`` or ``"omp"`` (:func:`numba.threading_layer`), or ``None``
        before the first parallel kernel of the process (numba starts its layer lazily).
    """
    import numba

    if not _layers_started():
        return None
    try:
        return str(numba.threading_layer())
    except ValueError:
        return None
