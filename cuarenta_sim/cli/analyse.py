"""``cuarenta-sim analyse GAME.json``: review a Cuarenta game record play by play.

The record (``docs/game_record.md``) is checked with the rules engine
(:func:`cuarenta_sim.cuarenta.game_record.load_record`), every decision is valued
(:func:`cuarenta_sim.cuarenta.review.review_record`) and the review is printed as a table; it
can also be written as JSON (``--json``) and as a Markdown page with its figure beside it
(``--md``, the PNG next to it) or an HTML page with the figure embedded (``--html``). Every
output is written atomically, all of them as one commit (:func:`cuarenta_sim.outputs.staged`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .options import OUTPUT, _opt


def analyse(
    record: Annotated[
        str, typer.Argument(help="A Cuarenta game record (JSON, docs/game_record.md).")
    ],
    json_out: Annotated[
        str | None, _opt("--json", "Write the whole review as JSON to this file.", OUTPUT)
    ] = None,
    html_out: Annotated[
        str | None,
        _opt("--html", "Write an HTML page with the figure embedded to this file.", OUTPUT),
    ] = None,
    md_out: Annotated[
        str | None,
        _opt("--md", "Write a Markdown page to this file, its figure (.png) beside it.", OUTPUT),
    ] = None,
    samples: Annotated[
        int, _opt("--samples", "Worlds per decision the seat cannot see fully (2..10,000).")
    ] = 256,
    seed: Annotated[int, _opt("--seed", "Seed of the sampled worlds (0..2**62).")] = 0,
) -> None:
    """Check a game record, value every decision and print (and write) the review.

    Parameters
    ----------
    record : str
        Path of the record.
    json_out, html_out, md_out : str, optional
        Output files; ``--html`` and ``--md`` exclude each other.
    samples : int
        Worlds per sampled decision (2..10,000).
    seed : int
        Decision ``i`` draws its worlds with seed ``seed + i`` (0..2**62).

    Raises
    ------
    ValueError
        A record the rules refuse (one line naming the field and the play index), bad
        options: exit status 2.
    """
    from ..cuarenta.game_record import load_record
    from ..cuarenta.review import review_record
    from ..cuarenta.review_output import figure_png, html_report, markdown_report, text_report
    from ..outputs import staged

    if html_out and md_out:
        raise ValueError("give --html or --md, not both (one page per review)")
    if not 2 <= samples <= 10_000:
        raise ValueError(f"--samples must be 2..10,000 (worlds per decision), got {samples}")
    if not 0 <= seed <= 2**62:
        raise ValueError(f"--seed must be a whole number 0..2**62, got {seed}")
    checked = load_record(record)
    review = review_record(checked, samples=samples, seed=seed)
    review["record"] = str(record)
    finals: list[tuple[str, Path]] = []
    if json_out:
        finals.append(("json", Path(json_out)))
    if html_out:
        finals.append(("html", Path(html_out)))
    if md_out:
        md = Path(md_out)
        finals += [("md", md), ("png", md.with_suffix(".png"))]
    if finals:
        png = figure_png(review) if (html_out or md_out) else b""
        with staged([p for _, p in finals]) as tmps:
            for (kind, final), tmp in zip(finals, tmps, strict=True):
                if kind == "json":
                    tmp.write_text(json.dumps(review, indent=1) + "\n", encoding="utf-8")
                elif kind == "html":
                    tmp.write_text(html_report(review, png), encoding="utf-8")
                elif kind == "md":
                    tmp.write_text(
                        markdown_report(review, final.with_suffix(".png").name), encoding="utf-8"
                    )
                else:
                    tmp.write_bytes(png)
    typer.echo(text_report(review))
    for _, final in finals:
        typer.echo(f"wrote {final}")


COMMANDS = [
    (
        "analyse",
        analyse,
        "Review a Cuarenta game record: points each play lost from the seat's information "
        "(and, in the last deal, in hindsight); table, JSON, Markdown or HTML with a figure.",
    )
]
