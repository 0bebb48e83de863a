"""The scenario interface of both games: one JSON step in, its result out.

A scenario names its game in the optional field ``game``: ``"cuarenta"`` (the default;
``docs/cuarenta.md`` section F, judged by :mod:`cuarenta_sim.cuarenta.scenario`) or
``"cuatrola"`` (``docs/cuatrola.md``, judged by :mod:`cuarenta_sim.cuatrola.scenario`); the
judge is the registered game's ``evaluate`` (:mod:`cuarenta_sim.game`).
:func:`evaluate` dispatches one scenario, :func:`iter_results` a stream of lines lazily (one
JSON object, or JSON lines, each evaluated as soon as it is read) and :func:`evaluate_lines`
the whole text of a file. Malformed input never raises: the result is
``{"error": "<what was wrong and what is accepted>"}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .game import DEFAULT_GAME, GAMES

#: The fields of a scenario file (``tests/scenarios/*.json``); its ``scenario`` is judged.
FILE_FIELDS = ("name", "rule", "scenario", "expected", "note")


class ScenarioError(ValueError):
    """A malformed scenario of any game; the message says what was wrong and what is
    accepted (each game's judge raises it and returns ``{"error": message}``)."""


def check_fields(obj: dict[str, Any], accepted: Sequence[str], what: str) -> None:
    """Refuse fields of ``obj`` that are not in ``accepted``.

    Parameters
    ----------
    obj : dict
        A scenario object (or one of its nested objects).
    accepted : sequence of str
        The fields it may have.
    what : str
        What ``obj`` is, for the message (``"a play scenario"``).

    Raises
    ------
    ScenarioError
        Naming the unknown fields and listing the accepted ones.
    """
    unknown = [k for k in obj if k not in accepted]
    if unknown:
        raise ScenarioError(
            f"unknown field {', '.join(map(str, unknown))} in {what}; accepted: "
            f"{', '.join(accepted)}"
        )


def scenario_object(obj: object, kinds: Sequence[str]) -> dict[str, Any]:
    """Return the scenario a judge evaluates: ``obj`` itself, or the ``scenario`` of a
    scenario file object (:data:`FILE_FIELDS`).

    Parameters
    ----------
    obj : object
        What the judge was given.
    kinds : sequence of str
        The judge's kinds, named in the message.

    Returns
    -------
    dict
        The scenario object (its kind and fields are the judge's to check).

    Raises
    ------
    ScenarioError
        A file object with unknown fields, or a scenario that is not a JSON object.
    """
    if isinstance(obj, dict) and "scenario" in obj and "kind" not in obj:
        check_fields(obj, FILE_FIELDS, "a scenario file")
        obj = obj["scenario"]
    if not isinstance(obj, dict):
        raise ScenarioError(
            f"a scenario must be a JSON object with a kind ({', '.join(kinds)}), got "
            f"{type(obj).__name__}"
        )
    return obj


def evaluate(obj: object) -> dict[str, Any]:
    """Evaluate one scenario of any registered game and return its result.

    Parameters
    ----------
    obj : dict
        A scenario object, or a scenario file object (``{"name", "rule", "scenario",
        "expected", "note"}``) whose ``scenario`` is evaluated. Its optional ``game`` field
        (:data:`cuarenta_sim.game.GAMES`, default :data:`cuarenta_sim.game.DEFAULT_GAME`)
        picks the judge (``Game.evaluate``): for Cuarenta the fields of
        :func:`cuarenta_sim.cuarenta.scenario.evaluate` (kinds ``play``, ``deal``, ``end``),
        for Cuatrola those of :func:`cuarenta_sim.cuatrola.scenario.evaluate` (kinds
        ``trick``, ``bids``, ``hand``, ``solve``).

    Returns
    -------
    dict
        The judge's JSON-ready result; ``{"error": message}`` on malformed input or an unknown
        game (the message lists the accepted games). Never raises.
    """
    wrapped = isinstance(obj, dict) and "scenario" in obj and "kind" not in obj
    inner = obj["scenario"] if wrapped else obj  # type: ignore[index]
    name = inner.get("game", DEFAULT_GAME) if isinstance(inner, dict) else DEFAULT_GAME
    if not isinstance(name, str) or name not in GAMES:
        return {"error": f"game must be one of {', '.join(GAMES)}; got {name!r}"}
    return GAMES[name].evaluate(obj)


def evaluate_lines(text: str, game: str = "cuarenta") -> tuple[list[str], bool]:
    """Evaluate the text of a scenario file: one JSON object, or one JSON object per line.

    Parameters
    ----------
    text : str
        A single JSON object (possibly spread over lines), or JSON lines (blank lines are
        skipped).
    game : str
        Game of the scenarios that have no ``game`` field (``scenario --game``); one of
        :data:`GAMES`.

    Returns
    -------
    (list of str, bool)
        One compact JSON result per scenario (per non-blank input line for JSON lines), and
        whether any of them is an error (the command line then exits non-zero).

    Raises
    ------
    ValueError
        If ``game`` is not one of :data:`GAMES`.
    """
    results = list(iter_results(text.splitlines(keepends=True), game))
    return [result_line(r) for r in results], any("error" in r for r in results)


def iter_results(lines: Iterable[str], game: str = "cuarenta") -> Iterator[dict[str, Any]]:
    """Evaluate scenario input lazily, one result as soon as its line is read.

    JSON lines are read and evaluated one at a time, so a long or endless stream (a pipe)
    gives its first result before the input is finished. When the first non-blank line is
    not JSON by itself, the input is taken as one JSON object spread over lines: the rest is
    read and parsed as a whole (one result). A leading UTF-8 byte-order mark is ignored.

    Parameters
    ----------
    lines : iterable of str
        The input's lines (a text file object, ``sys.stdin``, or ``str.splitlines``), with or
        without their line ends.
    game : str
        Game of the scenarios without a ``game`` field; one of :data:`GAMES`.

    Yields
    ------
    dict
        The result of each scenario, as :func:`evaluate` (``{"error": ...}`` for a line
        that is not JSON, or ``"no scenario in the input"`` when there is none).

    Raises
    ------
    ValueError
        If ``game`` is not one of :data:`GAMES` (before reading anything).
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; accepted: {', '.join(GAMES)}")
    return _iter_results(iter(lines), game)


def _iter_results(lines: Iterator[str], game: str) -> Iterator[dict[str, Any]]:
    head: list[str] = []
    first: object = _MISSING
    for line in lines:
        if not head:
            line = line.removeprefix("\ufeff")
        head.append(line)
        if line.strip():
            try:
                first = json.loads(line)
            except _PARSE_ERRORS:
                first = _BROKEN
            break
    if first is _MISSING:
        yield {"error": "no scenario in the input: give a JSON object"}
        return
    if first is _BROKEN:
        # One object spread over lines, or not JSON at all: parse the whole input.
        text = "".join(head) + "".join(lines)
        try:
            whole = json.loads(text)
        except _PARSE_ERRORS as exc:
            yield {"error": _parse_message(exc, "the input")}
            return
        yield evaluate(_default_game(whole, game))
        return
    yield evaluate(_default_game(first, game))
    for number, line in enumerate(lines, start=len(head) + 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except _PARSE_ERRORS as exc:
            yield {"error": _parse_message(exc, f"line {number}")}
            continue
        yield evaluate(_default_game(obj, game))


def result_line(result: dict[str, Any]) -> str:
    """A result as one compact JSON line (no line end; non-ASCII kept)."""
    return json.dumps(result, ensure_ascii=False)


def _default_game(obj: object, game: str) -> object:
    """``obj`` with ``game`` as its game when it names none (the default of ``--game``)."""
    wrapped = isinstance(obj, dict) and "scenario" in obj and "kind" not in obj
    inner = obj["scenario"] if wrapped else obj  # type: ignore[index]
    if not isinstance(inner, dict) or "game" in inner:
        return obj
    inner = {"game": game, **inner}
    return {**obj, "scenario": inner} if wrapped else inner  # type: ignore[dict-item]


#: json.loads fails with JSONDecodeError on bad syntax, RecursionError on absurd nesting and
#: ValueError on integers longer than Python's digit limit.
_PARSE_ERRORS = (ValueError, RecursionError)


def _parse_message(exc: BaseException, where: str) -> str:
    """One-line description of a JSON parse failure (what was wrong, what is accepted)."""
    if isinstance(exc, json.JSONDecodeError):
        what = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    elif isinstance(exc, RecursionError):
        what = "nested too deeply"
    else:
        what = str(exc).split(";")[0]
    return f"{where} is not valid JSON ({what}); give one JSON object or one object per line"


#: Markers of :func:`_iter_results`: no non-blank line yet; a first line that is not JSON.
_MISSING = object()
_BROKEN = object()
