"""The scenario interface of both games: one JSON step in, its result out.

A scenario names its game in the optional field ``game``: ``"cuarenta"`` (the default;
``docs/cuarenta.md`` section F, judged by :mod:`cuarenta_sim.cuarenta.scenario`) or
``"cuatrola"`` (``docs/cuatrola.md``, judged by :mod:`cuarenta_sim.cuatrola.scenario`); the
judge is the registered game's ``evaluate`` (:mod:`cuarenta_sim.game`).
:func:`evaluate` dispatches one scenario, :func:`evaluate_lines` the text of a file (one JSON
object, or JSON lines). Malformed input never raises: the result is
``{"error": "<what was wrong and what is accepted>"}``.
"""

from __future__ import annotations

import json
from typing import Any

from .game import DEFAULT_GAME, GAMES


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
        ``trick``, ``bids``, ``hand``).

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
        skipped); a leading byte-order mark (U+FEFF) is ignored.
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
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; accepted: {', '.join(GAMES)}")
    text = text.removeprefix("\ufeff")  # a UTF-8 byte-order mark (Windows editors write one)
    try:
        objects: list[object] = [json.loads(text)]
    except _PARSE_ERRORS as whole:
        objects = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                objects.append(json.loads(line))
            except _PARSE_ERRORS as exc:
                if not objects:
                    # Not JSON lines either (the first line is already broken): one error
                    # that points at the real problem of the single object.
                    return [json.dumps({"error": _parse_message(whole, "the input")})], True
                objects.append(_BadJson(_parse_message(exc, f"line {number}")))
    if not objects:
        return [json.dumps({"error": "no scenario in the input: give a JSON object"})], True
    results = [
        {"error": o.message} if isinstance(o, _BadJson) else evaluate(_default_game(o, game))
        for o in objects
    ]
    lines = [json.dumps(r, ensure_ascii=False) for r in results]
    return lines, any("error" in r for r in results)


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


class _BadJson:
    """Placeholder for an input line that is not JSON (its result is an error)."""

    def __init__(self, message: str) -> None:
        self.message = message
