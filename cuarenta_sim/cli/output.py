"""What the commands share for output: location checks, the reproduce line, printing.

Every output location (``--out``, ``--report``, ``--dataset``) is checked by
:func:`check_file` or :func:`check_directory` before the first simulation -- by creating and
removing a probe file where the output will go, so an unwritable place (``/proc``, a read-only
mount, a path under a file) fails in seconds with one line naming the path, not after the run.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
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
    total: int | None, unit: str, enabled: bool, desc: str
) -> tuple[Callable[[str], None] | None, Callable[[], None]]:
    """Progress of a run the library reports as one message per step (a study, a tournament).

    On a terminal a bar counts the steps (:func:`cuarenta_sim.progress.progress_bar`; a tqdm
    counter when ``total`` is unknown); otherwise each message is printed as a plain line.

    Returns
    -------
    (callable or None, callable)
        ``say(message)`` to hand to the library (None when disabled) and ``close()``.
    """
    if not enabled:
        return None, lambda: None
    if not sys.stderr.isatty():
        done = [0]

        def line(message: str) -> None:
            done[0] += 1
            count = f"{done[0]}/{total}" if total else f"{done[0]}"
            sys.stderr.write(f"{desc}: [{count}] {message}\n")
            sys.stderr.flush()

        return line, lambda: None
    if total is None:
        from tqdm import tqdm

        bar: Any = tqdm(total=None, unit=f" {unit}", desc=desc, file=sys.stderr)
    else:
        from ..progress import progress_bar

        bar = progress_bar(total, unit, True, desc)

    def say(message: str) -> None:
        bar.update(1)

    return say, bar.close
