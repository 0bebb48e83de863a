"""The fixed action space of Cuarenta: every ``(played rank, base)`` a turn can ever offer.

A play of the reference engine is a :class:`~cuarenta_sim.cuarenta.reference.Play`: a rank
from hand and its base, ``()`` for a trail, ``(rank,)`` for a match (R5.1) or the sorted ranks
of a sum (R5.2) (``docs/engine_contract.md`` section 3). The action ids enumerate all of them
**in the canonical order of the contract**: by played rank ascending, then trail, match, then
the sum bases of that rank in the order of
:func:`cuarenta_sim.cuarenta.tables.enumerate_sum_bases`. So the legal actions of a turn,
sorted by id, are exactly the engine's canonical legal plays in order, whatever the rules.

Sum bases may hold at most ``max_sum_cards`` table cards (R5.2); the action space always
lists every base (a rule set with a limit never marks the longer ones legal), so one action
space serves every rule set.
"""

from __future__ import annotations

from .cards import N_NUMERIC, N_RANKS, RANK_NAMES
from .reference.plays import Play
from .tables import enumerate_sum_bases


def _all_plays() -> tuple[Play, ...]:
    """Every play of the game, canonical order (contract section 3)."""
    plays: list[Play] = []
    for rank in range(N_RANKS):
        plays.append(Play(rank, ()))
        plays.append(Play(rank, (rank,)))
        if rank < N_NUMERIC:
            plays.extend(Play(rank, base) for base in enumerate_sum_bases(rank + 1))
    return tuple(plays)


#: Every play, indexed by action id.
PLAYS: tuple[Play, ...] = _all_plays()
#: Size of the Discrete action space (one id per play of :data:`PLAYS`).
N_ACTIONS: int = len(PLAYS)
#: Action id of each play.
ACTION_OF: dict[Play, int] = {play: a for a, play in enumerate(PLAYS)}


def action_of(play: Play) -> int:
    """Return the action id of a play.

    Parameters
    ----------
    play : Play
        A reference-engine play (rank 0..9 and base).

    Returns
    -------
    int
        Its id in ``0 .. N_ACTIONS - 1``.

    Raises
    ------
    ValueError
        If the play cannot occur in Cuarenta (e.g. a sum with a face card).
    """
    try:
        return ACTION_OF[play]
    except KeyError:
        raise ValueError(f"{play!r} is not a Cuarenta play (R5)") from None


def play_of(action: int) -> Play:
    """Return the play of an action id.

    Parameters
    ----------
    action : int
        An id in ``0 .. N_ACTIONS - 1``.

    Returns
    -------
    Play
        The ``(rank, base)`` play.

    Raises
    ------
    ValueError
        If ``action`` is not a whole number in range.
    """
    if isinstance(action, bool) or not 0 <= int(action) < N_ACTIONS or int(action) != action:
        raise ValueError(f"action must be a whole number from 0 to {N_ACTIONS - 1}, got {action!r}")
    return PLAYS[int(action)]


def action_name(action: int) -> str:
    """Return a short name of an action, e.g. ``"7 trail"``, ``"5 match"``, ``"7 sum A+6"``.

    Parameters
    ----------
    action : int
        An id in ``0 .. N_ACTIONS - 1``.

    Returns
    -------
    str
        The played rank's name, then ``trail``, ``match`` or ``sum`` with the base's ranks.

    Raises
    ------
    ValueError
        If ``action`` is out of range.
    """
    play = play_of(action)
    name = RANK_NAMES[play.rank]
    if play.is_trail:
        return f"{name} trail"
    if play.is_match:
        return f"{name} match"
    return f"{name} sum " + "+".join(RANK_NAMES[r] for r in play.base)
