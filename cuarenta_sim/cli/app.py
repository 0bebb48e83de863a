"""The Typer application, the entry point :func:`main`, exit statuses and signals.

Exit status: 0 on success; 1 when the output cannot be written (standard output closed: one
line on stderr; a broken pipe, e.g. ``| head -0``: quietly, as click does); 2 on bad input --
the library validates and raises ``ValueError`` (unknown rules, policies, a malformed slug, an
unwritable output location...), which is printed as one line on stderr, never a traceback; 130
on Ctrl-C (SIGINT) and 143 on SIGTERM (128 + the signal number). A run's outputs commit as one
(:mod:`cuarenta_sim.outputs`): an interrupted or failed run leaves the earlier outputs or
nothing, and its last line says which.
"""

from __future__ import annotations

import io
import os
import signal
import sys
from typing import Annotated

import typer

from . import analyse, replay, report, rules, scenario, serve, simulate, tournament
from .options import PanelCommand
from .output import INTERRUPT_NOTE, PROG

EXIT_BAD_INPUT = 2
#: Standard output closed (``cmd >&-``) or a broken pipe (``cmd | head -0``): the output cannot
#: be written. A broken pipe exits quietly (click's handling of EPIPE, no traceback).
EXIT_OUTPUT = 1
EXIT_SIGINT = 128 + signal.SIGINT
EXIT_SIGTERM = 128 + signal.SIGTERM

# Typer >= 0.20 vendors its own copy of click; its exception classes are reached through the
# public ``typer.BadParameter``, whichever click implementation is underneath.
_CLICK_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)
_USAGE_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError"
)

app = typer.Typer(
    name=PROG,
    help="Monte Carlo simulation of the card games Cuarenta and Cuatrola (rules: "
    "docs/cuarenta.md, docs/cuatrola.md). Every command takes --game.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Monte Carlo simulation of the card games Cuarenta and Cuatrola."""


for module in (simulate, scenario, replay, analyse, rules, report, tournament, serve):
    for name, function, text in module.COMMANDS:
        app.command(name=name, help=text, cls=PanelCommand)(function)


#: Signals received during the current :func:`main` call (typer turns the KeyboardInterrupt
#: they raise into exit status 130 whatever the signal, so the handler records which it was).
_received: list[int] = []


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM handler: unwind like Ctrl-C, so atomic writers remove their temporary files."""
    _received.append(signum)
    raise KeyboardInterrupt


def _interrupted() -> int:
    """Report an interrupt; its exit status: 128 + the signal (143 SIGTERM, 130 SIGINT)."""
    from ..outputs import interrupted_summary

    # A command that streams (scenario) says what it printed; others name their outputs.
    _error(INTERRUPT_NOTE.pop() if INTERRUPT_NOTE else f"interrupted; {interrupted_summary()}")
    return EXIT_SIGTERM if signal.SIGTERM in _received else EXIT_SIGINT


def main(argv: list[str] | None = None) -> int:
    """Run the command line: the console script ``cuarenta-sim`` and ``python -m cuarenta_sim``.

    Parameters
    ----------
    argv : list of str, optional
        Arguments after the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        Exit status: 0 success, 1 output that cannot be written (standard output closed; a
        broken pipe exits 1 quietly through ``SystemExit``), 2 bad input (one line on stderr,
        no traceback), 130 after SIGINT, 143 after SIGTERM.
    """
    from ..outputs import reset_summary

    if _stdout_closed():
        # Nothing printed could be read: refuse before any run (coreutils' "write error").
        _error("cannot write the output: standard output is closed")
        return EXIT_OUTPUT
    command = typer.main.get_command(app)
    _received.clear()
    INTERRUPT_NOTE.clear()
    reset_summary()
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        code = command.main(args=argv, prog_name=PROG, standalone_mode=False)
    except _USAGE_ERROR as err:
        ctx = getattr(err, "ctx", None)
        where = ctx.command_path if ctx is not None else PROG
        hint = ""
        if ctx is not None and ctx.command is command:
            hint = f"; commands: {', '.join(command.commands)}"  # type: ignore[attr-defined]
        message = err.format_message().rstrip(".")  # type: ignore[attr-defined]
        _error(f"{message}{hint} (see '{where} --help')")
        return EXIT_BAD_INPUT
    except _CLICK_ERROR as err:
        _error(err.format_message())  # type: ignore[attr-defined]
        return int(err.exit_code)  # type: ignore[attr-defined]
    except (typer.Abort, KeyboardInterrupt):
        return _interrupted()
    except OSError as err:
        from ..outputs import interrupted_summary

        left = interrupted_summary("")
        _error(_describe_os_error(err) + (f"; {left}" if left else ""))
        return EXIT_BAD_INPUT
    except ValueError as err:
        _error(str(err))
        return EXIT_BAD_INPUT
    finally:
        signal.signal(signal.SIGTERM, previous)
    if code == EXIT_SIGINT:
        return _interrupted()
    return int(code or 0)


def _stdout_closed() -> bool:
    """True when standard output is closed: Python then sets ``sys.stdout`` to None, or its
    file descriptor is no longer open."""
    if sys.stdout is None:
        return True
    try:
        fd = sys.stdout.fileno()
    except io.UnsupportedOperation:
        return False  # no descriptor: a StringIO or a test's capture
    except ValueError:
        return True  # the file object was closed
    try:
        os.fstat(fd)
    except OSError:
        return True  # EBADF: the descriptor was closed
    return False


def _describe_os_error(err: OSError) -> str:
    if err.filename is not None and err.strerror:
        return f"{err.strerror}: {err.filename}"
    return str(err)


def _error(message: str) -> None:
    sys.stderr.write(f"{PROG}: error: {' '.join(str(message).split())}\n")
    sys.stderr.flush()
