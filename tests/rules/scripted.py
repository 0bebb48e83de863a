"""A test policy that plays a given script, for games built from chosen decks."""

from __future__ import annotations

from dataclasses import dataclass, field

from cuarenta_sim.cuarenta.reference import Observation, Play
from cuarenta_sim.rng import PyRng


@dataclass
class Scripted:
    """Play the scripted ``(rank, base)`` moves in order, then always the first legal play.

    The first legal play is the trail of the lowest rank held (contract section 3), so once
    the script runs out the seat only trails and never scores by accident.
    """

    moves: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    name: str = "scripted"
    stochastic: bool = False

    def choose(self, obs: Observation, rng: PyRng) -> int:
        if not self.moves:
            return 0
        rank, base = self.moves.pop(0)
        return obs.plays.index(Play(rank, tuple(sorted(base))))
