"""The 20-card Spanish deck of Cuatrola (``docs/cuatrola.md`` C1.2, C1.3).

Card ids ``0..19``: ``card = suit * 5 + rank`` with suits ``o c e b`` (oros, copas, espadas,
bastos) = ``0..3`` and ranks ``A 3 R C S`` = ``0..4``, **high to low** inside a suit (C1.2), so
a lower rank index is a stronger card. The ascending card id is the canonical order of every
card list (``docs/cuatrola_contract.md`` section 1). A set of cards is also a 20-bit mask
(bit ``card``).

Cards are written rank then suit, ``"Rc"`` (rey de copas); the rank may also be given by its
Spanish number (``1`` A, ``12`` R, ``11`` C, ``10`` S) and either letter in any case.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "oceb"
SUIT_NAMES = ("oros", "copas", "espadas", "bastos")
RANKS = ("A", "3", "R", "C", "S")
RANK_NAMES = ("as", "tres", "rey", "caballo", "sota")
#: Card points by rank index (C1.3); 120 in the deck.
RANK_POINTS = (11, 10, 4, 3, 2)
N_SUITS = 4
N_RANKS = 5
N_CARDS = 20
#: Index of the rey and the caballo, the cards of a cante (C4.1).
REY = 2
CABALLO = 3
#: Bits of one suit in a card mask.
SUIT_MASK = 0b11111
_NUMBERS = {"1": "A", "12": "R", "11": "C", "10": "S"}


def card_of(suit: int, rank: int) -> int:
    """Return the card id of ``rank`` (0 A .. 4 S) in ``suit`` (0 o .. 3 b)."""
    return suit * N_RANKS + rank


def suit_of(card: int) -> int:
    """Return the suit (0..3) of a card id."""
    return card // N_RANKS


def rank_of(card: int) -> int:
    """Return the rank index (0 A, 1 3, 2 R, 3 C, 4 S; lower is stronger) of a card id."""
    return card % N_RANKS


def points_of(card: int) -> int:
    """Return the card points of a card id (C1.3)."""
    return RANK_POINTS[card % N_RANKS]


def format_card(card: int) -> str:
    """Return the short name of a card id, e.g. ``"Rc"``."""
    return RANKS[card % N_RANKS] + SUITS[card // N_RANKS]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Return the short names of cards in canonical (ascending id) order."""
    return [format_card(c) for c in sorted(cards)]


def parse_suit(text: object, what: str = "suit") -> int:
    """Parse a suit letter (``o c e b``, or the full Spanish name) into ``0..3``.

    Raises
    ------
    ValueError
        Not one of the accepted suits.
    """
    if isinstance(text, str):
        t = text.strip().lower()
        if t in SUITS and len(t) == 1:
            return SUITS.index(t)
        if t in SUIT_NAMES:
            return SUIT_NAMES.index(t)
    raise ValueError(
        f"{what} must be a suit letter o, c, e or b (oros, copas, espadas, bastos), got {text!r}"
    )


def parse_card(text: object, what: str = "card") -> int:
    """Parse one card such as ``"Rc"``, ``"3o"``, ``"Ab"`` or ``"12c"`` into its id.

    Raises
    ------
    ValueError
        Not a string, or an unknown rank or suit; the message lists the accepted ones.
    """
    if not isinstance(text, str) or len(text.strip()) < 2:
        raise ValueError(
            f"{what} must be a card written rank then suit, like 'Rc' (ranks A 3 R C S, "
            f"suits o c e b), got {text!r}"
        )
    t = text.strip()
    rank_text, suit_text = t[:-1].upper(), t[-1].lower()
    rank_text = _NUMBERS.get(rank_text, rank_text)
    if rank_text not in RANKS:
        raise ValueError(
            f"{what} {text!r} has an unknown rank {t[:-1]!r}; accepted ranks: A 3 R C S "
            f"(or 1 12 11 10); the deck has no 2, 4, 5, 6 or 7 (C1.2)"
        )
    if suit_text not in SUITS:
        raise ValueError(f"{what} {text!r} has an unknown suit {t[-1]!r}; accepted: o c e b")
    return card_of(SUITS.index(suit_text), RANKS.index(rank_text))


def parse_cards(value: object, what: str = "cards") -> list[int]:
    """Parse a list of cards (a JSON list of strings, or one space-separated string).

    The order is kept (it matters for a trick). Duplicates are rejected.

    Raises
    ------
    ValueError
        Not a list or string, a bad card, or a card given twice.
    """
    if isinstance(value, str):
        items: list[object] = list(value.split())
    elif isinstance(value, list):
        items = list(value)
    else:
        raise ValueError(
            f'{what} must be a list of cards like ["Rc", "Co"] or a string "Rc Co", got {value!r}'
        )
    cards = [parse_card(x, f"a card of {what}") for x in items]
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise ValueError(f"{what} holds {format_card(c)} twice; the deck has one of each card")
        seen.add(c)
    return cards


def to_mask(cards: Iterable[int]) -> int:
    """Return the 20-bit mask of a set of card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def from_mask(mask: int) -> list[int]:
    """Return the card ids of a mask, ascending."""
    return [c for c in range(N_CARDS) if mask >> c & 1]
