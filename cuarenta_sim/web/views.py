"""Words and card faces of the web pages, from a game's view, through the message catalogue.

Pure functions of the dictionaries :meth:`cuarenta_sim.web.play.WebGame.view` returns: the
text of a legal play with what it scores, of a public event, and the face of a card (rank and
suit symbol). No rule is decided here: the numbers come from the engine.
"""

from __future__ import annotations

from typing import Any

from .messages import text

#: Suit letters (``cuarenta_sim.cuarenta.cards.SUIT_NAMES``) to their symbols.
SUIT_SYMBOLS = {"h": "♥", "d": "♦", "c": "♣", "s": "♠"}


def card_face(name: str) -> dict[str, Any]:
    """``{"name", "rank", "suit", "red"}`` of a card name such as ``"7h"`` (rank, suit)."""
    rank, suit = name[:-1], name[-1]
    return {"name": name, "rank": rank, "suit": SUIT_SYMBOLS[suit], "red": suit in "hd"}


def play_text(lang: str, row: dict[str, Any]) -> str:
    """A legal play in words with its score now, e.g. ``"7 suma A+6 · escalera J Q · +2 puntos"``.

    Parameters
    ----------
    lang : str
        ``es`` or ``en``.
    row : dict
        One entry of the view's ``legal`` list.
    """
    base = "+".join(row["base"])
    head = text(lang, row["kind"], card=row["card"], base=base)
    parts = [head]
    if row["run"]:
        parts.append(text(lang, "run", ranks=" ".join(row["run"])))
    flags = [k for k in ("caida", "caida_en_ronda", "limpia") if row[k]]
    parts.extend(text(lang, k) for k in flags)
    if row["points"]:
        parts.append(text(lang, "points", n=row["points"]))
    if row["claim"]:
        parts.append(text(lang, "claim", n=row["claim"]))
    if not row["points"] and not row["claim"]:
        parts.append(text(lang, "no_points"))
    return " · ".join(parts)


def event_text(lang: str, event: dict[str, Any], you_side: int) -> str:
    """A public event of the data in words (the view's ``events`` entries)."""
    kind = event["kind"]
    who = text(lang, "you" if event.get("who") == "you" else "the_bot")
    if kind == "play":
        base = "+".join(event["base"])
        rank = event["card"][:-1]
        if not base:
            what = text(lang, "trail", card=event["card"])
        elif base == rank:
            what = text(lang, "match", card=event["card"], base=base)
        else:
            what = text(lang, "sum", card=event["card"], base=base)
        parts = [text(lang, "ev_play", who=who, what=what)]
        if event["run"]:
            parts.append(text(lang, "run", ranks=" ".join(event["run"])))
        parts.extend(text(lang, k) for k in ("caida", "limpia") if event[k])
        gained = max(event["points"])
        if gained:
            parts.append(text(lang, "points", n=gained))
        return " · ".join(parts)
    if kind in ("ronda", "doble"):
        key = "ev_ronda" if kind == "ronda" else "ev_doble"
        return text(lang, key, who=who, rank=event["rank"], n=max(event["points"]))
    a, b = event["points"][you_side], event["points"][1 - you_side]
    if kind == "claims":
        return text(lang, "ev_claims", a=a, b=b)
    cards = event["cards"]
    return text(lang, "ev_end", a=cards[you_side], b=cards[1 - you_side], pa=a, pb=b)


def page_context(lang: str, view: dict[str, Any]) -> dict[str, Any]:
    """What the game page's template reads: the view with card faces and words added."""
    me = view["you"] % 2
    scores = view["scores"]
    words = [event_text(lang, e, me) for e in view["events"]]
    result = None
    if view["status"] == "over":
        winner = view["winner"]
        key = "draw" if winner is None else ("you_won" if winner == me else "bot_won")
        result = text(lang, "game_over", a=scores[me], b=scores[1 - me]) + " " + text(lang, key)
    return {
        "view": view,
        "hand": [card_face(c) for c in view["hand"]],
        "table": [card_face(c) for c in view["table"]],
        "legal": [{**row, "text": play_text(lang, row)} for row in view["legal"]],
        "events": words,
        "my_score": scores[me],
        "bot_score": scores[1 - me],
        "my_pile": view["piles"][me],
        "bot_pile": view["piles"][1 - me],
        "result": result,
    }


__all__ = ["SUIT_SYMBOLS", "card_face", "event_text", "page_context", "play_text"]
