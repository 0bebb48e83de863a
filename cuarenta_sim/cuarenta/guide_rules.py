"""The rule-of-thumb sentences of the player's guide, each tied to judge scenarios.

A sentence of :mod:`cuarenta_sim.cuarenta.guide` that states what the rules allow (not a
measured number) is written once here, as a :class:`GuideRule`, with the rule numbers it
rests on and the scenario files of ``tests/scenarios/`` (docs/cuarenta.md section F) that the
rules judge (:func:`cuarenta_sim.scenario.evaluate`) evaluates to prove it. The guide renders
:attr:`GuideRule.sentence` verbatim; ``tests/guide/test_guide_rules.py`` checks that every
rule's scenarios exist and pass, and that the generated guide contains every sentence (issue
18 item 5).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GuideRule:
    """One rule-of-thumb sentence of the guide.

    Attributes
    ----------
    id : str
        Stable name (``seen_four``...).
    sentence : str
        The sentence as the guide prints it.
    rules : tuple of str
        Rule numbers of docs/cuarenta.md it rests on.
    scenarios : tuple of str
        Stems of ``tests/scenarios/*.json`` files that prove it through the judge.
    """

    id: str
    sentence: str
    rules: tuple[str, ...]
    scenarios: tuple[str, ...]


SEEN_FOUR = GuideRule(
    "seen_four",
    "Trail a card whose rank you have seen all four of and no caida on it is possible (the "
    "next player holds none of that rank, R6.1), but it can still be taken in a sum (R5.2) or "
    "a run (R5.4), which are no caida (R6.2)",
    ("R5.2", "R5.4", "R6.1", "R6.2"),
    ("G1_seen_four_taken_in_sum", "G2_seen_four_taken_in_run", "E10_caida"),
)
DEALER_LAST = GuideRule(
    "dealer_last",
    "The dealer plays last in every deal (R3.3): with 2 players it can answer the mano's last "
    "trail of a deal with a caida; with 4 players it answers the last trail of the seat before "
    "it, the mano's partner (the previous player is always an opponent, R2.1), and the mano's "
    "trail is answered by the seat after the mano. Its own last card of a deal can never be "
    "caught by a caida, since no caida carries over to the next deal (R6.1)",
    ("R2.1", "R3.3", "R6.1"),
    ("G3_dealer_answers_trail", "G4_dealer_answers_trail_4p", "E13_no_caida_across_deals"),
)
LEFTOVERS = GuideRule(
    "leftovers",
    "Under `quito` the cards left on the table at the end of a data go to nobody (R8.1) and so "
    "count for no carton",
    ("R8.1",),
    ("E19_leftovers_quito",),
)
CAIDA_VALUE = GuideRule(
    "caida_value",
    "When you trail (play a card without capturing), the next player may match it for a caida "
    "(2 points, R6.1)",
    ("R6.1",),
    ("E10_caida",),
)

#: Every rule-of-thumb sentence of the guide.
GUIDE_RULES: tuple[GuideRule, ...] = (SEEN_FOUR, DEALER_LAST, LEFTOVERS, CAIDA_VALUE)
