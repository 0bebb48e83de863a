"""Per-game command-line options: each game's extra options (``Game.options``) become options
of ``simulate`` and ``replay`` without the command line naming any game's option itself."""

from __future__ import annotations

from typing import Annotated, Any

from .options import _opt


def with_game_options(function: Any) -> Any:
    """Give ``function`` (whose last parameter is ``**options``) one command-line option per
    extra option of the registered games (``Game.options``, e.g. Cuatrola's
    ``--bid-policies``), so the command line declares no game's option itself.

    The options are keyword-only, default None (the game's default), and reach ``function``
    in ``**options``; :func:`game_options` keeps those given and refuses those the chosen game
    does not take.
    """
    import inspect

    from ..game import GAMES

    signature = inspect.signature(function, eval_str=True)
    params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    seen: dict[str, list[str]] = {}
    for game in GAMES.values():
        for option in game.options.values():
            seen.setdefault(option.name, []).append(game.title)
            if len(seen[option.name]) > 1:
                continue
            help_text = f"{game.title} only: {option.help} Default {option.default}."
            annotation = Annotated[str | None, _opt(option.flag, help_text)]
            params.append(
                inspect.Parameter(
                    option.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
                )
            )
    function.__signature__ = signature.replace(parameters=params)
    return function


def game_options(game: Any, given: dict[str, Any]) -> dict[str, Any]:
    """The extra options given on the command line (not None) for ``game``, each split as a
    comma-separated spec list (:func:`split_list`).

    Raises
    ------
    ValueError
        An option of another game, e.g. ``--bid-policies`` with ``--game cuarenta``.
    """
    from ..game import GAMES

    options = {name: split_list(value) for name, value in given.items() if value is not None}
    for name in options:
        if name not in game.options:
            flag = next(g.options[name].flag for g in GAMES.values() if name in g.options)
            owners = ", ".join(g.name for g in GAMES.values() if name in g.options)
            raise ValueError(f"{flag} does not apply to --game {game.name}; it is for: {owners}")
    return options


def split_list(text: str | None) -> tuple[str, ...] | None:
    """A comma-separated ``--policies``-style value as a tuple of specs (commas inside
    parentheses kept, :func:`cuarenta_sim.switches.split_specs`); None stays None."""
    from ..switches import split_specs

    return None if text is None else tuple(split_specs(text, label="policy list"))
