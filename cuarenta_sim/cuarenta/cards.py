"""Cards, ranks and rank parsing (rules R1 and the scenario format of section F).

Suits never matter in play (R1.1), so the engines work with **ranks** only:

====  ====  =====  ==========================
rank  name  value  sequence position (R1.3)
====  ====  =====  ==========================
0     A     1      first
1..6  2..7  2..7
7     J     0      after 7
8     Q     0
9     K     0      last (no wrap)
====  ====  =====  ==========================

A physical card is an integer id ``0..39`` with ``rank = id // 4`` and ``suit = id % 4``; the
suit is kept only so that traces and replays read like a real game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

#: Rank names in rank order (R1.3): index = rank code used everywhere in the package.
RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
N_RANKS = 10
N_SUITS = 4
N_CARDS = 40
#: Ranks 0..6 (A..7) are numeric: they have a sum value (R1.2).
N_NUMERIC = 7
#: Sum value of each rank (R1.2): A=1 ... 7=7, faces 0.
RANK_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 0, 0, 0)
#: Suit letters used when printing physical cards (hearts, diamonds, clubs, spades).
SUIT_NAMES: tuple[str, ...] = ("h", "d", "c", "s")

_RANK_ALIASES: dict[str, int] = {name: i for i, name in enumerate(RANK_NAMES)}
_RANK_ALIASES.update({"1": 0, "a": 0, "j": 7, "q": 8, "k": 9})
#: Spanish numerals: 10 sota, 11 caballo, 12 rey (section F).
_SPANISH: dict[str, int] = {"10": 7, "11": 8, "12": 9}
_FRENCH_SUITS = "hdcs♥♦♣♠♡♢♧♤"
_SPANISH_SUITS = "oceb"
_CARD_RE = re.compile(r"^\s*(10|11|12|[1-7]|[ajqkAJQK])\s*(.?)\s*$")

ACCEPTED = (
    "accepted ranks: A 2 3 4 5 6 7 J Q K (any case), 1 for A, Spanish 10 11 12 for J Q K; "
    "an optional suit (h d c s ♥ ♦ ♣ ♠, or Spanish o c e b) is ignored"
)


def parse_rank(text: object) -> int:
    """Parse one card or rank string into a rank code ``0..9``.

    Parameters
    ----------
    text : str
        ``"A"``, ``"7"``, ``"k"``, ``"1"`` (ace), Spanish ``"10"``/``"11"``/``"12"`` (sota,
        caballo, rey = J, Q, K), optionally followed by a suit that is ignored: ``"7h"``,
        ``"7♥"``, ``"12o"``. Section F of the spec; R1.1 (suits never matter).

    Returns
    -------
    int
        The rank code (0 = A ... 6 = 7, 7 = J, 8 = Q, 9 = K).

    Raises
    ------
    ValueError
        For anything else (``"8"``, ``"10h"``: a French pack has no 10, ``""``), with the
        accepted forms in the message.
    """
    if not isinstance(text, str):
        raise ValueError(f"card {text!r} is not a string; {ACCEPTED}")
    m = _CARD_RE.match(text)
    if m is None:
        raise ValueError(f"unknown card {text!r}; {ACCEPTED}")
    rank_text, suit = m.group(1), m.group(2)
    if rank_text in _SPANISH:
        # 10/11/12 only exist in a Spanish pack, so a French suit makes the card meaningless.
        if suit and suit.lower() not in _SPANISH_SUITS:
            raise ValueError(
                f"unknown card {text!r}: 10, 11, 12 are Spanish sota, caballo, rey and take "
                f"a Spanish suit (o c e b) or none; {ACCEPTED}"
            )
        return _SPANISH[rank_text]
    if suit.isdigit():
        raise ValueError(f"unknown card {text!r}; {ACCEPTED}")
    if suit and suit.lower() not in _FRENCH_SUITS + _SPANISH_SUITS:
        raise ValueError(f"unknown suit in card {text!r}; {ACCEPTED}")
    return _RANK_ALIASES[rank_text if rank_text in _RANK_ALIASES else rank_text.upper()]


def parse_ranks(cards: Iterable[object], *, what: str = "cards") -> list[int]:
    """Parse a list of card strings into a sorted list of rank codes.

    Parameters
    ----------
    cards : iterable of str
        Card strings accepted by :func:`parse_rank`.
    what : str
        Name of the field, used in error messages.

    Returns
    -------
    list of int
        Rank codes in rank order (a multiset, section F).

    Raises
    ------
    ValueError
        If ``cards`` is not a list of strings, a card is malformed, or more than four cards
        of one rank are given (R1.1: four suits).
    """
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise ValueError(f"{what} must be a list of card strings, got {cards!r}")
    ranks = sorted(parse_rank(c) for c in cards)
    check_rank_counts(ranks_to_counts(ranks), what=what)
    return ranks


def ranks_to_counts(ranks: Iterable[int]) -> list[int]:
    """Return the 10 per-rank counts of a list of rank codes."""
    counts = [0] * N_RANKS
    for r in ranks:
        counts[r] += 1
    return counts


def counts_to_ranks(counts: Sequence[int]) -> list[int]:
    """Return the rank codes, in rank order, of a 10-long count vector."""
    return [r for r in range(N_RANKS) for _ in range(int(counts[r]))]


def check_rank_counts(counts: Sequence[int], *, what: str = "cards") -> None:
    """Raise ``ValueError`` if any rank appears more than four times (R1.1)."""
    for r, c in enumerate(counts):
        if c > N_SUITS:
            raise ValueError(
                f"{what}: {c} cards of rank {RANK_NAMES[r]}, but the deck has only 4 (R1.1)"
            )


def rank_name(rank: int) -> str:
    """Return the display name (``"A"`` ... ``"K"``) of a rank code ``0..9``."""
    return RANK_NAMES[rank]


def format_ranks(ranks: Iterable[int]) -> list[str]:
    """Return rank names, in rank order, for a collection of rank codes (section F output)."""
    return [RANK_NAMES[r] for r in sorted(ranks)]


def card_rank(card: int) -> int:
    """Return the rank code of a physical card id ``0..39`` (``id // 4``)."""
    return card // N_SUITS


def card_name(card: int) -> str:
    """Return a readable name such as ``"7h"`` for a physical card id ``0..39``."""
    return RANK_NAMES[card // N_SUITS] + SUIT_NAMES[card % N_SUITS]


def full_deck() -> np.ndarray:
    """Return the unshuffled deck as card ids ``0..39`` (dtype ``uint8``), rank-major."""
    return np.arange(N_CARDS, dtype=np.uint8)
