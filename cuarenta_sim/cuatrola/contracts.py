"""Contracts, their values and who may declare them (``docs/cuatrola.md`` C2, C5).

Contract codes (also the ``contract`` column of the records): ``0`` no contract (everybody
passed; as a declaration, ``pass``), ``1`` solo, ``2`` cuatrola, ``3`` quintola.
"""

from __future__ import annotations

from .rules import CuatrolaRules

NONE = 0
PASS = 0
SOLO = 1
CUATROLA = 2
QUINTOLA = 3
#: Declaration names by code (a declaration of 0 is a pass).
DECLARATIONS = ("pass", "solo", "cuatrola", "quintola")
#: Contract names by code (code 0: nobody declared).
CONTRACTS = ("none", "solo", "cuatrola", "quintola")
#: Game points of a contract (C2.3); a hand without contract is worth 1 (C5.2).
VALUES = (1, 2, 4, 5)


def parse_contract(value: object, what: str = "contract") -> int:
    """Parse a contract or declaration name (``none``/``pass``, ``solo``, ``cuatrola``,
    ``quintola``, any case) into its code.

    Raises
    ------
    ValueError
        Unknown name; the message lists the accepted ones.
    """
    if isinstance(value, str):
        v = value.strip().lower()
        if v in ("none", "pass"):
            return NONE
        if v in DECLARATIONS:
            return DECLARATIONS.index(v)
    raise ValueError(
        f"{what} must be one of none (or pass), solo, cuatrola, quintola; got {value!r}"
    )


def may_declare(contract: int, pair_score: int, rules: CuatrolaRules) -> bool:
    """Whether a pair at ``pair_score`` may declare ``contract`` (1..3): "exactly 11" (C2.3),
    its score plus the contract's value is at most the target."""
    return pair_score + VALUES[contract] <= rules.target


def legal_declarations(
    pair_score: int, highest: int, closed: bool, rules: CuatrolaRules
) -> list[int]:
    """Return the declarations open to a seat, ascending (``0`` pass first).

    Parameters
    ----------
    pair_score : int
        Game points of the seat's pair before the hand.
    highest : int
        Highest declaration so far in this hand (0 if all passed).
    closed : bool
        The bidding is over (``first_closes`` after a declaration): only ``pass``.
    rules : CuatrolaRules
        The ``target`` and ``bidding`` switches (C2.1, C2.3).

    Returns
    -------
    list of int
        ``[0]`` plus every contract above ``highest`` the pair may declare.
    """
    if closed:
        return [PASS]
    return [PASS] + [
        c for c in (SOLO, CUATROLA, QUINTOLA) if c > highest and may_declare(c, pair_score, rules)
    ]
