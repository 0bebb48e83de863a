"""Outputs of a game review (:func:`cuarenta_sim.cuarenta.review.review_record`): a terminal
table, a Markdown page with its figure beside it, an HTML page with the figure embedded, and
the figure itself (points lost per decision, a bar per play coloured by seat).
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any


def _play(p: dict[str, Any]) -> str:
    base = "+".join(p["base"])
    return f"{p['card']} trail" if not base else f"{p['card']} on {base}"


def _num(x: float | int) -> str:
    return f"{x:.2f}" if isinstance(x, float) else str(x)


def summary_rows(review: dict[str, Any]) -> list[list[str]]:
    """Per seat: seat, name, decisions, points lost, mean, exact, caidas given, hindsight lost."""
    return [
        [
            str(s["seat"]),
            s["name"][:24],
            str(s["decisions"]),
            _num(s["lost"]),
            _num(s["mean_lost"]),
            str(s["exact"]),
            str(s["caidas_given"]),
            f"{s['hindsight_lost']} ({s['hindsight_decisions']})",
        ]
        for s in review["seats"]
    ]


SUMMARY_HEAD = [
    "seat",
    "name",
    "decisions",
    "points lost",
    "per decision",
    "exact",
    "caidas given",
    "hindsight lost (decisions)",
]
MISTAKE_HEAD = ["play #", "data", "deal", "seat", "played", "advised", "points lost", "exact"]


def mistake_rows(review: dict[str, Any]) -> list[list[str]]:
    """The largest mistakes: play index, data, deal, seat, play made, advised, lost, exact."""
    return [
        [
            str(m["index"]),
            str(m["data"]),
            str(m["deal"]),
            str(m["seat"]),
            _play(m["play"]),
            _play(m["advised"]),
            _num(m["lost"]),
            "yes" if m["exact"] else "no",
        ]
        for m in review["mistakes"]
    ]


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[j]) for r in [head, *rows]) for j in range(len(head))]
    return [
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [head, ["-" * w for w in widths], *rows]
    ]


def _header(review: dict[str, Any]) -> str:
    scores = review["result"]["scores"]
    return (
        f"Cuarenta {review['rules']}, {review['players']} players, {review['episode']}: "
        f"{len(review['decisions'])} decisions, final scores {scores[0]}-{scores[1]}, "
        f"winner side {review['result']['winner']}; {review['samples']} worlds per sampled "
        f"decision, seed {review['seed']}"
    )


NOTE = (
    "Points lost: the advised play's value minus the play made's (the seat's side's points "
    "minus the other side's to the end of the data, expected over what the seat could not "
    "see; exact in the last deal with 2 players, else sampled). Hindsight: every hand known "
    "(solve), in the data's last deal only."
)


def text_report(review: dict[str, Any]) -> str:
    """The terminal table: header, per seat totals, the largest mistakes."""
    lines = [_header(review), "", *_table(SUMMARY_HEAD, summary_rows(review)), ""]
    if review["mistakes"]:
        lines += ["Largest mistakes:", *_table(MISTAKE_HEAD, mistake_rows(review))]
    else:
        lines.append("No play lost points.")
    lines += ["", NOTE]
    return "\n".join(lines)


def figure_png(review: dict[str, Any]) -> bytes:
    """PNG bytes of the figure: points lost per decision (bars coloured by seat, x = play index)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..plot_axes import COLORS

    fig, ax = plt.subplots(figsize=(10, 3.4))
    rows = review["decisions"]
    for s in range(review["players"]):
        mine = [r for r in rows if r["seat"] == s]
        ax.bar(
            [r["index"] for r in mine],
            [r["lost"] for r in mine],
            color=COLORS[s % len(COLORS)],
            label=f"seat {s} {review['names'][s].split('(')[0][:20]}",
            width=0.8,
        )
    starts = [
        r["index"]
        for a, r in zip([None, *rows], rows, strict=False)
        if a is None or a["deal"] != r["deal"]
    ]
    for x in starts[1:]:  # a dotted line where each deal begins
        ax.axvline(x - 0.5, color="0.7", linestyle=":", linewidth=0.8)
    ax.set_xlabel("decision (play index in the game; dotted: a new deal)")
    ax.set_ylabel("points lost")
    ax.set_title("Expected points lost per decision (from the seat's information)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def markdown_report(review: dict[str, Any], figure: str) -> str:
    """A Markdown page; ``figure`` is the PNG's file name, written beside it."""

    def table(head: list[str], rows: list[list[str]]) -> list[str]:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return out + ["| " + " | ".join(r) + " |" for r in rows]

    lines = ["# Game review", "", _header(review), "", *table(SUMMARY_HEAD, summary_rows(review))]
    lines += ["", f"![Points lost per decision]({figure})", ""]
    if review["mistakes"]:
        lines += ["## Largest mistakes", "", *table(MISTAKE_HEAD, mistake_rows(review)), ""]
    lines += [NOTE, ""]
    return "\n".join(lines)


def html_report(review: dict[str, Any], png: bytes) -> str:
    """A standalone HTML page with the figure embedded (base64 PNG)."""

    def table(head: list[str], rows: list[list[str]]) -> str:
        th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows
        )
        return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"

    img = base64.b64encode(png).decode("ascii")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Game review</title>',
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}</style>",
        "</head><body><h1>Game review</h1>",
        f"<p>{html.escape(_header(review))}</p>",
        table(SUMMARY_HEAD, summary_rows(review)),
        f'<p><img alt="Points lost per decision" src="data:image/png;base64,{img}"></p>',
    ]
    if review["mistakes"]:
        parts += ["<h2>Largest mistakes</h2>", table(MISTAKE_HEAD, mistake_rows(review))]
    parts += [f"<p>{html.escape(NOTE)}</p>", "</body></html>", ""]
    return "\n".join(parts)


__all__ = ["figure_png", "html_report", "markdown_report", "text_report"]
