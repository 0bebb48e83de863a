"""Rule sets of any game as switches: values in slugs, nearest-preset slugs, slug parsing.

Both games name a rule set by a **slug**: the nearest preset plus the switches that differ,
e.g. ``quito(max_sum_cards=2)`` or ``ro(failed_contract=nobody)``. The games' rule classes
(:class:`cuarenta_sim.cuarenta.rules.RuleSet`, :class:`cuarenta_sim.cuatrola.rules.
CuatrolaRules`) keep their switches and validation; this module holds what their slugs share.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

#: ``preset`` or ``preset(switch=value,...)``.
SLUG_RE = re.compile(r"^\s*([a-z_]+)\s*(?:\((.*)\))?\s*$")


def format_value(v: object) -> str:
    """A switch value as written in a slug: ``None``, ``true``/``false``, or ``str(v)``."""
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def parse_value(text: str) -> object:
    """Inverse of :func:`format_value`: ``None``, booleans, integers, else the text."""
    if text == "None":
        return None
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def check_choice(rules: object, name: str, choices: Sequence[str]) -> None:
    """Raise ValueError unless switch ``name`` of ``rules`` is one of ``choices``."""
    v = getattr(rules, name)
    if v not in choices:
        raise ValueError(f"switch {name} must be one of {', '.join(choices)}; got {v!r}")


def nearest_slug(rules: object, presets: Mapping[str, object], switches: Sequence[str]) -> str:
    """The canonical slug of ``rules``: the preset with fewest differing switches (ties: the
    order of ``presets``), then those switches in ``switches`` order."""
    best_name, best_diff = "", None
    for name, preset in presets.items():
        diff = [n for n in switches if getattr(rules, n) != getattr(preset, n)]
        if best_diff is None or len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    assert best_diff is not None
    if not best_diff:
        return best_name
    parts = [f"{n}={format_value(getattr(rules, n))}" for n in best_diff]
    return f"{best_name}({','.join(parts)})"


def parse_slug(
    slug: object, presets: Mapping[str, object], *, label: str = "rules"
) -> tuple[str, dict[str, Any]]:
    """Split a slug into its preset name and switch changes (values parsed, not validated).

    Parameters
    ----------
    slug : str
        ``preset`` or ``preset(switch=value,...)``.
    presets : mapping
        The game's presets, named in the error message.
    label : str
        What the slug names in messages (``"rules"``, ``"Cuatrola rules"``).

    Raises
    ------
    ValueError
        Not a string, malformed (the message says what is expected), or a switch given twice.
    """
    if not isinstance(slug, str):
        raise ValueError(f"{label} slug must be a string, got {slug!r}")
    m = SLUG_RE.match(slug)
    if m is None:
        raise ValueError(
            f"malformed {label} slug {slug!r}; expected a preset name ({', '.join(presets)}) "
            f"optionally followed by (switch=value,...)"
        )
    changes: dict[str, Any] = {}
    body = (m.group(2) or "").strip()
    if body:
        for item in body.split(","):
            if "=" not in item:
                raise ValueError(f"malformed switch {item.strip()!r} in rules slug {slug!r}")
            key, value = (s.strip() for s in item.split("=", 1))
            if key in changes:
                # Two values for one switch: which one was meant is a guess, so refuse.
                raise ValueError(
                    f"switch {key} is given twice in {label} slug {slug!r}; give each switch once"
                )
            changes[key] = parse_value(value)
    return m.group(1), changes


def split_specs(text: str, *, label: str = "list") -> list[str]:
    """Split a comma-separated list of specs ``name(param=value,...)``, keeping commas inside
    parentheses: ``"random,pimc(samples=8,depth=deal)"`` -> ``["random",
    "pimc(samples=8,depth=deal)"]`` (policy lists of both games).

    Parameters
    ----------
    text : str
        Specs separated by commas.
    label : str
        What the list is, for messages (``"policy list"``).

    Returns
    -------
    list of str
        The specs, stripped.

    Raises
    ------
    ValueError
        On an empty spec or unbalanced parentheses.
    """
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"{label} {text!r} has an unmatched ')'")
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if depth != 0:
        raise ValueError(f"{label} {text!r} has an unclosed '('")
    parts.append("".join(current).strip())
    if any(not p for p in parts):
        raise ValueError(f"{label} {text!r} has an empty name; give names separated by commas")
    return parts
