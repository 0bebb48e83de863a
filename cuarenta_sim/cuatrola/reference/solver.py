"""Readable brute force of a Cuatrola hand with every hand known (issue 22 item 1).

The exact perfect-information value of the play of a hand, after bidding, by enumerating
**every** line of play to the end of the hand with the reference engine's own rule functions:
:func:`~cuarenta_sim.cuatrola.reference.tricks.legal_plays` (C3.3),
:func:`~cuarenta_sim.cuatrola.reference.scoring.finish_trick` (winner C3.5, card points and the
last trick's 10 C1.3, the cante C4) and
:func:`~cuarenta_sim.cuatrola.reference.tricks.seating` (who plays, C2.2). No pruning, no
table: it is the twin the numba solver (:mod:`cuarenta_sim.cuatrola.engine.solver`) is checked
against, so it is only fast late in a hand.

**Value convention.** The value of a position is measured in the game's card points (C1.3,
C5.1): the points the pair of the seat to move takes from this position to the end of the hand
(card points of the tricks it wins, the cards already in the current trick included, +10 for
the fifth trick, + its cantes) **minus** the points the other side takes, every seat then
playing perfectly to maximise its own side's difference (a declarer plays alone against the
two defenders; the declarer's partner sits out, C2.2). Points won before the position are not
counted. Cantes are made as the built-in behaviour makes them (``docs/cuatrola_contract.md``
section 5: always, the 40 first, then the winner, then suit order), only without contract and
in a solo (C4.3). In a cuatrola or quintola the value is still the card-point difference (the
contract itself is decided by tricks, C5.4; this solver does not optimise tricks).

:func:`random_position` draws positions from real play (seeded random bids and cards through
:class:`~cuarenta_sim.cuatrola.reference.step.CuatrolaGame`), late enough in the hand for the
brute force to be fast.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import N_CARDS, format_card, format_cards
from ..contracts import CONTRACTS, NONE
from ..rules import resolve_rules
from .scoring import finish_trick
from .step import BID0, CuatrolaGame
from .tricks import legal_plays, seating

PLAYERS = 4
#: Tricks in a hand (C1.4: 5 cards each).
TRICKS = 5


@dataclass(frozen=True)
class SolvePosition:
    """A position of the play of a Cuatrola hand with every hand known.

    Attributes
    ----------
    trump : int
        Trump suit 0..3 (o c e b).
    contract : int
        0 none, 1 solo, 2 cuatrola, 3 quintola.
    declarer : int
        Declaring seat, ``-1`` without contract; its partner sits out (C2.2).
    hands : tuple of 4 frozensets of int
        Card ids each seat holds now; the seat sitting out holds none (its cards are dead).
    trick, trick_seats : tuple of int
        Cards of the current trick in playing order and their seats (empty at a trick's start).
    seat : int
        The seat to move; it plays in this trick, so it holds ``5 - trick_no`` cards.
    sung : frozenset of int
        Suits sung earlier in the hand (C4.3: each at most once).
    """

    trump: int
    contract: int
    declarer: int
    hands: tuple[frozenset[int], ...]
    trick: tuple[int, ...]
    trick_seats: tuple[int, ...]
    seat: int
    sung: frozenset[int]

    @property
    def plays(self) -> list[bool]:
        """Per seat whether it plays the hand (C2.2)."""
        return seating(self.contract, self.declarer, 0, "next_active")[0]

    @property
    def sits_out(self) -> int:
        """The seat sitting out (the declarer's partner), ``-1`` without contract."""
        return -1 if self.contract == NONE else (self.declarer + 2) % PLAYERS

    @property
    def trick_no(self) -> int:
        """The number of the current trick, 0..4 (the seat to move has not played to it)."""
        return TRICKS - len(self.hands[self.seat])

    @property
    def legal(self) -> list[int]:
        """Legal cards of the seat to move, canonical order (C3.3)."""
        return legal_plays(self.hands[self.seat], list(self.trick), self.trump)

    def describe(self) -> str:
        """One line: contract, trump, trick and every hand (for test failures)."""
        hands = " ".join(
            f"p{s}:{''.join(format_cards(h)) or '-'}" for s, h in enumerate(self.hands)
        )
        trick = "".join(format_card(c) for c in self.trick) or "-"
        return (
            f"{CONTRACTS[self.contract]} by {self.declarer} trump {'oceb'[self.trump]} "
            f"seat {self.seat} trick {trick} {hands} sung {sorted(self.sung)}"
        )


@dataclass(frozen=True)
class Step:
    """What one play did: the trick's winner (``-1`` while the trick is open), its points
    (+10 on the fifth), the cante ``(singer, suit, value)`` or ``None``, and the next position
    (``None`` after the fifth trick)."""

    winner: int
    points: int
    cante: tuple[int, int, int] | None
    after: SolvePosition | None


def next_seat(p: SolvePosition, seat: int) -> int:
    """The next playing seat after ``seat`` round the table (C3.1, C2.2)."""
    s = (seat + 1) % PLAYERS
    while s == p.sits_out:
        s = (s + 1) % PLAYERS
    return s


def play(p: SolvePosition, card: int) -> Step:
    """Play ``card`` (legal, C3.3) for the seat to move; close the trick when it is complete.

    Raises
    ------
    ValueError
        ``card`` is not a legal play of the seat to move.
    """
    if card not in p.legal:
        raise ValueError(
            f"{format_card(card)} is not legal for seat {p.seat}: legal "
            f"{', '.join(format_cards(p.legal))} (C3.3)"
        )
    hands = [set(h) for h in p.hands]
    hands[p.seat].remove(card)
    trick = (*p.trick, card)
    seats = (*p.trick_seats, p.seat)
    if len(trick) < sum(p.plays):
        after = SolvePosition(
            p.trump, p.contract, p.declarer, tuple(frozenset(h) for h in hands),
            trick, seats, next_seat(p, p.seat), p.sung,
        )  # fmt: skip
        return Step(-1, 0, None, after)
    winner, points, cante = finish_trick(
        trick, seats, p.trump, p.trick_no, p.contract, hands, p.plays, set(p.sung)
    )
    if p.trick_no == TRICKS - 1:
        return Step(winner, points, cante, None)
    sung = p.sung | {cante[1]} if cante is not None else p.sung
    after = SolvePosition(
        p.trump, p.contract, p.declarer, tuple(frozenset(h) for h in hands), (), (), winner, sung
    )
    return Step(winner, points, cante, after)


def gain(step: Step, pair: int) -> int:
    """Points ``pair`` gains minus what the other pair gains in ``step`` (trick and cante)."""
    if step.winner < 0:
        return 0
    total = step.points + (step.cante[2] if step.cante is not None else 0)
    # The singer is the winner or its partner: the cante goes to the winner's pair (C4.2).
    return total if step.winner % 2 == pair else -total


def value_of_play(p: SolvePosition, card: int) -> int:
    """The value (module docstring) for the seat to move's pair of playing ``card``."""
    pair = p.seat % 2
    step = play(p, card)
    v = gain(step, pair)
    if step.after is not None:
        rest = brute_value(step.after)
        v += rest if step.after.seat % 2 == pair else -rest
    return v


def brute_value(p: SolvePosition) -> int:
    """The exact value of ``p`` (module docstring) by enumerating every line of play."""
    return max(value_of_play(p, card) for card in p.legal)


def brute_values(p: SolvePosition) -> list[tuple[int, int]]:
    """``(card, value)`` for every legal card of the seat to move, canonical order."""
    return [(card, value_of_play(p, card)) for card in p.legal]


def position_of_game(g: CuatrolaGame) -> SolvePosition:
    """The position of a :class:`CuatrolaGame` at a play decision (the sitting-out seat's dead
    cards dropped).

    Raises
    ------
    ValueError
        The game is not at a card play (bidding, chance or over).
    """
    if g.current < 0 or g.bidding:
        raise ValueError("the game is not at a card play (bidding, chance or over)")
    out = -1 if g.contract == NONE else (g.declarer + 2) % PLAYERS
    hands = tuple(frozenset() if s == out else frozenset(g.hands[s]) for s in range(PLAYERS))
    return SolvePosition(
        g.trump, g.contract, g.declarer, hands, tuple(g.trick), tuple(g.trick_seats),
        g.current, frozenset(g.sung),
    )  # fmt: skip


def random_game(
    preset: str, seed: int, index: int, max_remaining: int = 9, min_remaining: int = 1
) -> CuatrolaGame:
    """A hand of seeded random play stopped at a card play: at an even ``index`` every seat
    passes (all four play, C2.4), at an odd one random bids (any open declaration, so every
    contract occurs; almost always one, three players), then random legal cards, stopped with
    between ``min_remaining`` and ``max_remaining`` plays left in the hand (the next one
    included).

    Parameters
    ----------
    preset : str
        Cuatrola rules preset (``ro``, ``online``).
    seed, index : int
        The deal is hand ``index`` of root ``seed`` (dealer ``index % 4``, episode ``hand``);
        the choices draw from ``random.Random`` seeded by both.
    max_remaining, min_remaining : int
        Bounds of the plays left, ``1 <= min_remaining <= max_remaining``.

    Raises
    ------
    ValueError
        Bounds out of order or below 1, or an unknown preset.
    """
    if not 1 <= min_remaining <= max_remaining:
        raise ValueError(
            f"need 1 <= min_remaining <= max_remaining, got {min_remaining}, {max_remaining}"
        )
    rng = random.Random(seed * 1_000_003 + index)
    g = CuatrolaGame(resolve_rules(preset), "hand", "streams", seed, index)
    while g.bidding:
        g.apply_action(BID0 if index % 2 == 0 else rng.choice(g.legal_actions()))
    total = TRICKS * (PLAYERS if g.contract == NONE else PLAYERS - 1)
    left = rng.randint(min(min_remaining, total), min(max_remaining, total))
    for _ in range(total - left):
        g.apply_action(rng.choice(g.legal_actions()))
    return g


def random_position(
    preset: str, seed: int, index: int, max_remaining: int = 9, min_remaining: int = 1
) -> SolvePosition:
    """The position of :func:`random_game` (same parameters and errors)."""
    return position_of_game(random_game(preset, seed, index, max_remaining, min_remaining))


def check_cards(p: SolvePosition) -> None:
    """Raise ``ValueError`` if a card id is out of range or held twice (a sanity check)."""
    seen: set[int] = set()
    for c in [*p.trick, *(c for h in p.hands for c in h)]:
        if not 0 <= c < N_CARDS or c in seen:
            raise ValueError(f"card {c} out of range or given twice")
        seen.add(c)


__all__ = [
    "SolvePosition",
    "Step",
    "brute_value",
    "brute_values",
    "check_cards",
    "gain",
    "next_seat",
    "play",
    "position_of_game",
    "random_game",
    "random_position",
    "value_of_play",
]
