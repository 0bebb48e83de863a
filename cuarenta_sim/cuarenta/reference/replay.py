"""A play-by-play text of a reference game that a player can check by eye.

:func:`format_game` prints the rules slug, seed and dealers, the cards dealt in every deal with
their suits, the announcements (R4), every play with its base, run, caida and limpia and the
points it earned (R5 to R7), the end-of-deal claims (R6.4), the end-of-data count (R8), the
running scores and the winner, with zapateria (R9.3).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import RANK_NAMES, card_name
from .events import (
    AnnounceEvent,
    ChicaEnd,
    ClaimsEvent,
    DataStart,
    DealEvent,
    EndEvent,
    PlayEvent,
)
from .game import GameLog
from .scoring import DOBLE_RONDA
from .state import side_of


def _cards(cards: Iterable[int]) -> str:
    text = " ".join(card_name(c) for c in sorted(cards))
    return text or "-"


def _score(scores: tuple[int, int]) -> str:
    return f"{scores[0]}-{scores[1]}"


def _points(points: tuple[int, int]) -> str:
    return ", ".join(f"side {k} +{p}" for k, p in enumerate(points) if p) or "no points"


def _announce(e: AnnounceEvent) -> str:
    what = "doble ronda" if e.flag == DOBLE_RONDA else "ronda"
    line = f"  seat {e.seat} announces {what} of {RANK_NAMES[e.rank]}"
    if e.wins:
        return line + f": wins the chica at once (R4.2); scores {_score(e.scores)}"
    if e.flag == DOBLE_RONDA and not e.value and not any(e.points):
        return line + f" (recorded, no points); scores {_score(e.scores)}"
    blocked = "" if e.value else " (blocked: no points)"
    return line + f"{blocked}: {_points(e.points)}; scores {_score(e.scores)}"


def _play(e: PlayEvent) -> str:
    out, moved = e.outcome, e.moved
    played = card_name(moved.played)
    if out.play.is_trail:
        return f"  seat {e.seat} trails {played}; table {_cards(e.table)}"
    kind = "match" if out.play.is_match else "sum " + "+".join(RANK_NAMES[r] for r in out.play.base)
    parts = [f"  seat {e.seat} plays {played}: {kind} ({_cards(moved.base)})"]
    if moved.run:
        parts.append(f", run {_cards(moved.run)}")
    marks = []
    if out.caida:
        marks.append("caida en ronda" if out.caida_en_ronda else "caida")
    if out.limpia:
        marks.append("limpia")
    if marks:
        parts.append("; " + " + ".join(marks))
    side = side_of(e.seat)
    parts.append(f"; takes {1 + len(moved.base) + len(moved.run)} (pile {e.pile})")
    if any(e.points):
        parts.append(f"; {_points(e.points)}")
    if out.claim:
        parts.append(f"; side {side} claims {out.claim} for the end of the deal")
    parts.append(f"; table {_cards(e.table)}; scores {_score(e.scores)}")
    return "".join(parts)


def _claims(e: ClaimsEvent) -> str:
    held = ", ".join(f"side {k} {e.claimed[k]}" for k in e.order)
    return f"  end of deal {e.deal + 1} claims ({held}): {_points(e.points)}; scores " + _score(
        e.scores
    )


def _end(e: EndEvent) -> list[str]:
    c = e.count
    lines = [f"  end of data: cards {c.cards_before[0]}-{c.cards_before[1]}"]
    if c.leftover:
        where = "nobody" if c.leftover_to is None else f"side {c.leftover_to}"
        lines.append(f"    table left {_cards(e.leftover_cards)} -> {where}")
        lines.append(f"    cards after leftovers {c.cards[0]}-{c.cards[1]}")
    for credit in c.credits:
        lines.append(f"    side {credit.side}: {credit.what}: {credit.points}")
    lines.append(f"    {_points(e.points)}; scores {_score(e.scores)}")
    return lines


def format_game(log: GameLog) -> str:
    """Return the play-by-play text of a reference game.

    Parameters
    ----------
    log : GameLog
        From :func:`cuarenta_sim.cuarenta.reference.play_game`.

    Returns
    -------
    str
        Several lines: a header (rules slug, players, policies, seed, level, index, first
        dealer), then per data its dealer and scores, per deal the cards dealt (with suits)
        and the table, the announcements, each play (base, run, caida / limpia, points,
        claims, table, scores), the claims credited, the end-of-data count, and each chica's
        (and the mesa's) winner with zapateria.
    """
    seats = ", ".join(f"seat {s} {name}" for s, name in enumerate(log.policies))
    lines = [
        "Cuarenta reference replay",
        f"rules: {log.rules.slug()}; players: {log.players}; policies: {seats}",
        f"seed: {log.seed}; level: {log.level}; index: {log.index}; "
        f"first dealer: seat {log.first_dealer}",
    ]
    for e in log.events:
        if isinstance(e, DataStart):
            chica = f"chica {e.chica + 1}, " if log.level == "mesa" else ""
            lines.append("")
            lines.append(
                f"== {chica}data {e.data} (hand {e.hand}): dealer seat {e.dealer}, "
                f"scores {_score(e.scores)} =="
            )
        elif isinstance(e, DealEvent):
            lines.append(f" deal {e.deal + 1}: table {_cards(e.table)}")
            for seat, cards in enumerate(e.hands):
                lines.append(f"  seat {seat} (side {side_of(seat)}) is dealt {_cards(cards)}")
        elif isinstance(e, AnnounceEvent):
            lines.append(_announce(e))
        elif isinstance(e, PlayEvent):
            lines.append(_play(e))
        elif isinstance(e, ClaimsEvent):
            lines.append(_claims(e))
        elif isinstance(e, EndEvent):
            lines.extend(_end(e))
        elif isinstance(e, ChicaEnd):
            lines.append("")
            if e.winner < 0:
                lines.append(f"Chica {e.chica + 1} stopped unfinished (truncated)")
            else:
                zap = " (zapateria)" if e.zapateria else ""
                lines.append(f"Chica {e.chica + 1} won by side {e.winner}, {_score(e.scores)}{zap}")
    if log.level == "data":
        s0, s1 = log.trace[-1, 14], log.trace[-1, 15]
        lines.append("")
        lines.append(f"Data over: points {s0}-{s1}")
    elif log.game is not None and log.level == "mesa":
        g = log.game
        zap = " (first-chica zapateria)" if g["zapateria"] else ""
        lines.append(f"Mesa won by side {g['winner']}, chicas {g['chicas_0']}-{g['chicas_1']}{zap}")
    return "\n".join(lines) + "\n"
