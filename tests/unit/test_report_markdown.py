"""Committed reports render as Markdown: every table and heading starts a block of its own.

A Jinja2 ``{% endif %}`` at the end of a line eats its newline (``trim_blocks``), which once
glued the quito-vs-cuenca panel table to the paragraph before it, so the table rendered as
text. Both engines of GitHub-flavoured Markdown need a blank line before a table.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPORTS = sorted((ROOT / "reports").glob("*/report.md")) + sorted(
    (ROOT / "reports").glob("*/openspiel.md")
)


def glued_blocks(text: str) -> list[str]:
    """Lines that open a table or heading right after a line of paragraph text."""
    lines = text.split("\n")
    bad = []
    for before, line in itertools.pairwise(lines):
        opens = line.startswith("|") or line.startswith("#")
        if opens and before.strip() and not before.startswith(("|", "#")):
            bad.append(f"{before[:60]!r} -> {line[:40]!r}")
    return bad


def test_the_check_sees_a_glued_table() -> None:
    assert glued_blocks("Some text.\n| a | b |\n|---|---|\n")
    assert not glued_blocks("Some text.\n\n| a | b |\n|---|---|\n")


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_tables_and_headings_start_their_own_block(report: Path) -> None:
    assert not glued_blocks(report.read_text(encoding="utf-8")), report
