"""Review of a Cuarenta game record: what each play cost, from the player's seat and in hindsight.

For every decision of a checked record (:mod:`cuarenta_sim.cuarenta.game_record`) the review
asks the scenario judge twice, and re-implements neither the game nor the search:

* **From the seat** (kind ``advise``, ``docs/engine_contract.md`` section 10): the position
  as the deciding seat saw it (its hand, the table, the captured counts, the rondas announced
  and the cards of them still held, the trail, the claims, the scores; every other card
  ``unseen``). Each legal play's ``value`` is the seat's side's points minus the other side's
  to the end of the data, expected over what the seat could not see; exact (``solve``'s
  values) in the last deal with 2 players, else sampled (``samples`` worlds, seed
  ``seed + play index``).
* **In hindsight** (kind ``solve``, section 9), only where it applies, the data's last deal:
  every hand known, every seat then playing perfectly.

``lost`` is the advised value minus the value of the play made (never negative: the advised
play has the largest value): the expected points the play gave away from what the seat knew.
``caida_given`` flags a trail the next player made a caida on (R6.1). Totals per seat and per
deal, and the largest mistakes first, sum these.
"""

from __future__ import annotations

from typing import Any

from .advise import DEFAULT_SAMPLES as ADVISE_SAMPLES
from .cards import N_CARDS, RANK_NAMES, card_rank, format_ranks
from .game_record import CheckedRecord, Decision, play_json
from .reference.state import deals_per_data

#: Worlds per sampled decision by default: ``advise``'s (a 70-decision chica is reviewed in
#: about 1 s: ``python benchmarks/run.py review-time``).
DEFAULT_SAMPLES = ADVISE_SAMPLES
#: Mistakes listed by default, largest first.
TOP = 10


def advise_fields(decision: Decision, samples: int, seed: int) -> dict[str, Any]:
    """The ``advise`` scenario of a decision: what its seat knew (contract section 6).

    Parameters
    ----------
    decision : Decision
        From :func:`~cuarenta_sim.cuarenta.game_record.read_record`.
    samples : int
        Worlds for a sampled value (2..10,000).
    seed : int
        The scenario's seed.

    Returns
    -------
    dict
        The scenario's fields (kind ``advise``).
    """
    g = decision.state
    st = g.state
    assert st is not None
    n, seat = g.players, decision.seat
    hands: list[Any] = [None] * n
    hands[seat] = [RANK_NAMES[card_rank(c)] for c in sorted(st.hands[seat])]
    seen = set(st.hands[seat]) | set(st.table) | set(st.piles[0]) | set(st.piles[1])
    known: list[Any] = [None] * n
    for o in range(n):
        if o != seat and st.rondas[o]:
            known[o] = [
                RANK_NAMES[card_rank(c)] for c in st.hands[o] if card_rank(c) in st.rondas[o]
            ]
    fields = _common(decision)
    fields.update(
        kind="advise",
        hands=hands,
        unseen=[RANK_NAMES[card_rank(c)] for c in range(N_CARDS) if c not in seen],
        known=known,
        samples=samples,
        seed=seed,
    )
    return fields


def solve_fields(decision: Decision) -> dict[str, Any] | None:
    """The ``solve`` scenario of a decision (every hand known), or None before the last deal
    (``solve`` values the data's last deal only, contract section 9)."""
    g = decision.state
    st = g.state
    assert st is not None
    if st.deal != deals_per_data(g.players) - 1:
        return None
    fields = _common(decision)
    fields.update(
        kind="solve",
        hands=[[RANK_NAMES[card_rank(c)] for c in sorted(h)] for h in st.hands],
    )
    return fields


def _common(decision: Decision) -> dict[str, Any]:
    """The fields ``advise`` and ``solve`` share: the public position of the decision."""
    g = decision.state
    st = g.state
    assert st is not None
    n = g.players
    claims = list(g._claims)
    fields: dict[str, Any] = {
        "rules": g.rules,
        "players": n,
        "dealer": st.dealer,
        "scores": list(g.board.scores),
        "seat": decision.seat,
        "deal": st.deal + 1,
        "table": [RANK_NAMES[card_rank(c)] for c in st.table],
        "cards": [len(st.piles[0]), len(st.piles[1])],
        "last_capturer": st.last_capturer,
        "rondas": [format_ranks(r) for r in st.rondas],
        "claims": claims,
    }
    if sum(1 for c in claims if c) > 1:
        fields["first_claim"] = g._claim_order[0]
    prev = st.previous_trail
    # advise and solve take only a trail of this deal (every preset clears it at a new deal).
    if prev is not None and prev.deal == st.deal:
        fields["previous"] = {
            "seat": prev.seat,
            "trail": RANK_NAMES[prev.rank],
            "deal": prev.deal + 1,
        }
    return fields


def _judge(fields: dict[str, Any], decision: Decision) -> dict[str, Any]:
    from ..scenario import evaluate

    result = evaluate(fields)
    if "error" in result:  # the record was checked: this is a bug, say where
        raise RuntimeError(
            f"play {decision.index}: the {fields['kind']} scenario of this decision was "
            f"refused: {result['error']}"
        )
    return result


def _value_of(values: list[dict[str, Any]], made: dict[str, Any]) -> dict[str, Any]:
    return next(v for v in values if v["card"] == made["card"] and v["base"] == made["base"])


def review_decision(decision: Decision, samples: int, seed: int) -> dict[str, Any]:
    """Value one decision from its seat and, in the last deal, in hindsight.

    Returns
    -------
    dict
        ``index``, ``data``, ``deal`` (1-based), ``seat``, ``side``, ``play`` (card, base),
        ``values`` (advise's per legal play: card, base, value, lower, upper), ``best``,
        ``advised`` (the advised play), ``value`` (the play made's), ``lost`` (best - value,
        >= 0; points), ``lost_lower``/``lost_upper`` (its 95% interval), ``exact``,
        ``caida_given``, ``legal`` (number of legal plays) and ``hindsight`` (None before
        the last deal, else ``values``/``best``/``value``/``lost`` from ``solve``).
    """
    made = play_json(decision.play)
    advice = _judge(advise_fields(decision, samples, seed), decision)
    mine = _value_of(advice["values"], made)
    lost = max(0.0, float(advice["best"]) - float(mine["value"]))
    row: dict[str, Any] = {
        "index": decision.index,
        "data": decision.data,
        "deal": decision.deal + 1,
        "seat": decision.seat,
        "side": decision.seat % 2,
        "play": made,
        "legal": len(advice["values"]),
        "values": [
            {k: v[k] for k in ("card", "base", "value", "lower", "upper")} for v in advice["values"]
        ],
        "best": advice["best"],
        "advised": advice["play"],
        "value": mine["value"],
        "lost": round(lost, 4),
        "lost_lower": round(max(0.0, float(mine["loss_lower"])), 4),
        "lost_upper": round(max(0.0, float(mine["loss_upper"])), 4),
        "exact": advice["exact"],
        "caida_given": decision.caida_given,
        "hindsight": None,
    }
    solve = solve_fields(decision)
    if solve is not None:
        if advice["exact"]:  # advise solved this very position: solve's values already
            hind = {
                "values": [{k: v[k] for k in ("card", "base", "value")} for v in row["values"]],
                "best": advice["best"],
            }
        else:
            res = _judge(solve, decision)
            hind = {
                "values": [{k: v[k] for k in ("card", "base", "value")} for v in res["values"]],
                "best": res["best"],
            }
        value = _value_of(hind["values"], made)["value"]
        hind["value"] = value
        hind["lost"] = max(0, hind["best"] - value)
        row["hindsight"] = hind
    return row


def review_record(
    record: CheckedRecord, samples: int = DEFAULT_SAMPLES, seed: int = 0, top: int = TOP
) -> dict[str, Any]:
    """Review every decision of a checked record (module docstring).

    Parameters
    ----------
    record : CheckedRecord
        From :func:`~cuarenta_sim.cuarenta.game_record.read_record`.
    samples : int
        Worlds per sampled decision, 2..10,000 (``advise``'s ``samples``).
    seed : int
        0..2**62; decision ``i`` uses ``seed + i``.
    top : int
        Mistakes listed in ``mistakes``.

    Returns
    -------
    dict
        ``rules`` (slug), ``players``, ``names``, ``episode``, ``result``, ``samples``,
        ``seed``, ``decisions`` (:func:`review_decision` rows), ``seats`` (per seat: name,
        decisions, lost, mean lost, exact decisions, caidas given, hindsight decisions and
        lost), ``deals`` (per data, deal and seat: lost) and ``mistakes`` (the ``top``
        decisions of largest ``lost`` with ``lost > 0``, largest first).

    Raises
    ------
    ValueError
        ``samples`` or ``seed`` out of range; a decision at scores that reached the target
        (an episode ``data`` plays on past it; the scenario judge values chica positions).
    """
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= 10_000:
        raise ValueError(f"samples must be 2..10,000 (worlds per decision), got {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= 2**62:
        raise ValueError(f"seed must be a whole number 0..2**62, got {seed!r}")
    target = record.rules.target
    for d in record.decisions:
        scores = d.state.board.scores
        if max(scores) >= target:  # only an episode "data" plays on past the target
            raise ValueError(
                f"play {d.index}: the scores {scores[0]}-{scores[1]} have reached the target "
                f"{target} in this data; the review values chica positions (scores below the "
                "target, R9.2), so a data played on past the target cannot be reviewed"
            )
    rows = [review_decision(d, samples, seed + d.index) for d in record.decisions]
    final = record.final
    assert final is not None
    seats = []
    for s in range(record.players):
        mine = [r for r in rows if r["seat"] == s]
        hind = [r for r in mine if r["hindsight"] is not None]
        lost = sum(r["lost"] for r in mine)
        seats.append(
            {
                "seat": s,
                "name": record.names[s],
                "decisions": len(mine),
                "lost": round(lost, 4),
                "mean_lost": round(lost / len(mine), 4) if mine else 0.0,
                "exact": sum(r["exact"] for r in mine),
                "caidas_given": sum(r["caida_given"] for r in mine),
                "hindsight_decisions": len(hind),
                "hindsight_lost": sum(r["hindsight"]["lost"] for r in hind),
            }
        )
    deals: dict[tuple[int, int, int], dict[str, Any]] = {}
    for r in rows:
        key = (r["data"], r["deal"], r["seat"])
        entry = deals.setdefault(
            key,
            {"data": r["data"], "deal": r["deal"], "seat": r["seat"], "decisions": 0, "lost": 0.0},
        )
        entry["decisions"] += 1
        entry["lost"] = round(entry["lost"] + r["lost"], 4)
    ranked = sorted((r for r in rows if r["lost"] > 0), key=lambda r: (-r["lost"], r["index"]))
    return {
        "rules": record.rules.slug(),
        "players": record.players,
        "names": record.names,
        "episode": record.episode,
        "result": {"scores": list(final.board.scores), "winner": final.winner},
        "samples": samples,
        "seed": seed,
        "value": "the seat's side's points minus the other side's to the end of the data",
        "decisions": rows,
        "seats": seats,
        "deals": list(deals.values()),
        "mistakes": [
            {k: r[k] for k in ("index", "data", "deal", "seat", "play", "advised", "lost", "exact")}
            for r in ranked[:top]
        ],
    }


__all__ = [
    "DEFAULT_SAMPLES",
    "advise_fields",
    "review_decision",
    "review_record",
    "solve_fields",
]
