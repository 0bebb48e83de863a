"""Atomic file output: an interrupted run never leaves a half-written file that looks complete.

Every writer in the package goes through :func:`atomic_path`: it hands out a temporary path in
the destination's directory (same file system, so the final ``os.replace`` is atomic) and moves
it into place only when the block finished without an exception.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path; on success move it to ``path`` atomically, else delete it.

    Parameters
    ----------
    path : str or PathLike
        Final destination. Its parent directory is created if missing.

    Yields
    ------
    pathlib.Path
        An empty temporary file (``.<name>.<random>.tmp``) next to ``path``, for the caller
        to overwrite; it gets the permissions a new file would get (``0o666`` less the umask)
        before it is moved into place.

    Raises
    ------
    OSError
        If the directory cannot be created or the final rename fails; the temporary file is
        removed in every failure case (including KeyboardInterrupt).
    """
    final = Path(path)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        # mkstemp creates 0o600 files; give the output the permissions of an ordinary new file.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, final)
    finally:
        # After a successful replace the temporary name no longer exists.
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _umask() -> int:
    """Return the process umask (reading it requires setting it; restore at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically (see :func:`atomic_path`)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> None:
    """Write ``obj`` as indented, key-sorted JSON to ``path`` atomically."""
    write_text_atomic(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")
