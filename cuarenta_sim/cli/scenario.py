"""``cuarenta-sim scenario FILE``: evaluate JSON scenarios of either game, one line each."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .options import GameOpt


def scenario(
    file: Annotated[
        str, typer.Argument(help="JSON file (one object, or JSON lines); '-' reads stdin.")
    ],
    game: GameOpt = "cuarenta",
) -> None:
    """Print :func:`cuarenta_sim.scenario.evaluate_lines` of a file or stdin, line by line.

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
    from ..scenario import evaluate_lines

    source = "stdin" if file == "-" else repr(file)
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(
            f"cannot read scenario file {source}: {err.strerror or err}; give a readable JSON "
            f"file or '-' for stdin"
        ) from err
    except UnicodeDecodeError as err:
        raise ValueError(
            f"scenario input {source} is not UTF-8 text (byte {err.start}); expected one JSON "
            f"object or JSON lines"
        ) from err
    lines, any_error = evaluate_lines(text, game)
    for line in lines:
        typer.echo(line)
    if any_error:
        errors = [
            (i, obj["error"])
            for i, obj in enumerate((json.loads(line) for line in lines), start=1)
            if isinstance(obj, dict) and "error" in obj
        ]
        first = f"; first, output line {errors[0][0]}: {errors[0][1]}" if errors else ""
        raise ValueError(f"{len(errors)} of {len(lines)} scenarios are invalid{first}")


COMMANDS = [
    (
        "scenario",
        scenario,
        "Evaluate scenarios (docs/cuarenta.md section F, docs/cuatrola.md) from a JSON file or "
        "'-' (stdin): one JSON output line per scenario; exit status 2 if any is an error. "
        "--game sets the game of scenarios without a 'game' field.",
    )
]
