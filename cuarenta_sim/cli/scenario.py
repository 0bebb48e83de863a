"""``cuarenta-sim scenario FILE``: evaluate JSON scenarios of either game, one line each,
streamed: each result is printed (and flushed) as soon as its input line is read."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from typing import Annotated, Any, TextIO

import typer

from .options import GameOpt
from .output import note_interrupt


def scenario(
    file: Annotated[
        str, typer.Argument(help="JSON file (one object, or JSON lines); '-' reads stdin.")
    ],
    game: GameOpt = "cuarenta",
) -> None:
    """Evaluate the scenarios of a file or stdin and print one result line each, streaming.

    Each JSON line is read, evaluated (:func:`cuarenta_sim.scenario.iter_results`) and its
    result printed and flushed before the next line is read, so a pipe gets its first result
    before its input ends; a single JSON object (possibly spread over lines) gives one line.
    On a terminal, stderr shows a tqdm bar (the file's bytes read, or a count for stdin);
    elsewhere nothing. An interrupt (Ctrl-C, SIGTERM) keeps every line already printed, whole
    (both signals are held while a line is written), and exits 130 (143) with one line
    saying how many results were printed.

    Parameters
    ----------
    file : str
        Path of a file holding one JSON object or JSON lines, or ``"-"`` for stdin.
    game : str
        Game of the scenarios without a ``game`` field.

    Raises
    ------
    ValueError
        An unknown game; input that cannot be read or decoded; or, after printing every
        result, any result that is an error (the message counts them and quotes the first).
    """
    from ..game import GAMES
    from ..scenario import iter_results, result_line

    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; accepted: {', '.join(GAMES)}")
    source = "stdin" if file == "-" else repr(file)
    try:
        stream = sys.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115
        size = None if file == "-" else os.fstat(stream.fileno()).st_size
    except OSError as err:
        raise ValueError(
            f"cannot read scenario file {source}: {err.strerror or err}; give a readable JSON "
            f"file or '-' for stdin"
        ) from err
    bar = _progress(size)
    printed, errors, first = 0, 0, ""
    try:
        for result in iter_results(_lines(stream, source, bar), game):
            _write_line(result_line(result))
            printed += 1
            if "error" in result:
                errors += 1
                first = first or f"; first, output line {printed}: {result['error']}"
    except KeyboardInterrupt:
        note_interrupt(
            f"interrupted after {printed:,} result line(s); every line printed is whole, the "
            f"scenarios after them were not evaluated"
        )
        raise
    finally:
        if bar is not None:
            bar.close()
        if stream is not sys.stdin:
            stream.close()
    if errors:
        raise ValueError(f"{errors} of {printed} scenarios are invalid{first}")


def _lines(stream: TextIO, source: str, bar: Any) -> Iterator[str]:
    """The lines of ``stream``, counted on the progress bar; a decoding error as ValueError."""
    number = 0
    try:
        for number, line in enumerate(stream, start=1):  # noqa: B007
            if bar is not None:
                bar.update(len(line.encode("utf-8")) if bar.total else 1)
            yield line
    except UnicodeDecodeError as err:
        raise ValueError(
            f"scenario input {source} is not UTF-8 text (at line {number + 1}); expected one "
            f"JSON object or JSON lines"
        ) from err


def _progress(size: int | None) -> Any:
    """A tqdm bar on stderr when stderr is a terminal (bytes of a file, lines of stdin)."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    if size:
        return tqdm(total=size, unit="B", unit_scale=True, desc="scenario", file=sys.stderr)
    return tqdm(total=None, unit=" lines", desc="scenario", file=sys.stderr)


#: Signals held while a result line is written (both end the command, see cli/app.py).
_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


def _write_line(line: str) -> None:
    """Print ``line`` and flush, with SIGINT and SIGTERM held meanwhile (delivered right
    after) so that no line is cut short."""
    blocked = _block()
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _block() -> bool:
    """Block :data:`_HELD` in this thread where the platform allows it."""
    if not hasattr(signal, "pthread_sigmask"):
        return False
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except (OSError, ValueError):
        return False
    return True


COMMANDS = [
    (
        "scenario",
        scenario,
        "Evaluate scenarios (docs/cuarenta.md section F, docs/cuatrola.md) from a JSON file or "
        "'-' (stdin): one JSON output line per scenario; exit status 2 if any is an error. "
        "--game sets the game of scenarios without a 'game' field.",
    )
]
