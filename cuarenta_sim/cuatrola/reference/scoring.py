"""Cantes (C4) and the scoring of a hand (C5)."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import CABALLO, REY, card_of
from ..contracts import CUATROLA, NONE, QUINTOLA, SOLO, VALUES
from ..rules import CuatrolaRules
from .tricks import LAST_TRICK, trick_points, trick_winner

#: Cante values: 20 in a plain suit, 40 in trumps (C4.1).
CANTE_PLAIN = 20
CANTE_TRUMP = 40


def cante_allowed(contract: int) -> bool:
    """Cantes are made with no contract and in a solo, not in a cuatrola or quintola (C4.3)."""
    return contract in (NONE, SOLO)


def choose_cante(
    hands: Sequence[set[int]],
    winner: int,
    partner_plays: bool,
    trump: int,
    sung_suits: set[int],
) -> tuple[int, int, int] | None:
    """Return the cante made after ``winner`` wins a trick, as ``(singer, suit, value)``.

    The winner's pair sings at most once (C4.3): the 40 before a 20, then the winner before
    its partner (only when the partner plays), then suits in the order o c e b; a suit already
    sung this hand is skipped. ``None`` when nobody of the pair holds an unsung R and C.
    """
    singers = [winner, (winner + 2) % 4] if partner_plays else [winner]
    for value in (CANTE_TRUMP, CANTE_PLAIN):
        for singer in singers:
            for suit in range(4):
                if (suit == trump) != (value == CANTE_TRUMP) or suit in sung_suits:
                    continue
                if card_of(suit, REY) in hands[singer] and card_of(suit, CABALLO) in hands[singer]:
                    return singer, suit, value
    return None


def finish_trick(
    trick: Sequence[int],
    seats: Sequence[int],
    trump: int,
    trick_no: int,
    contract: int,
    hands: Sequence[set[int]],
    plays: Sequence[bool],
    sung_suits: set[int],
) -> tuple[int, int, tuple[int, int, int] | None]:
    """Close a complete trick: its winner (C3.5), its points with the last trick's 10 (C1.3)
    and the cante the winner's pair makes then, if any (C4; none under a cuatrola or
    quintola).

    Parameters
    ----------
    trick, seats : sequence of int
        The cards of the trick and their seats, in playing order.
    trump : int
        Trump suit.
    trick_no : int
        The trick's number in the hand, 0..4.
    contract : int
        The hand's contract.
    hands : sequence of 4 sets of int
        The cards every seat holds after the trick.
    plays : sequence of 4 bool
        Which seats play the hand (C2.2).
    sung_suits : set of int
        Suits already sung this hand (not changed).

    Returns
    -------
    (int, int, tuple or None)
        The winning seat, the trick's points and :func:`choose_cante`'s ``(singer, suit,
        value)`` or ``None``.
    """
    winner = seats[trick_winner(trick, trump)]
    value = trick_points(trick) + (LAST_TRICK if trick_no == 4 else 0)
    cante = None
    if cante_allowed(contract):
        cante = choose_cante(hands, winner, plays[(winner + 2) % 4], trump, sung_suits)
    return winner, value, cante


def score_hand(
    rules: CuatrolaRules,
    contract: int,
    declarer: int,
    mano: int,
    tricks: Sequence[int],
    points: Sequence[int],
) -> tuple[list[int], int]:
    """Return the game points of a hand per pair and whether the contract was made.

    Parameters
    ----------
    rules : CuatrolaRules
        ``failed_contract`` (C5.5).
    contract : int
        0 none, 1 solo, 2 cuatrola, 3 quintola.
    declarer : int
        Declaring seat (ignored with no contract).
    mano : int
        The seat after the dealer: its pair wins ties (C5.2, C5.3).
    tricks : sequence of 2 ints
        Tricks taken per pair.
    points : sequence of 2 ints
        Points per pair: card points, the last trick's 10 and cantes (C5.1).

    Returns
    -------
    (list of 2 ints, int)
        Game points per pair, and ``made``: 1 made, 0 failed, -1 no contract.
    """
    gp = [0, 0]
    mano_pair = mano % 2
    if contract == NONE:
        if points[0] == points[1]:
            gp[mano_pair] = 1
        else:
            gp[0 if points[0] > points[1] else 1] = 1
        return gp, -1
    side = declarer % 2
    if contract == SOLO:
        made = points[side] > points[1 - side] or (
            points[side] == points[1 - side] and mano_pair == side
        )
    elif contract == CUATROLA:
        made = tricks[side] >= 4
    else:
        assert contract == QUINTOLA
        made = tricks[side] == 5
    if made:
        gp[side] = VALUES[contract]
    elif rules.failed_contract == "to_opponents":
        gp[1 - side] = VALUES[contract]
    return gp, int(made)
