"""Advice from one seat: :func:`advise`, the Python form of the scenario kind ``advise``.

The scenario judge does the work (:func:`cuarenta_sim.scenario.evaluate`, for Cuarenta
:mod:`cuarenta_sim.cuarenta.advise`; ``docs/engine_contract.md`` section 10); this function
only fills in the kind and turns an error result into an exception, as a Python caller
expects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .scenario import evaluate


def advise(scenario: Mapping[str, Any] | None = None, /, **fields: Any) -> dict[str, Any]:
    """Value every legal play of the seat to move from what that seat knows.

    Parameters
    ----------
    scenario : mapping, optional
        The fields of an ``advise`` scenario (``kind`` may be left out); ``fields`` add to or
        replace them. For Cuarenta: ``rules``, ``players``, ``dealer``, ``scores``, ``table``,
        ``seat``, ``deal``, ``previous``, ``rondas``, ``hands`` (only ``seat``'s ranks, the
        others ``None``), ``unseen`` (the ranks ``seat`` has not seen), ``known``, ``cards``,
        ``last_capturer``, ``claims``, ``first_claim``, ``samples`` (2..10,000, default 256)
        and ``seed`` (default 0). ``game`` picks the game (default Cuarenta).
    **fields
        More fields, e.g. ``rules="quito"``, ``samples=1000``.

    Returns
    -------
    dict
        ``values`` (per legal play in canonical order: ``card``, ``base``, ``value``,
        ``lower``, ``upper``; the seat's side's points minus the other side's to the end of the
        data, expected over what the seat cannot see, with a 95% interval), ``best``,
        ``exact`` (the seat's information fixes the position: then the values are ``solve``'s
        and ``lower = upper = value``), ``play`` (the advised play), ``samples``,
        ``interval``, ``continuation`` and the common fields of the advised play's step.

    Raises
    ------
    ValueError
        Malformed input: the message names the field (e.g. unseen cards that with the rest do
        not make 40, a hand size that does not fit the turn order, ``samples`` out of range).
    """
    obj = dict(scenario or {})
    obj.update(fields)
    obj["kind"] = "advise"
    result = evaluate(obj)
    if "error" in result:
        raise ValueError(result["error"])
    return result


__all__ = ["advise"]
