"""``presets``, ``rules SLUG`` and ``policies``: a game's rule sets and players, as tables.

Everything shown comes from the :class:`cuarenta_sim.game.Game` of ``--game`` (its presets,
switch rows and policy table); these commands never load the numba kernels.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .options import GameOpt
from .output import echo


def presets(game: GameOpt = "cuarenta") -> None:
    """Print a table of the game's presets: one row per switch, one column per preset.

    Raises
    ------
    ValueError
        An unknown game.
    """
    from ..game import get_game
    from ..reports import text_table

    spec = get_game(game)
    header, rows = spec.presets_rows()
    example = spec.resolve_rules(spec.default_rules).slug()
    echo(
        f"{spec.title} presets ({spec.spec_doc}); a slug changes switches, e.g. "
        f"'{example}(switch=value)'\n"
    )
    typer.echo(text_table(header, rows))


def rules_command(
    slug: Annotated[str, typer.Argument(help="Preset name or slug, e.g. 'cuenca(at_38=none)'.")],
    game: GameOpt = "cuarenta",
) -> None:
    """Print the canonical slug and a table of every switch of ``slug``.

    Parameters
    ----------
    slug : str
        Preset name or slug such as ``"quito(max_sum_cards=2)"``.
    game : str
        The game whose rules ``slug`` names.

    Raises
    ------
    ValueError
        An unknown game; a malformed slug, an unknown preset or switch, a switch given twice,
        or a bad value (the game's ``resolve_rules``).
    """
    from ..game import get_game
    from ..reports import text_table

    spec = get_game(game)
    rule_set = spec.resolve_rules(slug)
    typer.echo(f"slug: {rule_set.slug()}\n")
    typer.echo(text_table(["switch", "value", "base preset"], spec.rules_rows(rule_set)))


def policies_command(game: GameOpt = "cuarenta") -> None:
    """Print the game's policies: name, stochastic or not, parameters with their defaults,
    description (``Game.policy_table``).

    Raises
    ------
    ValueError
        An unknown game.
    """
    from ..game import get_game
    from ..reports import text_table

    spec = get_game(game)
    header, rows = spec.policy_table()
    echo(
        f"{spec.title} policies (--policies; parameters as name(param=value,...); default "
        f"{spec.default_policies}):\n"
    )
    typer.echo(text_table(header, rows))
    for option in spec.options.values():
        echo(f"\n{option.flag}: {option.help} Default {option.default}.")


COMMANDS = [
    (
        "presets",
        presets,
        "List a game's presets and every switch (docs/cuarenta.md section S, docs/cuatrola.md).",
    ),
    (
        "rules",
        rules_command,
        "Validate a rules slug and print its canonical form and every switch.",
    ),
    (
        "policies",
        policies_command,
        "List a game's playing policies and their parameters.",
    ),
]
