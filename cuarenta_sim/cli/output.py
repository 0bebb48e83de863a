"""What the commands share for output: location checks, the reproduce line, printing.

Every output location (``--out``, ``--report``, ``--dataset``) is checked by
:func:`check_file` or :func:`check_directory` before the first simulation -- by creating and
removing a probe file where the output will go, so an unwritable place (``/proc``, a read-only
mount, a path under a file) fails in seconds with one line naming the path, not after the run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import typer

PROG = "cuarenta-sim"


# ---------------------------------------------------------------- output locations
def _probe(path: Path, flag: str, shown: Path | None = None) -> None:
    """Raise ValueError unless a file can be created where ``path`` will be written; the
    message names ``shown`` (default ``path``): the output the user gave, never a test file."""
    ancestor = path.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    where = path if shown is None else shown
    if not ancestor.is_dir():
        raise ValueError(f"{flag} {where}: cannot create it, {ancestor} is not a directory")
    try:
        handle, probe = tempfile.mkstemp(dir=ancestor, prefix=".cuarenta-sim-probe-")
    except OSError as err:
        reason = err.strerror or str(err)
        raise ValueError(f"{flag} {where}: cannot write in {ancestor} ({reason})") from err
    os.close(handle)
    os.unlink(probe)


def check_file(path: Path, flag: str, *, suffix: str | None = None, force: bool = False) -> None:
    """Check, before any simulation, that output file ``path`` can be written.

    Parameters
    ----------
    path : Path
        The file (its parent directories may not exist yet: they are created later).
    flag : str
        The option naming it, e.g. ``"--out"`` (starts the error message).
    suffix : str, optional
        Required suffix, e.g. ``".parquet"``.
    force : bool
        Whether an existing file may be replaced.

    Raises
    ------
    ValueError
        One line naming ``path``: wrong suffix, a directory, an existing file without
        ``force``, a parent that is a file, or a place where nothing can be created.
    """
    if path.is_dir():
        raise ValueError(f"{flag} {path}: is a directory, not a file name")
    if suffix is not None and path.suffix != suffix:
        raise ValueError(f"{flag} {path}: use a {suffix} path (the records are written as Parquet)")
    if path.exists() and not force:
        raise ValueError(f"{flag} {path}: already exists; pass --force to overwrite it")
    _probe(path, flag)


def check_directory(
    path: Path, flag: str, *, files: Sequence[str] = (), force: bool = True
) -> None:
    """Check, before any simulation, that output directory ``path`` can be written.

    Parameters
    ----------
    path : Path
        The directory (created later if missing).
    flag : str
        The option naming it, e.g. ``"--report"``.
    files : sequence of str
        Names of the files the command writes into it.
    force : bool
        Whether those files may be replaced when they exist.

    Raises
    ------
    ValueError
        One line naming ``path``: an existing file in its place, an existing output file
        without ``force``, or a place where nothing can be created.
    """
    if path.exists() and not path.is_dir():
        raise ValueError(f"{flag} {path}: already exists and is not a directory")
    if not force:
        for name in files:
            if (path / name).exists():
                raise ValueError(
                    f"{flag} {path}: {path / name} already exists; pass --force to overwrite it"
                )
    _probe(path / ".probe", flag, shown=path)


@contextlib.contextmanager
def hold_outputs(out: Sequence[Path], report: Path | None, dataset: Path | None) -> Iterator[None]:
    """Hold a run's outputs for its whole length (:func:`cuarenta_sim.outputs.exclusive`):
    the ``--out`` files, the ``--report`` files, the ``--dataset`` directory. A second run
    aimed at one of them is refused at once (ValueError, one line)."""
    from ..distributed import dataset_lock
    from ..outputs import exclusive
    from ..reports import Report

    with contextlib.ExitStack() as stack:
        if out:
            stack.enter_context(exclusive(out, "--out"))
        if report is not None:
            stack.enter_context(exclusive(Report.paths(report), "--report"))
        stack.enter_context(dataset_lock(dataset))
        yield


# ---------------------------------------------------------------- the reproduce line
def _words(param: Any, value: Any) -> list[str]:
    """The command-line words giving option ``param`` the value ``value``."""
    if param.param_type_name == "argument":
        return [str(value)]
    if getattr(param, "is_flag", False) and isinstance(value, bool):
        if getattr(param, "secondary_opts", None):
            return [param.opts[0] if value else param.secondary_opts[0]]
        return [param.opts[0]] if value else []
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return [param.opts[0], text]


def reproduce_line(
    ctx: typer.Context, values: Mapping[str, Any], *, always: Sequence[str] = ()
) -> str:
    """The shell command that reruns this command with the same settings.

    Every option whose value differs from its default is written (output locations included,
    so pasting the line never writes somewhere else), and the options in ``always`` even at
    their default, so the line does not depend on defaults that may change.

    Parameters
    ----------
    ctx : typer.Context
        The running command's context (its parameters, in declaration order).
    values : mapping
        Values to write instead of the given ones, e.g. the resolved rules slug or the game's
        default policies.
    always : sequence of str
        Parameter names written even at their default value.

    Returns
    -------
    str
        A shell-quoted line, e.g. ``cuarenta-sim simulate --rules quito --n 1000 ...``.
    """
    words = [PROG, *ctx.command_path.split()[1:]]
    for param in ctx.command.params:
        name = param.name
        value = values.get(name, ctx.params.get(name))
        if value is None or (name not in always and value == param.default):
            continue
        words += _words(param, value)
    return shlex.join(words)


# ---------------------------------------------------------------- printing
#: Width of everything printed on stdout (tables are fitted by :func:`.reports.text_table`).
WIDTH = 100


def echo(text: str = "") -> None:
    """Print ``text`` with every line wrapped at spaces to :data:`WIDTH` columns (continuation
    lines indented by two); a single word longer than that (a long path) is left whole."""
    import textwrap

    for line in text.split("\n"):
        if len(line) <= WIDTH:
            typer.echo(line)
            continue
        typer.echo(
            textwrap.fill(
                line,
                WIDTH,
                subsequent_indent="  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )


def echo_command(prefix: str, command: str) -> None:
    """Print a shell command after ``prefix``, split into lines ending in `` \\`` (still one
    command when pasted into a shell) so that no line is wider than :data:`WIDTH`."""
    words = shlex.split(command)
    lines, current = [], prefix + shlex.quote(words[0])
    for word in words[1:]:
        quoted = shlex.quote(word)
        if len(current) + 1 + len(quoted) + 2 > WIDTH:
            lines.append(current + " \\")
            current = "    " + quoted
        else:
            current += " " + quoted
    typer.echo("\n".join([*lines, current]))


def format_rate(per_second: float) -> str:
    """Human-readable rate: ``1234567.0`` -> ``"1.23M"``."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= limit:
            return f"{per_second / limit:.3g}{suffix}"
    return f"{per_second:.3g}"


#: A comma followed by a non-space: where :func:`provenance_headline` adds a space.
_SPACED_COMMA = re.compile(r",(?=\S)")


def provenance_headline(provenance: Mapping[str, Any], keys: Sequence[str]) -> str:
    """``"key=value"`` pairs of the ``keys`` present in ``provenance``, joined by ``", "``.

    List items and the parameters inside a value (a policy's ``heuristic(cards=350,...)``) are
    separated by ``", "``, so that :func:`echo` can wrap the line at :data:`WIDTH` columns
    (a canonical policy spec alone runs to 150 characters)."""
    parts = []
    for key in keys:
        if key in provenance:
            value = provenance[key]
            if isinstance(value, list | tuple):
                value = ",".join(str(v) for v in value)
            parts.append(f"{key}={_SPACED_COMMA.sub(', ', str(value))}")
    return ", ".join(parts)


def warn(message: str) -> None:
    """Print ``cuarenta-sim: warning: MESSAGE`` (one line) on stderr."""
    sys.stderr.write(f"{PROG}: warning: {' '.join(str(message).split())}\n")
    sys.stderr.flush()


def step_progress(
    total: int | None,
    unit: str,
    enabled: bool,
    desc: str,
    weights: Sequence[float] | None = None,
) -> tuple[Callable[[str], None] | None, Callable[[], None]]:
    """Progress of a run the library reports as one message per step (a study, a tournament).

    A :class:`cuarenta_sim.progress.StepProgress` on stderr: a plain line per step (number, of
    ``total`` when known), then at least every 10 seconds while the step runs, with the share
    done of the simulation running in it (its chunks report through
    :func:`cuarenta_sim.progress.notify_work`), the elapsed time and the estimated time left;
    whole lines without control characters, on a terminal or not.

    Parameters
    ----------
    total : int or None
        Steps, when known.
    unit : str
        What a step is (``"matches"``, ``"steps"``); kept for the callers, not printed.
    enabled : bool
        False: no output.
    desc : str
        Prefix of the lines.
    weights : sequence of float or None
        Estimated relative cost of each step (``total`` of them): the lines then give the
        share of the estimated work done and the time left from it.

    Returns
    -------
    (callable or None, callable)
        ``say(message)`` to hand to the library (None when disabled) and ``close()``.
    """
    if not enabled:
        return None, lambda: None
    from ..progress import StepProgress, listening

    steps = StepProgress(desc, total, heartbeat=True, weights=weights)
    stack = contextlib.ExitStack()
    stack.enter_context(listening(steps.notify))
    stack.callback(steps.close)
    return steps, stack.close


# ---------------------------------------------------------------- interrupts
#: What an interrupt left, said by the command that knows it (printed by ``app.main``).
INTERRUPT_NOTE: list[str] = []


def note_interrupt(message: str) -> None:
    """Set the one line :func:`cuarenta_sim.cli.app.main` prints after an interrupt of the
    current command (e.g. ``scenario``: how many result lines were printed, all whole)."""
    INTERRUPT_NOTE[:] = [message]
