"""The reference engine: readable pure Python, the executable form of ``docs/cuarenta.md``.

It plays exactly the game of ``docs/engine_contract.md`` (same decks, same canonical legal
plays, same policy draws, same points and trace rows) so that the numba kernel can be checked
against it move for move. Modules, one job each:

* :mod:`.state` - the cards of one data (physical card ids, suits kept for replays);
* :mod:`.plays` - legal plays in canonical order, what a play captures and scores (R5-R7, R9.1);
* :mod:`.scoring` - announcements (R4), the end-of-data count (R8), crediting (R9.2, R9.3);
* :mod:`.policies` - :class:`Observation` and the built-in ``random``, ``greedy``,
  ``heuristic``, ``pimc``, ``solver`` and ``learned``;
* :mod:`.search` - the heuristic's scores and pimc's sampling and playouts on rank counts;
* :mod:`.learned` - the ``learned`` policy's features and scores;
* :mod:`.solver` - brute-force twin of the exact solver (every line enumerated);
* :mod:`.positions` - random test positions for the solver;
* :mod:`.events` - the steps of a game and their trace rows (contract section 7);
* :mod:`.game` - data, chica and mesa flow, :func:`play_game`;
* :mod:`.replay` - :func:`format_game`, a play-by-play text.
"""

from .events import TRACE_COLUMNS
from .game import MAX_DATAS, GameLog, observe, play_deck, play_game
from .plays import Play, PlayOutcome, capture_bases, card_options, legal_plays, resolve_play
from .policies import (
    POLICIES,
    GreedyPolicy,
    HeuristicPolicy,
    Observation,
    PimcPolicy,
    Policy,
    RandomPolicy,
    SolverPolicy,
)
from .replay import format_game
from .scoring import (
    ScoreBoard,
    announcement_value,
    carton_points,
    end_of_data,
    is_zapateria,
    ronda_events,
)
from .state import DataState, deck_from_deals

__all__ = [
    "MAX_DATAS",
    "POLICIES",
    "TRACE_COLUMNS",
    "DataState",
    "GameLog",
    "GreedyPolicy",
    "HeuristicPolicy",
    "Observation",
    "PimcPolicy",
    "Play",
    "PlayOutcome",
    "Policy",
    "RandomPolicy",
    "ScoreBoard",
    "SolverPolicy",
    "announcement_value",
    "capture_bases",
    "card_options",
    "carton_points",
    "deck_from_deals",
    "end_of_data",
    "format_game",
    "is_zapateria",
    "legal_plays",
    "observe",
    "play_deck",
    "play_game",
    "resolve_play",
    "ronda_events",
]
