"""Reports: estimate tables as plain text and Markdown, and report directories on disk.

A report is generated, never hand-edited (``docs/design.md``): a directory holding
``report.md`` (headed sections of Markdown) and ``provenance.json`` (everything needed to
reproduce the numbers), committed together through :mod:`cuarenta_sim.outputs`.

The helpers are game-independent: they take estimate frames with the columns of
:data:`cuarenta_sim.stats.ESTIMATE_COLUMNS` and plain strings. Each game's summaries are in
its subpackage (:mod:`cuarenta_sim.cuarenta.summaries`, :mod:`cuarenta_sim.cuatrola.summaries`).
"""

from __future__ import annotations

import json
import math
import os
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .outputs import staged
from .stats import ESTIMATE_COLUMNS

#: Largest number of decimals :func:`format_estimate` prints.
MAX_DECIMALS = 8

#: Width of console tables: the command line's output fits 100 columns.
CONSOLE_WIDTH = 100
#: Narrowest a text column is wrapped to when a console table is too wide.
MIN_WRAP = 16

REPORT_FILE = "report.md"
PROVENANCE_FILE = "provenance.json"


# --------------------------------------------------------------------------- numbers
def estimate_decimals(lower: float, upper: float, *, fallback: int = 4) -> int:
    """Number of decimals that shows an interval's half-width to two significant digits.

    Parameters
    ----------
    lower, upper : float
        Interval bounds (any units). NaN bounds or a zero-width interval use ``fallback``.
    fallback : int
        Decimals to use when the interval gives no scale.

    Returns
    -------
    int
        Between 0 and :data:`MAX_DECIMALS`.
    """
    half = (upper - lower) / 2.0
    if not math.isfinite(half) or half <= 0.0:
        return fallback
    # The small slack keeps a half-width such as 0.0999999... on the 0.1 side.
    return int(min(MAX_DECIMALS, max(0, 1 - math.floor(math.log10(half) + 1e-9))))


def format_number(value: float, decimals: int) -> str:
    """Format ``value`` with ``decimals`` decimals; NaN prints as ``"n/a"``.

    Parameters
    ----------
    value : float
        The number.
    decimals : int
        Digits after the decimal point (>= 0).

    Returns
    -------
    str
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{decimals}f}"


def format_significant(value: float, digits: int = 2, min_decimals: int = 2) -> str:
    """Format ``value`` with at least ``digits`` significant digits and ``min_decimals``
    decimals, so a small non-zero number never prints as zero (0.0015 -> ``"0.0015"``, not
    ``"0.00"``; 0.1 -> ``"0.10"``; 1.5 -> ``"1.50"``). NaN prints as ``"n/a"``, 0 as ``"0.00"``.

    Parameters
    ----------
    value : float
        The number (e.g. a practical margin).
    digits : int
        Significant digits kept (>= 1).
    min_decimals : int
        Fewest digits after the decimal point (>= 0).

    Returns
    -------
    str
    """
    if value is None or not math.isfinite(float(value)):
        return "n/a"
    v = float(value)
    decimals = min_decimals
    if v != 0.0:
        decimals = max(min_decimals, digits - 1 - math.floor(math.log10(abs(v))))
    text = f"{v:.{decimals}f}"
    if v != 0.0 and float(text) == 0.0:  # rounding up to a power of ten cannot reach 0
        text = f"{v:.{decimals + 1}f}"
    return text


def interval_header(confidence: float) -> str:
    """Column title of an interval at ``confidence`` (e.g. ``"95% interval"``).

    Parameters
    ----------
    confidence : float
        Two-sided confidence level in (0, 1).

    Returns
    -------
    str
    """
    return f"{100.0 * confidence:g}% interval"


def estimate_rows(estimates: pd.DataFrame) -> list[list[str]]:
    """Turn an estimate frame into rows of strings: metric, estimate, interval, n, method.

    Each estimate and its bounds share the number of decimals given by
    :func:`estimate_decimals`, so the printed precision matches the sampling error.

    Parameters
    ----------
    estimates : DataFrame
        Columns :data:`cuarenta_sim.stats.ESTIMATE_COLUMNS` (``metric``, ``estimate``,
        ``lower``, ``upper``, ``n``, ``method``, ``defined``).

    Returns
    -------
    list of list of str
        One row of five strings per estimate; an undefined interval prints as ``"undefined"``.

    Raises
    ------
    KeyError
        If a required column is missing.
    """
    rows = []
    for rec in estimates[ESTIMATE_COLUMNS].itertuples(index=False):
        dec = estimate_decimals(rec.lower, rec.upper)
        if rec.defined:
            interval = f"[{format_number(rec.lower, dec)}, {format_number(rec.upper, dec)}]"
        else:
            interval = "undefined"
        rows.append(
            [str(rec.metric), format_number(rec.estimate, dec), interval, f"{rec.n:,}", rec.method]
        )
    return rows


# --------------------------------------------------------------------------- tables
def text_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    right: Sequence[int] = (),
    width: int | None = CONSOLE_WIDTH,
) -> str:
    """Render an aligned plain-text table (for terminals), at most ``width`` columns wide.

    A table wider than ``width`` is first narrowed by wrapping its left-aligned (text) columns
    onto continuation lines, widest first, down to :data:`MIN_WRAP` characters; if it is still
    too wide it is split into stacked tables that each repeat the first (key) column.

    Parameters
    ----------
    headers : sequence of str
        Column titles.
    rows : sequence of sequences
        Cells, converted with ``str``; every row has ``len(headers)`` cells.
    right : sequence of int
        Indices of the columns to right-align (numbers); the others are left-aligned and may be
        wrapped.
    width : int or None
        Largest line length in characters; None never wraps nor splits.

    Returns
    -------
    str
        The header, a rule of dashes and the rows, lines joined by ``"\\n"`` (no final
        newline); stacked tables are separated by a blank line.

    Raises
    ------
    ValueError
        If a row does not have as many cells as there are headers.
    """
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    for row in cells:
        if len(row) != len(headers):
            raise ValueError(f"table row has {len(row)} cells, expected {len(headers)}: {row}")
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    if width is not None:
        floors = [
            max(min(MIN_WRAP, w), *(len(t) for row in cells for t in _tokens(row[i])))
            for i, w in enumerate(widths)
        ]
        _narrow(widths, floors, set(right), width)
        if _span(widths) > width and len(headers) > 2:
            groups = _column_groups(widths, width)
            if len(groups) > 1:
                return "\n\n".join(
                    text_table(
                        [headers[i] for i in group],
                        [[row[i] for i in group] for row in rows],
                        right=[k for k, i in enumerate(group) if i in right],
                        width=width,
                    )
                    for group in groups
                )

    def lines(row: list[str]) -> list[str]:
        wrapped = [
            _wrap(cell, w) if len(cell) > w else [cell] for cell, w in zip(row, widths, strict=True)
        ]
        out = []
        for k in range(max(len(parts) for parts in wrapped)):
            parts = [
                (p[k] if k < len(p) else "").rjust(w)
                if i in right
                else (p[k] if k < len(p) else "").ljust(w)
                for i, (p, w) in enumerate(zip(wrapped, widths, strict=True))
            ]
            out.append("  ".join(parts).rstrip())
        return out

    rule = "  ".join("-" * w for w in widths)
    body = [line for row in cells[1:] for line in lines(row)]
    return "\n".join([*lines(cells[0]), rule, *body])


def _span(widths: Sequence[int]) -> int:
    """Line length of a table with these column widths (two spaces between columns)."""
    return sum(widths) + 2 * (len(widths) - 1)


def _protect(text: str) -> str:
    """``text`` with the spaces inside brackets made unbreakable: an interval ``[0.10, 0.20]``
    is never split over two lines."""
    return re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(" ", "\xa0"), text)


def _tokens(text: str) -> list[str]:
    """The unbreakable pieces of a cell (words, whole intervals)."""
    return [t for t in _protect(text).split(" ") if t] or [""]


def _wrap(text: str, width: int) -> list[str]:
    """``text`` wrapped to ``width`` at spaces outside brackets."""
    lines = textwrap.wrap(_protect(text), width, break_long_words=False, break_on_hyphens=False)
    return [line.replace("\xa0", " ") for line in lines] or [""]


def _narrow(widths: list[int], floors: list[int], right: set[int], width: int) -> None:
    """Shrink the left-aligned columns of ``widths`` in place, widest first, to fit ``width``
    (none below its floor: :data:`MIN_WRAP` or its longest unbreakable piece)."""
    while _span(widths) > width:
        candidates = [i for i, w in enumerate(widths) if i not in right and w > floors[i]]
        if not candidates:
            return
        # One character at a time from the widest: the text columns end up balanced.
        widths[max(candidates, key=lambda j: widths[j])] -= 1


def _column_groups(widths: Sequence[int], width: int) -> list[list[int]]:
    """Split columns 1.. into groups that fit ``width`` next to column 0 (each group at least
    one column)."""
    groups: list[list[int]] = []
    current = [0]
    for i in range(1, len(widths)):
        if len(current) > 1 and _span([widths[j] for j in [*current, i]]) > width:
            groups.append(current)
            current = [0]
        current.append(i)
    groups.append(current)
    return groups


def markdown_table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], *, right: Sequence[int] = ()
) -> str:
    """Render a GitHub-flavoured Markdown table; ``|`` inside cells is escaped.

    Parameters
    ----------
    headers : sequence of str
        Column titles.
    rows : sequence of sequences
        Cells, converted with ``str``; every row has ``len(headers)`` cells.
    right : sequence of int
        Indices of the columns to right-align.

    Returns
    -------
    str
        The table, lines joined by ``"\\n"`` (no final newline).

    Raises
    ------
    ValueError
        If a row does not have as many cells as there are headers.
    """

    def esc(cell: object) -> str:
        return str(cell).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(esc(h) for h in headers) + " |"]
    out.append("|" + "|".join("---:" if i in right else "---" for i in range(len(headers))) + "|")
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"table row has {len(row)} cells, expected {len(headers)}: {row}")
        out.append("| " + " | ".join(esc(c) for c in row) + " |")
    return "\n".join(out)


def estimates_table(
    estimates: pd.DataFrame, *, confidence: float = 0.95, markdown: bool = False
) -> str:
    """Render an estimate frame as a table: metric, estimate, interval, n, method.

    Parameters
    ----------
    estimates : DataFrame
        Columns :data:`cuarenta_sim.stats.ESTIMATE_COLUMNS`.
    confidence : float
        Confidence level the intervals were computed at (only labels the column).
    markdown : bool
        Markdown (true) or aligned plain text (false).

    Returns
    -------
    str
        The table, without a final newline.
    """
    headers = ["metric", "estimate", interval_header(confidence), "n", "method"]
    render = markdown_table if markdown else text_table
    return render(headers, estimate_rows(estimates), right=(1, 3))


# --------------------------------------------------------------------------- reports
@dataclass
class Report:
    """A generated report: a title, Markdown sections and the provenance of its numbers.

    Attributes
    ----------
    title : str
        First-level heading of ``report.md``.
    provenance : dict
        JSON-serialisable record of how the numbers were made; written to
        ``provenance.json`` and summarised at the end of ``report.md``.
    command : str or None
        A shell command that reproduces the numbers, shown in ``report.md``.
    sections : list of (str, str)
        ``(heading, markdown body)`` pairs, rendered in order as second-level sections.
    """

    title: str
    provenance: dict[str, Any]
    command: str | None = None
    sections: list[tuple[str, str]] = field(default_factory=list)

    def add(self, heading: str, body: str) -> None:
        """Append a section.

        Parameters
        ----------
        heading : str
            Section title (rendered as ``## heading``).
        body : str
            Markdown text of the section.
        """
        self.sections.append((heading, body.strip()))

    def to_markdown(self) -> str:
        """Render the whole report as Markdown.

        Returns
        -------
        str
            The title, every section, a "Reproduce" section with :attr:`command` (when set)
            and a "Provenance" section listing the top-level provenance entries; ends with a
            newline.
        """
        parts = [f"# {self.title}", "_Generated file: do not edit by hand._"]
        for heading, body in self.sections:
            parts += [f"## {heading}", body]
        if self.command:
            parts += ["## Reproduce", f"```sh\n{self.command}\n```"]
        rows = [[key, f"`{_short(value)}`"] for key, value in self.provenance.items()]
        parts += [
            "## Provenance",
            f"Full record in `{PROVENANCE_FILE}`.\n\n" + markdown_table(["key", "value"], rows),
        ]
        return "\n\n".join(parts) + "\n"

    def write(self, directory: str | os.PathLike[str]) -> tuple[Path, Path]:
        """Write ``report.md`` and ``provenance.json`` into ``directory``, committed together.

        Parameters
        ----------
        directory : str or PathLike
            Created (with parents) if missing; existing files of the same names are replaced.

        Returns
        -------
        (Path, Path)
            Paths of ``report.md`` and ``provenance.json``.

        Raises
        ------
        OSError
            If the directory cannot be created or a file cannot be written; then neither
            file is replaced (:func:`cuarenta_sim.outputs.staged`).
        """
        finals = self.paths(directory)
        with staged(finals) as (md, prov):
            self.write_files(md, prov)
        return finals

    @staticmethod
    def paths(directory: str | os.PathLike[str]) -> tuple[Path, Path]:
        """``report.md`` and ``provenance.json`` in ``directory``."""
        out = Path(directory)
        return out / REPORT_FILE, out / PROVENANCE_FILE

    def write_files(self, md: str | os.PathLike[str], prov: str | os.PathLike[str]) -> None:
        """Write the Markdown to ``md`` and the provenance JSON to ``prov``, directly (the
        caller commits them; :meth:`write` does)."""
        provenance = dict(self.provenance)
        if self.command:
            provenance.setdefault("command", self.command)
        text = json.dumps(provenance, indent=2, sort_keys=True, default=str) + "\n"
        Path(prov).write_text(text, encoding="utf-8")
        Path(md).write_text(self.to_markdown(), encoding="utf-8")


def _short(value: object, limit: int = 80) -> str:
    if isinstance(value, dict):
        return f"{len(value)} entries, see {PROVENANCE_FILE}"
    if isinstance(value, list | tuple):
        value = ", ".join(str(v) for v in value)
    text = str(value).replace("|", "/").replace("`", "'").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------- Cuarenta builders


def simulation_report(
    *,
    game: Any,
    rules: Any,
    summaries: Mapping[str, pd.DataFrame],
    provenance: dict[str, Any],
    command: str,
    throughput: Mapping[str, str],
    confidence: float = 0.95,
) -> Report:
    """Build the report of one simulation run of any game (``cuarenta-sim simulate --report``).

    Parameters
    ----------
    game : cuarenta_sim.game.Game
        The game simulated (its rules rows, spec document and unit names).
    rules : rule set
        The rules simulated; the report lists its slug and every switch.
    summaries : mapping of str to DataFrame
        Section title -> estimate frame (columns :data:`cuarenta_sim.stats.ESTIMATE_COLUMNS`),
        e.g. ``Game.summaries`` of the run.
    provenance : dict
        The run's provenance (JSON-serialisable).
    command : str
        Shell command that reproduces the run.
    throughput : mapping of str to str
        Measured figures to list (e.g. ``{"datas per second": "1.2M"}``).
    confidence : float
        Confidence level the intervals were computed at (labels the columns).

    Returns
    -------
    Report
        Call :meth:`Report.write` to put it on disk.
    """
    report = Report(
        title=f"{game.title} simulation: {rules.slug()}", provenance=provenance, command=command
    )
    hands = game.unit(game.levels[0])
    for title, frame in summaries.items():
        body = (
            f"Estimates with {interval_header(confidence)}s; `n` is the sample size ({hands} or "
            f"games), `method` the interval (wilson: proportion; normal: mean of independent "
            f"values; ratio: ratio of sums with a delta-method error).\n\n"
            + estimates_table(frame, confidence=confidence, markdown=True)
        )
        report.add(title, body)
    report.add(
        "Rules",
        f"Slug: `{rules.slug()}` (spec: `{game.spec_doc}`). A `*` marks a switch that differs "
        f"from the base preset.\n\n"
        + markdown_table(["switch", "value", "base preset"], game.rules_rows(rules)),
    )
    report.add(
        "Run",
        markdown_table(["figure", "value"], [[k, v] for k, v in throughput.items()], right=(1,)),
    )
    return report
