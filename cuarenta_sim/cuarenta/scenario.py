"""The scenario interface of ``docs/cuarenta.md`` section F: one step in, its result out.

A scenario is a JSON object describing one step of a data: a ``play``, a ``deal`` (the
announcements, R4) or an ``end`` of data (R8); or a ``solve``: the exact value of every legal
play of a position in the last deal of a data, every hand known
(:mod:`cuarenta_sim.cuarenta.engine.solver`). :func:`evaluate` checks it, runs it through the
reference engine (:mod:`cuarenta_sim.cuarenta.reference`: the same legal-play enumeration, play
resolution, announcement values, end-of-data count and crediting as a full game) and returns
the result as a JSON-ready dict. Malformed input never raises: the result is
``{"error": "<what was wrong and what is accepted>"}``. :func:`cuarenta_sim.scenario.evaluate`
(the interface of both games) sends Cuarenta scenarios here and reads files of JSON lines.

A whole scenario *file* (``{"name", "rule", "scenario", "expected", "note"}``, the format of
``tests/scenarios/*.json``) is also accepted: its ``scenario`` is evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..scenario import ScenarioError, scenario_object
from ..scenario import check_fields as _check_fields
from .cards import (
    N_CARDS,
    N_NUMERIC,
    RANK_NAMES,
    RANK_VALUES,
    check_rank_counts,
    counts_to_ranks,
    format_ranks,
    ranks_to_counts,
)
from .reference.plays import Play, card_options, resolve_play
from .reference.scoring import (
    DOBLE_RONDA,
    ScoreBoard,
    announcement_value,
    end_of_data,
    ronda_events,
)
from .reference.solver import SolverPosition
from .reference.state import CARDS_PER_DEAL, deals_per_data
from .rules import RuleSet
from .scenario_fields import check_rondas_held, claims_field
from .scenario_fields import check_seat as _check_seat
from .scenario_fields import int_field as _int_field
from .scenario_fields import is_int as _is_int
from .scenario_fields import list_field as _list
from .scenario_fields import rank_field as _rank
from .scenario_fields import ranks_field as _ranks
from .scenario_fields import rondas_field as _rondas
from .scenario_fields import rules_field as _rules
from .scenario_fields import scores_field as _scores

if TYPE_CHECKING:
    from .engine.solver import SolverTable

KINDS = ("play", "deal", "end", "solve", "advise")
_COMMON = ("kind", "rules", "players", "dealer", "scores")
FIELDS: dict[str, tuple[str, ...]] = {
    "play": (*_COMMON, "table", "seat", "deal", "previous", "rondas", "card", "base"),
    "deal": (*_COMMON, "hands"),
    "end": (*_COMMON, "cards", "table", "last_capturer"),
    "solve": (
        *_COMMON,
        "table",
        "seat",
        "deal",
        "previous",
        "rondas",
        "hands",
        "cards",
        "last_capturer",
        "claims",
        "first_claim",
    ),
}
# docs/engine_contract.md section 10 (:mod:`.advise`): solve's fields from one seat.
FIELDS["advise"] = (*FIELDS["solve"], "unseen", "known", "samples", "seed")
_PREVIOUS_FIELDS = ("seat", "trail", "deal")


def evaluate(obj: object) -> dict[str, Any]:
    """Evaluate one scenario (spec section F) and return its result.

    Parameters
    ----------
    obj : dict
        The scenario: ``kind`` (``"play"``, ``"deal"`` or ``"end"``), ``rules`` (a preset
        name or slug, or ``{"preset": name, switch: value, ...}``), optional ``players``
        (2 or 4, default 2), ``dealer`` (default ``players - 1``), ``scores`` (even, below
        the target, default ``[0, 0]``), and the fields of its kind:

        * ``play``: ``table`` (ranks), ``card`` (rank), optional ``seat`` (default the seat
          after the dealer), ``deal`` (1-based, default 1), ``previous`` (``null`` or
          ``{"seat": s, "trail": rank, "deal": k}``; ``s`` must be the seat before ``seat``,
          ``k`` the current deal or, under ``caida_across_deals``, the one before),
          ``rondas`` (per seat, ranks dealt as ronda / doble ronda in this deal), ``base``
          (``[]`` trail, ``[r]`` match, ``[r1, r2, ...]`` sum).
        * ``deal``: ``hands`` (per seat, the 5 ranks just dealt).
        * ``end``: ``cards`` ([side 0, side 1] captured before leftovers; with ``table``
          they total 40), ``table`` (leftover ranks), ``last_capturer`` (side or ``null``).
        * ``advise``: the fields of ``solve`` from one seat (:mod:`.advise`,
          docs/engine_contract.md section 10): ``hands`` holds only ``seat``'s ranks (the
          others ``null``), plus ``unseen`` (ranks ``seat`` has not seen), optional ``known``
          (per seat, the announced ronda cards it still holds), ``samples`` and ``seed``; any
          deal of the data.
        * ``solve``: the fields of ``play`` but ``card`` and ``base`` (``deal`` defaults to,
          and must be, the data's last), plus ``hands`` (per seat, the ranks it holds now),
          ``cards`` ([side 0, side 1] captured in this data), ``last_capturer`` (side, or
          ``null`` when nobody captured), optional ``claims`` ([side 0, side 1] claimed earlier
          in this deal, R6.4 ``end_of_deal``) and ``first_claim`` (the side that claimed
          first, needed when both did); every card not captured is in a hand or on the table.

        Ranks are ``A 2 3 4 5 6 7 J Q K`` (any case, ``1`` for A, Spanish ``10 11 12`` for
        J Q K, suits ignored). A scenario file object with a ``scenario`` key is accepted too.

    Returns
    -------
    dict
        ``points`` ([side 0, side 1] earned by the step), ``scores`` (after), ``winner``
        (side that won the chica by this step, else ``None``), ``zapateria`` (R9.3), and:

        * ``play``: ``options`` (legal bases of ``card``: a set, section F, so compare it
          with :func:`same_options`; each base is listed once, in the canonical order of
          contract section 3); with ``base``: ``legal`` (and ``reason`` when false),
          ``captured``, ``table``, ``caida``, ``limpia``, ``claims`` (R6.4
          ``end_of_deal``, not in ``points``).
        * ``deal``: ``events`` (``{"seat", "event": "ronda" | "doble_ronda", "rank"}``,
          blocked ones included, in play order, up to the one that ends the chica: none
          after a winning one, R9.2).
        * ``end``: ``cards`` (after leftovers, R8.1). The counts are credited in order
          (non-dealer side's count, dealer side's, then falla) and stop at the one that
          reaches the target (R9.2): a later falla is not added.
        * ``solve``: ``values`` (for each legal play of ``seat``, canonical order:
          ``{"card", "base", "value"}``, the value being the exact points of ``seat``'s side
          minus the other side's from the position to the end of the data when every seat
          plays perfectly, :mod:`cuarenta_sim.cuarenta.engine.solver`; docs/engine_contract.md
          section 9) and ``best`` (the
          largest value); the common fields are those of the principal line (every seat
          playing the first play of largest value to the end of the data).
        * ``advise``: ``values`` (per legal play ``{"card", "base", "value", "lower",
          "upper"}``: expected over what ``seat`` cannot see, with a 95% interval), ``best``,
          ``exact``, ``play`` (the advised play, whose step the common fields are),
          ``samples``, ``interval`` and ``continuation``.

        Rank lists are in rank order. On malformed input: ``{"error": message}``; this
        function never raises.
    """
    try:
        return _evaluate(obj)
    except (ValueError, TypeError) as exc:
        return {"error": str(exc)}


def same_options(a: Sequence[Sequence[object]], b: Sequence[Sequence[object]]) -> bool:
    """Whether two ``options`` lists of a ``play`` result name the same bases (section F).

    ``options`` is a set (section F: "its order carries no meaning") of bases, each base a
    multiset of ranks; rank spellings are normalized (``"q"``, ``"11"``, ``"Q"`` are one rank).
    A set holds each base once: the judge never lists a base twice (two table cards of one
    rank still give one match, R5.1), so a list that does is malformed, not equal.

    Parameters
    ----------
    a, b : sequence of sequence of str
        Two ``options`` lists, e.g. a result's and a scenario file's ``expected``.

    Returns
    -------
    bool
        True when both name the same set of bases, whatever the order of the bases or of the
        ranks inside a base.

    Raises
    ------
    ValueError
        A list names a base twice (options is a set), or holds a malformed rank or base.
    """

    def as_set(options: Sequence[Sequence[object]], which: str) -> set[tuple[int, ...]]:
        if not isinstance(options, list | tuple):
            raise ValueError(f"{which} must be a list of bases (lists of ranks), got {options!r}")
        seen: set[tuple[int, ...]] = set()
        for item in options:
            if not isinstance(item, list | tuple):
                raise ValueError(f"{which}: a base must be a list of ranks, got {item!r}")
            base = tuple(_ranks(list(item), what=f"{which} base"))
            if base in seen:
                raise ValueError(
                    f"{which} lists the base [{', '.join(format_ranks(base))}] twice; options "
                    f"is a set (section F): list each base once"
                )
            seen.add(base)
        return seen

    return as_set(a, "first options") == as_set(b, "second options")


# --------------------------------------------------------------------------- dispatch
def _evaluate(obj: object) -> dict[str, Any]:
    obj = scenario_object(obj, KINDS)
    kind = obj.get("kind")
    if kind not in KINDS:
        raise ScenarioError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
    _check_fields(obj, FIELDS[kind], f"a {kind} scenario")
    if "rules" not in obj:
        raise ScenarioError(
            "missing field rules: a preset name (quito, cuenca, pagat, quito_torneo) or "
            '{"preset": name, switch: value, ...}'
        )
    rules = _rules(obj["rules"])
    players = _int_field(obj, "players", 2)
    if players not in (2, 4):
        raise ScenarioError(f"players must be 2 or 4, got {players!r}")
    dealer = _int_field(obj, "dealer", players - 1)
    _check_seat(dealer, players, "dealer")
    scores = _scores(obj.get("scores", [0, 0]), rules)
    common = _Common(rules, players, dealer, scores)
    if kind == "play":
        return _play(obj, common)
    if kind == "deal":
        return _deal(obj, common)
    if kind == "solve":
        return _solve(obj, common)
    if kind == "advise":
        from .advise import advise_scenario  # loaded when asked: it compiles kernels

        return advise_scenario(obj, common, _previous, _result)
    return _end(obj, common)


class _Common:
    """Fields every kind shares, validated."""

    def __init__(self, rules: RuleSet, players: int, dealer: int, scores: list[int]) -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.scores = scores

    @property
    def leader(self) -> int:
        """The seat after the dealer (R3.3)."""
        return (self.dealer + 1) % self.players

    def board(self) -> ScoreBoard:
        """A score board at the scenario's scores."""
        # Scenarios are steps of a chica: the first side to reach the target wins (R9.2).
        return ScoreBoard(self.rules, list(self.scores), stop_at_target=True)


def _result(before: Sequence[int], board: ScoreBoard) -> dict[str, Any]:
    """The output fields every kind shares."""
    return {
        "points": [board.scores[0] - before[0], board.scores[1] - before[1]],
        "scores": list(board.scores),
        "winner": board.winner,
        "zapateria": board.zapateria(),
    }


# --------------------------------------------------------------------------- kind: play
def _play(obj: dict[str, Any], c: _Common) -> dict[str, Any]:
    rules, n = c.rules, c.players
    for name in ("table", "card"):
        if name not in obj:
            raise ScenarioError(f"missing field {name} in a play scenario")
    table_ranks = _ranks(_list(obj["table"], "table"), what="table")
    card = _rank(obj["card"], "card")
    check_rank_counts(ranks_to_counts([*table_ranks, card]), what="table and card")
    table = ranks_to_counts(table_ranks)
    seat = _int_field(obj, "seat", c.leader)
    _check_seat(seat, n, "seat")
    deals = deals_per_data(n)
    deal = _int_field(obj, "deal", 1)
    if not 1 <= deal <= deals:
        raise ScenarioError(f"deal must be 1..{deals} with {n} players (R2.2), got {deal}")
    rondas = _rondas(obj.get("rondas"), n)
    trail, in_ronda = _previous(obj.get("previous"), seat, deal, table, rondas, c)
    options = card_options(card, table, rules)
    before = list(c.scores)
    board = c.board()
    result_options = [format_ranks(b) for b in options]
    if "base" not in obj:
        return {**_result(before, board), "options": result_options}
    base = tuple(_ranks(_list(obj["base"], "base"), what="base"))
    if base not in options:
        # Section F: an illegal base changes nothing; the result says why.
        return {
            **_result(before, board),
            "options": result_options,
            "legal": False,
            "reason": _illegal_reason(card, base, table, rules, options),
            "captured": [],
            "table": format_ranks(table_ranks),
            "caida": False,
            "limpia": False,
            "claims": [0, 0],
        }
    side = seat % 2
    outcome = resolve_play(
        rules, table, Play(card, base), trail=trail, trail_in_ronda=in_ronda, score=before[side]
    )
    board.credit(side, outcome.points)
    claims = [0, 0]
    claims[side] = outcome.claim
    return {
        **_result(before, board),
        "options": result_options,
        "legal": True,
        "captured": format_ranks(outcome.captured),
        "table": format_ranks(counts_to_ranks(outcome.table_after)),
        "caida": outcome.caida,
        "limpia": outcome.limpia,
        "claims": claims,
    }


def _previous(
    value: object,
    seat: int,
    deal: int,
    table: list[int],
    rondas: list[list[int]],
    c: _Common,
) -> tuple[int | None, bool]:
    """Return ``(trail rank a caida may be made on, trail_in_ronda)`` from ``previous``."""
    if value is None:
        return None, False
    if not isinstance(value, dict):
        raise ScenarioError(
            f'previous must be null or {{"seat": s, "trail": rank, "deal": k}}, got {value!r}'
        )
    _check_fields(value, _PREVIOUS_FIELDS, "previous")
    for name in ("seat", "trail"):
        if name not in value:
            raise ScenarioError(f'previous needs "seat" and "trail"; missing {name}')
    prev_seat = _int_field(value, "seat", 0, where="previous.seat")
    _check_seat(prev_seat, c.players, "previous.seat")
    expected = (seat - 1) % c.players
    if prev_seat != expected:
        raise ScenarioError(
            f"previous.seat must be the seat before seat {seat}, i.e. {expected} (R6.1, R6.3: "
            f"a caida is on the previous player's trail), got {prev_seat}"
        )
    rank = _rank(value["trail"], "previous.trail")
    prev_deal = _int_field(value, "deal", deal, where="previous.deal")
    if prev_deal not in (deal, deal - 1) or prev_deal < 1:
        raise ScenarioError(
            f"previous.deal must be the current deal {deal} or the one before it, got {prev_deal}"
        )
    if table[rank] == 0:
        raise ScenarioError(
            f"previous.trail {RANK_NAMES[rank]} is not on the table: a card just trailed lies "
            f"on the table until it is captured (include it in table)"
        )
    if prev_deal < deal and seat != c.leader:
        raise ScenarioError(
            f"previous.deal {prev_deal} is before deal {deal}, so seat {seat} would make the "
            f"first play of the deal, but the leader is seat {c.leader} (R3.3: the seat after "
            f"the dealer leads each deal)"
        )
    if prev_deal < deal and not c.rules.caida_across_deals:
        return None, False  # R6.1: no caida across deals unless caida_across_deals
    return rank, rank in rondas[prev_seat]


def _illegal_reason(
    card: int,
    base: tuple[int, ...],
    table: list[int],
    rules: RuleSet,
    options: list[tuple[int, ...]],
) -> str:
    """Say why ``base`` is not a legal option for ``card`` (R5.1, R5.2, R5.5)."""
    name = RANK_NAMES[card]
    listed = "; legal options: " + ", ".join(
        "[" + ", ".join(format_ranks(b)) + "]" for b in options
    )
    if not base:
        return f"{name} may not trail: capture_compulsory and it can capture (R5.5){listed}"
    if len(base) == 1:
        if base[0] != card:
            return (
                f"a one-card base is a match of the played rank {name} (R5.1); a sum takes two "
                f"or more cards (R5.2){listed}"
            )
        return f"no {name} on the table to match (R5.1){listed}"
    if card >= N_NUMERIC or any(r >= N_NUMERIC for r in base):
        return f"J, Q and K have no value and never take part in a sum (R1.2){listed}"
    total = sum(RANK_VALUES[r] for r in base)
    if total != RANK_VALUES[card]:
        return f"the base adds up to {total}, not {RANK_VALUES[card]} (R5.2){listed}"
    if rules.max_sum_cards is not None and len(base) > rules.max_sum_cards:
        return f"a sum may take at most {rules.max_sum_cards} cards here (R5.2){listed}"
    return f"the table does not hold those cards{listed}"


# --------------------------------------------------------------------------- kind: deal
def _deal(obj: dict[str, Any], c: _Common) -> dict[str, Any]:
    n = c.players
    if "hands" not in obj:
        raise ScenarioError("missing field hands: per seat, the 5 ranks just dealt")
    hands_value = _list(obj["hands"], "hands")
    if len(hands_value) != n:
        raise ScenarioError(f"hands must list {n} hands (one per seat), got {len(hands_value)}")
    hands = []
    for seat, hand in enumerate(hands_value):
        ranks = _ranks(_list(hand, f"hands[{seat}]"), what=f"hands[{seat}]")
        if len(ranks) != CARDS_PER_DEAL:
            raise ScenarioError(
                f"hands[{seat}] must hold the {CARDS_PER_DEAL} cards of a deal (R2.2), "
                f"got {len(ranks)}"
            )
        hands.append(ranks_to_counts(ranks))
    check_rank_counts([sum(h[r] for h in hands) for r in range(10)], what="hands")
    before = list(c.scores)
    board = c.board()
    events = []
    for p in range(n):
        seat = (c.dealer + 1 + p) % n
        side = seat % 2
        for flag, rank in ronda_events(hands[seat]):
            value, wins = announcement_value(c.rules, flag, board.scores[side])
            board.credit(side, value)
            if wins:
                board.win(side)
            events.append(
                {
                    "seat": seat,
                    "event": "doble_ronda" if flag == DOBLE_RONDA else "ronda",
                    "rank": RANK_NAMES[rank],
                }
            )
            if board.ended:
                # R9.2: the chica ends at once; later announcements are never made.
                return {**_result(before, board), "events": events}
    return {**_result(before, board), "events": events}


# --------------------------------------------------------------------------- kind: end
def _end(obj: dict[str, Any], c: _Common) -> dict[str, Any]:
    for name in ("cards", "table"):
        if name not in obj:
            raise ScenarioError(f"missing field {name} in an end scenario")
    cards = _list(obj["cards"], "cards")
    if len(cards) != 2 or not all(_is_int(x) and x >= 0 for x in cards):
        raise ScenarioError(
            f"cards must be [side 0, side 1] captured counts (whole numbers >= 0), got {cards!r}"
        )
    cards = [int(x) for x in cards]
    table = _ranks(_list(obj["table"], "table"), what="table")
    if cards[0] + cards[1] + len(table) != N_CARDS:
        raise ScenarioError(
            f"cards {cards[0]} + {cards[1]} and {len(table)} table cards make "
            f"{cards[0] + cards[1] + len(table)}; at the end of a data they total 40"
        )
    last = obj.get("last_capturer")
    if last is not None and (not _is_int(last) or last not in (0, 1)):
        raise ScenarioError(f"last_capturer must be a side (0 or 1) or null, got {last!r}")
    last = None if last is None else int(last)
    if last is not None and cards[last] == 0:
        raise ScenarioError(f"last_capturer {last} cannot be a side that captured no card")
    if (
        last is None
        and table
        and cards[0] + cards[1] > 0
        and c.rules.leftover_cards == "last_capturer"
    ):
        raise ScenarioError(
            "last_capturer is needed: leftover_cards is last_capturer and cards were captured"
        )
    before = list(c.scores)
    board = c.board()
    count = end_of_data(c.rules, cards, len(table), last, c.leader % 2, before)
    for credit in count.credits:
        board.credit(credit.side, credit.points)
    return {**_result(before, board), "cards": list(count.cards)}


# --------------------------------------------------------------------------- kind: solve
def _solve(obj: dict[str, Any], c: _Common) -> dict[str, Any]:
    rules, n = c.rules, c.players
    for name in ("table", "hands", "cards"):
        if name not in obj:
            raise ScenarioError(f"missing field {name} in a solve scenario")
    deals = deals_per_data(n)
    deal = _int_field(obj, "deal", deals)
    if deal != deals:
        raise ScenarioError(
            f"solve works only in the last deal of a data (deal {deals} with {n} players, "
            f"R2.2), where every card not captured is in a hand or on the table; got deal {deal}"
        )
    seat = _int_field(obj, "seat", c.leader)
    _check_seat(seat, n, "seat")
    table_ranks = _ranks(_list(obj["table"], "table"), what="table")
    table = ranks_to_counts(table_ranks)
    hands = _solve_hands(obj["hands"], seat, c)
    held = [table[r] + sum(h[r] for h in hands) for r in range(10)]
    check_rank_counts(held, what="hands and table")
    cards = _list(obj["cards"], "cards")
    if len(cards) != 2 or not all(_is_int(x) and x >= 0 for x in cards):
        raise ScenarioError(
            f"cards must be [side 0, side 1] captured counts (whole numbers >= 0), got {cards!r}"
        )
    cards = [int(x) for x in cards]
    total = cards[0] + cards[1] + sum(held)
    if total != N_CARDS:
        made = (
            f"cards {cards[0]} + {cards[1]}, {sum(held) - len(table_ranks)} in hands and "
            f"{len(table_ranks)} on the table make {total}"
        )
        if total > N_CARDS:
            raise ScenarioError(f"{made}, more than the {N_CARDS} cards of the pack (R1.1)")
        raise ScenarioError(
            f"{made}: {N_CARDS - total} card(s) missing; solve is for the last deal, where "
            "every card not captured is in a hand or on the table"
        )
    last = obj.get("last_capturer")
    if last is not None and (not _is_int(last) or last not in (0, 1)):
        raise ScenarioError(f"last_capturer must be a side (0 or 1) or null, got {last!r}")
    last = None if last is None else int(last)
    if last is None and cards[0] + cards[1] > 0:
        raise ScenarioError("last_capturer is needed (side 0 or 1): cards were captured (R8.1)")
    if last is not None and cards[last] == 0:
        raise ScenarioError(f"last_capturer {last} cannot be a side that captured no card")
    rondas = _rondas(obj.get("rondas"), n)
    trail, _in_ronda = _previous(obj.get("previous"), seat, deal, table, rondas, c)
    turn = (5 - sum(hands[seat])) * n + (seat - c.leader) % n
    if turn == 0 and obj.get("previous") is not None and trail is not None:
        raise ScenarioError(
            "previous: the first play of a deal follows no trail of this deal (R6.1); give "
            'null, or {"seat": s, "trail": rank, "deal": k} with k the deal before'
        )
    check_rondas_held(rondas, hands)
    claims, order = claims_field(obj.get("claims"), obj.get("first_claim"), rules, rondas, hands)
    position = SolverPosition(
        rules=rules,
        players=n,
        dealer=c.dealer,
        deal=deal - 1,
        turn=turn,
        hands=tuple(tuple(h) for h in hands),
        rondas=tuple(tuple(r) for r in rondas),
        table=tuple(table),
        trail=trail,
        piles=(int(cards[0]), int(cards[1])),
        last_capturer=last,
        scores=(c.scores[0], c.scores[1]),
        claims=claims,
        claim_order=order,
        stop_at_target=True,
    )
    from .engine.solver import new_table  # the numba engine only for this kind

    tt = new_table()  # one transposition table for every solve of the principal line
    values = _kernel_values(position, tt)
    plays = position.plays()
    before = list(c.scores)
    board = c.board()
    # The principal line: every seat plays its first play of largest value (R9.2 crediting,
    # by the reference engine's step).
    line, line_values = position, values
    while True:
        best = max(line_values)
        transition = line.step(line.plays()[line_values.index(best)])
        for side in (0, 1):
            board.scores[side] += transition.points[side]
        if transition.child is None:
            board.winner = transition.winner
            break
        line = transition.child
        line_values = _kernel_values(line, tt)
    return {
        **_result(before, board),
        "values": [
            {"card": RANK_NAMES[p.rank], "base": format_ranks(p.base), "value": v}
            for p, v in zip(plays, values, strict=True)
        ],
        "best": max(values),
    }


def _kernel_values(position: SolverPosition, tt: SolverTable) -> list[int]:
    """The exact solver's values (:func:`cuarenta_sim.cuarenta.engine.solver.solve_counts`)
    of every legal play at a reference position, in canonical order."""
    # Imported here: the numba engine is loaded only by the scenarios that need it.
    from .engine.solver import solve_counts

    return solve_counts(position.rules, *position.kernel_args(), tt=tt)


def _solve_hands(value: object, seat: int, c: _Common) -> list[list[int]]:
    """Per seat rank counts of ``hands``, checked against the turn order (R3.3)."""
    n = c.players
    items = _list(value, "hands")
    if len(items) != n:
        raise ScenarioError(f"hands must list {n} hands (one per seat), got {len(items)}")
    hands = [
        ranks_to_counts(_ranks(_list(item, f"hands[{s}]"), what=f"hands[{s}]"))
        for s, item in enumerate(items)
    ]
    size = sum(hands[seat])
    if not 1 <= size <= CARDS_PER_DEAL:
        raise ScenarioError(
            f"hands[{seat}]: the seat to move holds 1 to {CARDS_PER_DEAL} cards, got {size}"
        )
    position = (seat - c.leader) % n
    for s in range(n):
        # Seats before the mover in this round (from the leader) have played one card more.
        want = size - 1 if (s - c.leader) % n < position else size
        if sum(hands[s]) != want:
            raise ScenarioError(
                f"hands[{s}] holds {sum(hands[s])} cards; with seat {seat} to move holding "
                f"{size}, seats that already played in this round (from the leader, seat "
                f"{c.leader}) hold {size - 1} and the others {size} (R3.3)"
            )
    return hands
