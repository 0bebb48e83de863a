"""Events of a game: what happened at each step, for trace rows and replays.

Four kinds of event are **steps** (R9.2, contract section 5) and give one trace row each
(contract section 7): :class:`AnnounceEvent` (kind 1), :class:`PlayEvent` (2),
:class:`ClaimsEvent` (3) and :class:`EndEvent` (4). :class:`DataStart`, :class:`DealEvent` and
:class:`ChicaEnd` only help the replay read like a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tables import pack_ranks
from ..trace_format import TRACE_COLUMNS as TRACE_COLUMNS  # re-exported
from .plays import MovedCards, PlayOutcome
from .scoring import EndOfData

KIND_ANNOUNCE = 1
KIND_PLAY = 2
KIND_CLAIMS = 3
KIND_END = 4


@dataclass(frozen=True)
class DataStart:
    """A data begins (R3.1): its position, chica, dealer and shuffled deck.

    Attributes
    ----------
    data : int
        Data position in the game (0 at level ``data``).
    hand : int
        The record's ``hand`` value (the hand index at level ``data``).
    chica : int
        Chica number in the game (0 outside level ``mesa``).
    dealer : int
        Dealer seat (R3.2, R3.4).
    deck : tuple of int
        The shuffled card ids, dealt by position (contract section 2).
    scores : tuple of int
        Scores at the start of the data.
    """

    data: int
    hand: int
    chica: int
    dealer: int
    deck: tuple[int, ...]
    scores: tuple[int, int]


@dataclass(frozen=True)
class DealEvent:
    """Five cards dealt to every seat (R3.2).

    Attributes
    ----------
    data, deal : int
        Data position and deal (0-based).
    hands : tuple of tuple of int
        Card ids dealt, by seat.
    table : tuple of int
        Card ids on the table when the deal starts (they stay across deals, R3.2).
    """

    data: int
    deal: int
    hands: tuple[tuple[int, ...], ...]
    table: tuple[int, ...]


@dataclass(frozen=True)
class AnnounceEvent:
    """A ronda or doble ronda announcement (R4).

    Attributes
    ----------
    data, deal, seat, rank : int
        Where, who, and the rank dealt three or four times.
    flag : int
        1 ronda, 2 doble ronda.
    value : int
        Points it was worth before crediting (0 when blocked, R4.3, R9.1).
    wins : bool
        A ``win_chica`` doble ronda that ended the chica (R4.2).
    points : tuple of int
        Points credited to sides 0 and 1.
    scores : tuple of int
        Scores after the step.
    """

    data: int
    deal: int
    seat: int
    rank: int
    flag: int
    value: int
    wins: bool
    points: tuple[int, int]
    scores: tuple[int, int]

    def row(self) -> list[int]:
        """Trace row (contract section 7)."""
        return [KIND_ANNOUNCE, self.data, self.deal, self.seat, self.rank, -1, 0, 0, 0,
                self.flag, *self.points, 0, 0, *self.scores, 0]  # fmt: skip


@dataclass(frozen=True)
class PlayEvent:
    """One turn (R5 to R7).

    Attributes
    ----------
    data, deal, seat : int
        Where and who.
    outcome : PlayOutcome
        The play with its run, caida, limpia and points.
    moved : MovedCards
        The physical cards moved.
    points : tuple of int
        Points credited to sides 0 and 1 by this play.
    claims : tuple of int
        Points claimed for the end of the deal (R6.4 ``end_of_deal``).
    scores : tuple of int
        Scores after the step.
    pile : int
        Cards now in the acting side's pile.
    table : tuple of int
        Card ids on the table after the play.
    """

    data: int
    deal: int
    seat: int
    outcome: PlayOutcome
    moved: MovedCards
    points: tuple[int, int]
    claims: tuple[int, int]
    scores: tuple[int, int]
    pile: int
    table: tuple[int, ...]

    def row(self) -> list[int]:
        """Trace row (contract section 7)."""
        out = self.outcome
        return [KIND_PLAY, self.data, self.deal, self.seat, out.play.rank,
                pack_ranks(out.play.base), len(out.run), int(out.caida), int(out.limpia),
                int(out.caida_en_ronda), *self.points, *self.claims, *self.scores,
                self.pile]  # fmt: skip


@dataclass(frozen=True)
class ClaimsEvent:
    """End-of-deal claims credited after the dealer's last card (R6.4, contract section 5).

    Attributes
    ----------
    data, deal : int
        Where.
    claimed : tuple of int
        Claims held by sides 0 and 1.
    order : tuple of int
        Sides in the order they claimed first, which is the credit order.
    points : tuple of int
        Points credited (a side's claim is lost if the other side's claim ended the chica).
    scores : tuple of int
        Scores after the step.
    """

    data: int
    deal: int
    claimed: tuple[int, int]
    order: tuple[int, ...]
    points: tuple[int, int]
    scores: tuple[int, int]

    def row(self) -> list[int]:
        """Trace row (contract section 7)."""
        return [KIND_CLAIMS, self.data, self.deal, -1, -1, -1, 0, 0, 0, 0, *self.points,
                0, 0, *self.scores, 0]  # fmt: skip


@dataclass(frozen=True)
class EndEvent:
    """The end-of-data count (R8).

    Attributes
    ----------
    data, deal : int
        Data position and its last deal.
    count : EndOfData
        Leftovers, cards and the credits due.
    leftover_cards : tuple of int
        Card ids left on the table after the last play.
    points : tuple of int
        Points credited to sides 0 and 1 (later credits are lost if one ends the chica).
    scores : tuple of int
        Scores after the step.
    """

    data: int
    deal: int
    count: EndOfData
    leftover_cards: tuple[int, ...]
    points: tuple[int, int]
    scores: tuple[int, int]

    def row(self) -> list[int]:
        """Trace row (contract section 7); ``cards`` is ``64 * cards0 + cards1``."""
        c0, c1 = self.count.cards
        return [KIND_END, self.data, self.deal, -1, -1, -1, 0, 0, 0, 0, *self.points,
                0, 0, *self.scores, 64 * c0 + c1]  # fmt: skip


@dataclass(frozen=True)
class ChicaEnd:
    """A chica is over (R9.2, R9.3).

    Attributes
    ----------
    chica : int
        Chica number in the game.
    winner : int
        Winning side, -1 when the game was truncated.
    scores : tuple of int
        Final scores of the chica.
    zapateria : bool
        The loser had fewer than ``zapateria_below`` points (R9.3).
    win_kind : int
        Kind of the winning step (1 announce, 2 play, 3 claims, 4 end of data), 0 if none.
    """

    chica: int
    winner: int
    scores: tuple[int, int]
    zapateria: bool
    win_kind: int


Event = DataStart | DealEvent | AnnounceEvent | PlayEvent | ClaimsEvent | EndEvent | ChicaEnd
Step = AnnounceEvent | PlayEvent | ClaimsEvent | EndEvent
