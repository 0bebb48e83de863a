"""The readable reference engine of Cuatrola (executable spec of ``docs/cuatrola.md``)."""

from .game import GameRecord, HandRecord, deal, play_game, play_hand, reference_trace
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
    "score_hand",
    "trick_points",
    "trick_winner",
]
