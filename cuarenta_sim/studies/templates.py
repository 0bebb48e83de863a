"""Report prose from Jinja2 templates: the study computes numbers and tables, a template
writes the sentences.

Each report has one template, ``<game package>/templates/<study>.md.j2``, holding one macro
per report section; :func:`macros` loads it and the study calls the macros with its numbers,
tables (already rendered Markdown) and estimate rows. Templates shared by every game (the
interval-methods note) live in ``cuarenta_sim/studies/templates/`` and are found from any
game's templates (``{% from "methods.md.j2" import methods_note %}``). Templates are package
data (``pyproject.toml``: ``[tool.setuptools.package-data]``).

The environment has no autoescaping (the output is Markdown), fails on an undefined name
(:class:`jinja2.StrictUndefined`), and drops the newline after a block tag and the indentation
before it (``trim_blocks``, ``lstrip_blocks``), so a template reads like the text it writes.
Filters (number formatting, :mod:`cuarenta_sim.studies.framework`):

=====================  ===========================================================
``row | cell``         ``estimate [lower, upper]`` of an estimate row
                       (``cell(percent=true)`` as a percentage)
``row | diff``         a difference row (of percentages: in percentage points, ``pp``)
``row | rel``          the relative difference of a differences row
``x | thousands``      an integer with thousands separators (``1,000,000``)
``x | pct(d)``         ``100 x`` with ``d`` decimals and ``%``
``c | interval``       the interval's name at confidence ``c`` (``95% interval``)
=====================  ===========================================================
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jinja2

from ..reports import interval_header
from .framework import diff_cell, rel_cell, row_cell

#: Templates shared by every game's reports.
SHARED_TEMPLATES = Path(__file__).with_name("templates")
#: File name suffix of report templates.
SUFFIX = ".md.j2"


def _thousands(value: Any) -> str:
    return f"{int(value):,}"


def _pct(value: float, decimals: int = 2) -> str:
    return f"{100.0 * float(value):.{decimals}f}%"


@functools.cache
def environment(directory: str | None = None) -> jinja2.Environment:
    """The Jinja2 environment that loads templates from ``directory``, then the shared ones.

    Parameters
    ----------
    directory : str or None
        A game's template directory (e.g. ``cuarenta_sim/cuarenta/templates``); None loads
        only :data:`SHARED_TEMPLATES`.

    Returns
    -------
    jinja2.Environment
        Cached per directory; filters ``cell``, ``diff``, ``rel``, ``thousands``, ``pct``,
        ``interval``.
    """
    paths = [str(SHARED_TEMPLATES)] if directory is None else [directory, str(SHARED_TEMPLATES)]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(paths),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters.update(
        cell=row_cell,
        diff=diff_cell,
        rel=rel_cell,
        thousands=_thousands,
        pct=_pct,
        interval=interval_header,
    )
    return env


def _directory(directory: str | Path | None) -> str | None:
    if directory is None:
        return None
    path = Path(directory)
    if not path.is_dir():
        raise ValueError(f"template directory {str(path)!r} does not exist")
    return str(path)


def render(template_name: str, /, *, directory: str | Path | None = None, **context: Any) -> str:
    """Render a whole template with ``context``.

    Parameters
    ----------
    template_name : str
        File name, e.g. ``"methods.md.j2"``.
    directory : str or Path, optional
        The game's template directory, searched before the shared one.
    **context
        The template's variables.

    Returns
    -------
    str
        The text, without a final newline.

    Raises
    ------
    ValueError
        If the template does not exist (the message lists the templates found), or a name
        it uses is missing from ``context``.
    """
    template = _template(template_name, directory)
    try:
        return template.render(**context)
    except jinja2.UndefinedError as err:
        raise ValueError(f"template {template_name!r}: {err}") from err


def macros(template_name: str, /, *, directory: str | Path | None = None) -> Any:
    """The macros of a template, as attributes (one macro per report section).

    Parameters
    ----------
    template_name : str
        File name, e.g. ``"odds.md.j2"``.
    directory : str or Path, optional
        The game's template directory, searched before the shared one.

    Returns
    -------
    jinja2 template module
        ``macros("odds.md.j2", directory=d).summary(...)`` returns the section's text.

    Raises
    ------
    ValueError
        If the template does not exist (the message lists the templates found).
    """
    return _template(template_name, directory).module


def template_names(directory: str | Path | None = None) -> list[str]:
    """The report templates found in ``directory`` and the shared directory, sorted.

    Parameters
    ----------
    directory : str or Path, optional
        A game's template directory.

    Returns
    -------
    list of str
    """
    env = environment(_directory(directory))
    return sorted(n for n in env.list_templates() if n.endswith(SUFFIX))


def _template(template_name: str, directory: str | Path | None) -> jinja2.Template:
    env = environment(_directory(directory))
    try:
        return env.get_template(template_name)
    except jinja2.TemplateNotFound as err:
        raise ValueError(
            f"unknown report template {template_name!r}; accepted: "
            f"{', '.join(template_names(directory))}"
        ) from err
