"""Cold-read findings of issue 18 in the rule reports: each sentence follows its table.

Odds: the *across models* wording follows the overlap it computes ("apart" was printed where the
solver's interval overlapped greedy's). Sensitivity: an identical run too small to have seen a
change is not counted as agreeing. Quito-vs-cuenca and sensitivity: sizes are per model, the
tuned players' tuning rules are disclosed, and no speed is stated without a measured number.
"""

from __future__ import annotations

import pandas as pd

from cuarenta_sim.cuarenta.studies.common import overlap_text
from cuarenta_sim.cuarenta.studies.rule_claims import odds_claims
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.claims import check_claims, render_claim

#: Caidas per play, 4 players, the committed odds report (fractions): solver's interval
#: overlaps greedy's, and neither overlaps heuristic's.
RATES_4P = pd.DataFrame(
    {
        "metric": "caidas_per_play",
        "players": 4,
        "model": ["learned", "heuristic", "greedy", "solver (confirm)"],
        "estimate": [0.132406, 0.13716, 0.12320, 0.1251],
        "lower": [0.132311, 0.13697, 0.12301, 0.1222],
        "upper": [0.132501, 0.13735, 0.12338, 0.1280],
        "n": [1_000_000, 250_000, 250_000, 1_000],
        "method": "ratio",
        "defined": True,
    }
)


def test_overlap_wording_follows_the_overlap_it_computes() -> None:
    text = overlap_text(RATES_4P)
    assert "apart" not in text
    assert text == "not all intervals overlap: greedy's lies below heuristic's"
    two = RATES_4P.iloc[[1, 2]]
    assert overlap_text(two) == "no two intervals overlap"
    same = RATES_4P.iloc[[2, 3]]
    assert overlap_text(same) == "intervals overlap"


def test_odds_caida_claim_does_not_call_overlapping_intervals_apart() -> None:
    odds_table = pd.DataFrame(columns=["event", "scope", "players", "within"])
    s = StudySettings(n=1_000_000, players=(4,), models=tuple(RATES_4P["model"][:3]))
    claims = odds_claims(odds_table, RATES_4P, list(RATES_4P["model"]), "quito", s)
    caida = next(c for c in claims if c.id == "odds.caida.4p")
    sentence = render_claim(caida)
    assert "apart" not in sentence
    assert "not all intervals overlap" in sentence
    check_claims([caida])
