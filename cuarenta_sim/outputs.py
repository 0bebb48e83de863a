"""Outputs that commit as one, written by one run at a time.

A run's outputs (a record pair ``X.parquet`` + ``X.games.parquet``, a report folder, a
simulation's ``report.md`` + ``provenance.json``, a dataset directory) must never be seen
half-written nor silently replaced by a concurrent run. Two tools, shared by every command
(``simulate``, ``report``, the ``--dataset`` chunk store):

* :func:`exclusive` holds an advisory lock (``fcntl.flock``) on ``.NAME.lock`` beside every
  output for the whole run; a second run aimed at one of them is refused at once with one
  line. The kernel drops the lock when the process ends, however it ends (``kill -9``
  included), so a dead run never blocks the next one. While holding the locks it calls
  :func:`recover`: stale temporaries of a killed run are removed and an interrupted commit is
  completed.
* :func:`staged` hands out temporary siblings (``.NAME.<token>.new``, files or folders) to write
  into, then commits them together: a journal ``.FIRST.commit`` naming every rename is written
  atomically (the commit point), the renames follow (a folder is swapped: the old one renamed
  aside to ``.NAME.<token>.old``, the new one renamed in, the old one deleted) and the journal
  is removed. Interrupts (SIGINT, SIGTERM) are held back during that short phase; an exception
  before it removes every temporary, so the old outputs stay as they were. A run killed during
  the renames leaves its journal, and the next run (or a reader, :func:`settle`) rolls the
  commit forward.

:func:`interrupted_summary` says what a run that stopped early left, for the command line's
last line. Single files of their own go through :mod:`cuarenta_sim.io` (``os.replace``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import json
import os
import secrets
import shutil
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .io import write_json_atomic

#: Suffix of a staged (new) output, of an old folder moved aside, of a lock, of a journal.
NEW, OLD, LOCK, JOURNAL = ".new", ".old", ".lock", ".commit"


@dataclass
class _Held:
    """One output held by this process: whether it existed at the start and was committed."""

    flag: str
    existed: bool
    committed: bool = False


#: Outputs this process holds (final path -> state).
_HELD: dict[Path, _Held] = {}


@dataclass
class _Lock:
    path: Path
    fd: int
    made: list[Path] = field(default_factory=list)


# ---------------------------------------------------------------- names
def lock_path(path: Path) -> Path:
    """The lock file of output ``path``: ``.NAME.lock`` in the same directory."""
    return path.parent / f".{path.name}{LOCK}"


def journal_path(path: Path) -> Path:
    """The commit journal of a group whose first output is ``path``: ``.NAME.commit``."""
    return path.parent / f".{path.name}{JOURNAL}"


def _siblings(path: Path, suffix: str) -> list[Path]:
    """Temporaries ``.NAME.<token><suffix>`` beside ``path``."""
    pattern = glob.escape(str(path.parent / f".{path.name}.")) + "*" + suffix
    return [Path(p) for p in glob.glob(pattern)]


def _remove(path: Path) -> None:
    """Delete a file or a folder tree; nothing if it is gone."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


# ---------------------------------------------------------------- locks
def _make_parents(directory: Path) -> list[Path]:
    """Create ``directory`` and its missing parents; return the ones created, deepest first."""
    missing = []
    while not directory.exists():
        missing.append(directory)
        directory = directory.parent
    for d in reversed(missing):
        with contextlib.suppress(FileExistsError):
            d.mkdir()
    return missing


def _acquire(path: Path, flag: str) -> _Lock:
    """Lock output ``path`` for this process (non-blocking) or raise ValueError."""
    lock = lock_path(path)
    try:
        made = _make_parents(lock.parent)
    except OSError as err:
        raise ValueError(f"{flag} {path}: cannot create {err.filename} ({err.strerror})") from err
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise ValueError(
                f"{flag} {path}: cannot write in {lock.parent} ({err.strerror})"
            ) from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            holder = ""
            with contextlib.suppress(OSError, ValueError):
                holder = f" (process {int(lock.read_text().strip())})"
            raise ValueError(
                f"{flag} {path}: another run is writing it{holder}; wait for it to finish or "
                f"choose another path"
            ) from None
        # The holder before us may have removed the file after we opened it: lock the file
        # that is at the path now.
        try:
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            return _Lock(lock, fd, made)
        os.close(fd)


def _release(lock: _Lock) -> None:
    """Remove the lock file while holding it, then unlock; remove directories created for it
    that stayed empty."""
    with contextlib.suppress(FileNotFoundError):
        lock.path.unlink()
    os.close(lock.fd)
    for d in lock.made:
        with contextlib.suppress(OSError):
            d.rmdir()


@contextlib.contextmanager
def exclusive(
    paths: Sequence[str | os.PathLike[str]],
    flag: str,
    *,
    describe: Callable[[], str] | None = None,
) -> Iterator[None]:
    """Hold every output in ``paths`` for this run; refuse if another run holds one.

    Locks ``.NAME.lock`` beside each path with ``fcntl.flock`` (released on any exit of the
    block, and by the kernel when the process dies), then :func:`recover`\\ s each path.
    Re-entrant within a process: a path this process already holds is not locked twice.
    Missing parent directories are created, and removed again on exit if still empty. On
    exit, what the outputs are is recorded for :func:`interrupted_summary`.

    Parameters
    ----------
    paths : sequence of path-like
        The outputs (files or folders), as they will be named when complete.
    flag : str
        The option naming them, e.g. ``"--out"`` (starts the error message).
    describe : callable, optional
        ``describe() -> str``: what is left of these outputs if the run stops early
        (default: from whether each existed at the start and was committed).

    Raises
    ------
    ValueError
        One line: another process holds one of the outputs, or its directory cannot be
        written.
    """
    finals = [Path(p) for p in paths]
    locks: list[_Lock] = []
    mine: list[Path] = []
    try:
        for path in finals:
            if path in _HELD:
                continue
            locks.append(_acquire(path, flag))
            recover(path)
            _HELD[path] = _Held(flag, path.exists())
            mine.append(path)
        yield
    finally:
        # Recorded on every exit (a context manager closed without the exception, as click
        # closes a command's resources, cannot tell how the block ended); printed only when
        # the run stops early.
        if mine:
            _LEFT.append(describe() if describe is not None else _describe(mine))
            del _LEFT[:-_KEEP]
        for path in mine:
            _HELD.pop(path, None)
        for lock in reversed(locks):
            _release(lock)


def held(path: str | os.PathLike[str]) -> bool:
    """True while this process holds output ``path`` (:func:`exclusive`)."""
    return Path(path) in _HELD


# ---------------------------------------------------------------- commit
def _commit_steps(entries: list[tuple[Path, Path, Path]]) -> None:
    """Move every staged output in place (idempotent: safe to repeat after a crash).

    Each entry is ``(staged, final, aside)``; a folder already at ``final`` goes ``aside``
    first, then ``staged`` takes its name, then ``aside`` is deleted.
    """
    for new, final, aside in entries:
        if new.exists() or new.is_symlink():
            if final.is_dir() and not final.is_symlink():
                if aside.exists():
                    _remove(aside)
                os.rename(final, aside)
            os.replace(new, final)
        _remove(aside)


def _read_journal(journal: Path) -> list[tuple[Path, Path, Path]] | None:
    try:
        data = json.loads(journal.read_text(encoding="utf-8"))
        return [(Path(a), Path(b), Path(c)) for a, b, c in data["entries"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def recover(path: str | os.PathLike[str]) -> None:
    """Finish an interrupted commit of output ``path`` and remove stale temporaries beside it.

    Call it only while holding ``path`` (:func:`exclusive` does): a journal ``.NAME.commit``
    is rolled forward then removed; ``.NAME.*.new``, ``.NAME.*.old`` and ``.NAME.*.tmp``
    left by a killed run are deleted. The journal is written atomically, so one that cannot
    be read is no commit's and is only removed.
    """
    final = Path(path)
    journal = journal_path(final)
    if journal.exists():
        entries = _read_journal(journal)
        if entries:
            _commit_steps(entries)
        journal.unlink()
    for suffix in (NEW, OLD, ".tmp"):
        for stale in _siblings(final, suffix):
            _remove(stale)


def settle(path: str | os.PathLike[str]) -> None:
    """Before reading output ``path``: roll forward a commit a killed run left half done.

    Does nothing when there is no journal, or when another process holds the output (it is
    alive and finishes its own commit), or when the directory is read-only.
    """
    final = Path(path)
    if not journal_path(final).exists() or held(final):
        return
    with contextlib.suppress(ValueError, OSError):
        lock = _acquire(final, "read")
        try:
            recover(final)
        finally:
            _release(lock)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back during the block, then deliver the first one received.

    Python runs signal handlers in the main thread only, so replacing them there is reliable
    even when other threads receive the signal; in another thread nothing is changed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    kinds = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.signal(s, lambda signum, frame: received.append(signum)) for s in kinds}
    try:
        yield
    finally:
        for s, handler in previous.items():
            if handler is not None:
                signal.signal(s, handler)
        if received:
            signal.raise_signal(received[0])


@contextlib.contextmanager
def staged(finals: Sequence[str | os.PathLike[str]]) -> Iterator[list[Path]]:
    """Yield a temporary sibling for each output; commit them all together on success.

    The caller writes each output (a file, or a folder it creates) at the temporary path of
    the same position. When the block ends normally every output is moved in place as one
    commit (module docstring); when it raises (an error, ENOSPC, KeyboardInterrupt) every
    temporary is removed and the outputs already there are left untouched.

    Parameters
    ----------
    finals : sequence of path-like
        The outputs, the first one naming the journal. Their parent directories are created.

    Yields
    ------
    list of Path
        ``.NAME.<token>.new`` beside each output, not yet created.

    Raises
    ------
    FileNotFoundError
        If the block ended without writing one of the temporaries (nothing is committed).
    OSError
        From the writes, or when the journal cannot be written (nothing is committed).
    """
    paths = [Path(p) for p in finals]
    token = secrets.token_hex(4)
    news = [p.parent / f".{p.name}.{token}{NEW}" for p in paths]
    asides = [p.parent / f".{p.name}.{token}{OLD}" for p in paths]
    for p in paths:
        p.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield news
        for new in news:
            if not (new.exists() or new.is_symlink()):
                raise FileNotFoundError(errno.ENOENT, "output was not written", str(new))
    except BaseException as err:
        for new in news:
            _remove(new)
        if isinstance(err, OSError):
            _name_final(err, news, paths)
        raise
    entries = list(zip(news, paths, asides, strict=True))
    journal = journal_path(paths[0])
    with _signals_held():
        try:
            write_json_atomic(journal, {"entries": [[str(x) for x in e] for e in entries]})
        except BaseException:
            for new in news:
                _remove(new)
            raise
        _commit_steps(entries)
        journal.unlink()
        for p in paths:
            if p in _HELD:
                _HELD[p].committed = True


def _name_final(err: OSError, news: list[Path], paths: list[Path]) -> None:
    """Make an error about a temporary name the output it stood for (the path a user knows)."""
    if err.filename is None:
        return
    name = str(err.filename)
    for new, final in zip(news, paths, strict=True):
        if name == str(new) or name.startswith(f"{new}{os.sep}"):
            err.filename = str(final) + name[len(str(new)) :]
            return


def carry_over(old: Path, new: Path, keep: Callable[[Path], bool]) -> list[Path]:
    """Copy into folder ``new`` the files of folder ``old`` that ``new`` lacks and ``keep``
    accepts (a path relative to ``old``): files another tool wrote into a report folder.

    Returns
    -------
    list of Path
        The relative paths copied (hard links where the file system allows, else copies).
    """
    copied = []
    if not old.is_dir():
        return copied
    for src in sorted(old.rglob("*")):
        rel = src.relative_to(old)
        dst = new / rel
        if src.is_dir() or dst.exists() or not keep(rel) or rel.name.startswith("."):
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)
        copied.append(rel)
    return copied


# ---------------------------------------------------------------- messages
#: What the outputs of the blocks of :func:`exclusive` were left as (newest last; the last
#: :data:`_KEEP` blocks).
_LEFT: list[str] = []
_KEEP = 16


def _describe(paths: Sequence[Path]) -> str:
    """What ``paths`` (held by this process) are now: written, left as before, or absent."""
    done = [str(p) for p in paths if _HELD[p].committed]
    kept = [str(p) for p in paths if not _HELD[p].committed and _HELD[p].existed]
    absent = [str(p) for p in paths if not _HELD[p].committed and not _HELD[p].existed]
    if not done and not kept:
        return f"nothing was written ({', '.join(absent)}: not created)"
    parts = []
    if done:
        parts.append(f"written in full: {', '.join(done)}")
    if kept:
        parts.append(f"left as they were: {', '.join(kept)}")
    if absent:
        parts.append(f"not created: {', '.join(absent)}")
    return "; ".join(parts)


def reset_summary() -> None:
    """Forget what earlier runs in this process left (the command line calls it first)."""
    _LEFT.clear()


def interrupted_summary(default: str = "nothing was written") -> str:
    """What the outputs of a run that stopped early are, for its last message.

    Parameters
    ----------
    default : str
        Returned when the run held no output.

    Returns
    -------
    str
        e.g. ``"nothing was written (out.parquet, out.games.parquet: not created)"``.
    """
    return "; ".join(dict.fromkeys(_LEFT)) or default
