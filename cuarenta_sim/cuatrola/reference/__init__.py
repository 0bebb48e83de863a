"""The readable reference engine of Cuatrola (executable spec of ``docs/cuatrola.md``).

Modules: :mod:`.tricks` (legal plays, obligations, trick winner and points, C3),
:mod:`.scoring` (cantes C4, hand scoring C5), :mod:`.policies` and :mod:`.pimc` (the play and
bidding policies' reference twins), :mod:`.game` (deal, one hand, one game, traces) and
:mod:`.replay` (a play-by-play text of one simulated hand or game) and :mod:`.solver` (the
brute-force value of a hand's play with every hand known, twin of the numba solver).

Public API: :class:`HandRecord`, :class:`GameRecord`, :func:`deal`, :func:`play_hand`,
:func:`play_game`, :func:`reference_trace`, :func:`replay`, :func:`choose_cante`,
:func:`score_hand`, :func:`legal_plays`, :func:`obligation`, :func:`trick_points`,
:func:`trick_winner`.
"""

from .game import GameRecord, HandRecord, deal, play_game, play_hand, reference_trace
from .replay import replay
from .scoring import choose_cante, score_hand
from .tricks import legal_plays, obligation, trick_points, trick_winner

__all__ = [
    "GameRecord",
    "HandRecord",
    "choose_cante",
    "deal",
    "legal_plays",
    "obligation",
    "play_game",
    "play_hand",
    "reference_trace",
    "replay",
    "score_hand",
    "trick_points",
    "trick_winner",
]
