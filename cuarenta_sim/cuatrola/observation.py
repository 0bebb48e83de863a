"""What a Cuatrola seat may know, as a flat vector (PettingZoo observation, OpenSpiel tensor).

Exactly what a player at the table sees (the information the reference policies are allowed,
``docs/cuatrola_contract.md`` section 4): its own cards, the trump card turned up by the
dealer (C1.4), every declaration made (C2.1), the contract and who sits out (C2.2), the cards
of the current trick and of the earlier tricks with who played them (all face up), tricks and
points taken by each pair, who sang which cante (C4: a cante shows its rey and caballo), and
the game scores. Other hands appear only through those public facts.

Seats are **relative**: slot 0 is the observing seat, slot ``k`` the seat ``k`` places after it;
"own" and "other" pair are the observing seat's pair and the opponents'. Cards are ids
``suit * 5 + rank`` (suits ``o c e b``, ranks ``A 3 R C S``). Every value lies in ``[0, 1]``.

===============  =====  ==========================================================
segment          size   content
===============  =====  ==========================================================
hand             20     own cards
trump_card       20     the dealer's turned-up card, one-hot (C1.4)
trump            4      trump suit, one-hot
dealer           4      the dealer's slot, one-hot
bidding          1      1 while the bidding is open
bids             20     per slot: not yet / pass / solo / cuatrola / quintola (C2.1)
contract         4      none / solo / cuatrola / quintola, once the bidding is closed
declarer         4      the declarer's slot (C2)
sits_out         4      the slot that sits out (the declarer's partner, C2.2)
trick            80     per slot, the card it played to the current trick
played           80     per slot, the cards it played to earlier tricks
trick_no         5      the trick being played, one-hot
tricks           2      own, other pair tricks taken / 5
points           2      own, other pair points (cards, last trick, cantes) / 230
sung             16     per slot, the suits whose cante it sang this hand (C4)
scores           2      own, other pair game points / target (at most 1)
===============  =====  ==========================================================
"""

from __future__ import annotations

import numpy as np

from .cards import N_CARDS, N_SUITS
from .reference.step import PLAYERS, CuatrolaGame

#: The most points a pair can take in a hand: 120 in cards, 10 for the last trick, one cante
#: of 40 and three of 20 (C1.3, C4).
MAX_HAND_POINTS = 230

SEGMENTS: list[tuple[str, int]] = [
    ("hand", N_CARDS),
    ("trump_card", N_CARDS),
    ("trump", N_SUITS),
    ("dealer", PLAYERS),
    ("bidding", 1),
    ("bids", 5 * PLAYERS),
    ("contract", 4),
    ("declarer", PLAYERS),
    ("sits_out", PLAYERS),
    ("trick", N_CARDS * PLAYERS),
    ("played", N_CARDS * PLAYERS),
    ("trick_no", 5),
    ("tricks", 2),
    ("points", 2),
    ("sung", N_SUITS * PLAYERS),
    ("scores", 2),
]
#: Length of the observation vector.
OBSERVATION_SIZE = sum(size for _, size in SEGMENTS)
_O: dict[str, int] = {}
_at = 0
for _name, _size in SEGMENTS:
    _O[_name] = _at
    _at += _size


def encode(game: CuatrolaGame, seat: int, out: np.ndarray) -> np.ndarray:
    """Write what ``seat`` may know of ``game`` into ``out`` (module docstring).

    Parameters
    ----------
    game : CuatrolaGame
        The episode.
    seat : int
        The observing seat, 0..3.
    out : numpy.ndarray
        ``float32``, shape ``(OBSERVATION_SIZE,)``; overwritten.

    Returns
    -------
    numpy.ndarray
        ``out``.
    """
    o = _O
    out.fill(0.0)
    pair = seat % 2
    target = game.rules.target
    out[o["scores"]] = min(game.scores[pair], target) / target
    out[o["scores"] + 1] = min(game.scores[1 - pair], target) / target
    if game.trump_card < 0:  # nothing dealt yet (a chance node)
        return out
    on = [o["hand"] + c for c in game.hands[seat]]
    on.append(o["trump_card"] + game.trump_card)
    on.append(o["trump"] + game.trump)
    assert game.dealer is not None
    on.append(o["dealer"] + (game.dealer - seat) % PLAYERS)
    bids = o["bids"]
    for k in range(PLAYERS):
        on.append(bids + 5 * k + 1 + game.bids[(seat + k) % PLAYERS])
    if game.bidding:
        on.append(o["bidding"])
    else:
        on.append(o["contract"] + game.contract)
        if game.declarer >= 0:
            rel = (game.declarer - seat) % PLAYERS
            on.append(o["declarer"] + rel)
            on.append(o["sits_out"] + (rel + 2) % PLAYERS)
    trick = o["trick"]
    for c, s in zip(game.trick, game.trick_seats, strict=True):
        on.append(trick + N_CARDS * ((s - seat) % PLAYERS) + c)
    played = o["played"]
    for s in range(PLAYERS):
        base = played + N_CARDS * ((s - seat) % PLAYERS)
        on.extend(base + c for c in game.played[s])
    if game.trick_no < 5:
        on.append(o["trick_no"] + game.trick_no)
    # A cante shows its rey and caballo (C4): who sang which suit is public.
    on.extend(
        o["sung"] + N_SUITS * ((singer - seat) % PLAYERS) + suit for singer, suit in game.cantes
    )
    out[np.fromiter(on, np.intp, len(on))] = 1.0
    out[o["tricks"]] = game.tricks[pair] / 5
    out[o["tricks"] + 1] = game.tricks[1 - pair] / 5
    out[o["points"]] = game.points[pair] / MAX_HAND_POINTS
    out[o["points"] + 1] = game.points[1 - pair] / MAX_HAND_POINTS
    return out
