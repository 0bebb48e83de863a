"""Golden playthroughs: one random episode of each game and preset through the project's
OpenSpiel games (``cuarenta_sim.rl.openspiel``), every state with its current player, legal
actions, each seat's observation, the action taken and the returns (format: ``playthrough.py``),
regenerated in memory and compared with the committed ``playthroughs/*.txt``.

They guard the game flow the step-level core (issue 19) must keep: dealing as chance, the legal
actions in canonical order, what each seat may observe, rewards. Regenerate with
``python tests/golden/regenerate.py --only playthroughs``; the same rule as the golden hashes
applies (a change needs a documented, reviewed ``ENGINE_VERSION`` bump, or, for a change of
the adapters' observation format only, a reviewed note in the commit saying why).
"""

from __future__ import annotations

import difflib

import pytest
from playthrough import DIRECTORY, PLAYTHROUGHS, path_of, playthrough

from cuarenta_sim import GAMES


def test_one_playthrough_per_game_and_preset_and_nothing_else() -> None:
    want = {f"{name}_{preset}" for name, game in GAMES.items() for preset in game.presets}
    assert set(PLAYTHROUGHS) == want
    assert {p.stem for p in DIRECTORY.glob("*.txt")} == want


@pytest.mark.parametrize("stem", list(PLAYTHROUGHS))
def test_playthrough_is_unchanged(stem: str) -> None:
    game, seed = PLAYTHROUGHS[stem]
    new = playthrough(game, seed)
    old = path_of(stem).read_text(encoding="utf-8")
    if new != old:
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "committed", "now", n=2)
        pytest.fail(
            f"{stem} differs from the committed playthrough:\n" + "\n".join(list(diff)[:60])
        )


@pytest.mark.parametrize("stem", list(PLAYTHROUGHS))
def test_playthrough_reaches_the_end_with_zero_sum_returns(stem: str) -> None:
    """Each file is a whole episode: a terminal last state with zero-sum, non-zero returns,
    and its actions are the ones the text says were applied."""
    text = path_of(stem).read_text(encoding="utf-8")
    states = text.split("\n# State ")[1:]
    assert "IsTerminal() = True" in states[-1]
    assert all("IsTerminal() = False" in s for s in states[:-1])
    returns = [ln for ln in states[-1].splitlines() if ln.startswith("Returns() = ")]
    values = [float(v) for v in returns[0].removeprefix("Returns() = [").rstrip("]").split(",")]
    assert sum(values) == 0 and any(values)
    assert text.count("\naction: ") == len(states) - 1
