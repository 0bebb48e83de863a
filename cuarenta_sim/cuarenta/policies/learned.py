"""Weights files of the ``learned`` policy: loading, checking, provenance.

A weights file is a numpy ``.npz`` archive written by ``benchmarks/train_learned.py`` (or
``benchmarks/tune_learned.py``):

* ``feature_version``: int64 scalar, the feature list it was trained on
  (:data:`cuarenta_sim.cuarenta.engine.learned.FEATURE_VERSION`);
* ``feature_names``: str array of the feature names, in order;
* ``players``: int64 ``[2, 4]``;
* ``weights``: int64, shape ``(2, N_FEATURES)``: the fixed-point weights of the model for 2
  players (row 0) and for 4 players (row 1);
* ``provenance``: str scalar, JSON: teacher spec, seed, data size per player count, rules
  trained on, feature version, train/validation accuracy, fitting settings. A file tuned by
  ``benchmarks/tune_learned.py`` keeps these fields of its start (so ``train_accuracy`` and
  ``validation_accuracy`` are the imitation model's), adds ``start`` (the start file and its
  whole provenance), ``command`` and, per tuned model, ``tuning`` (method, settings, seeds,
  feature scales, the check win rates of the start and the tuned weights).

One model per player count covers every preset: the features are computed under the
preset's switches (points after its blocks and 38 rule, caida values, carton block), so a
model trained on Quito is applied to the other presets as is (documented fallback; the
provenance says which rules each model saw).

Shipped files (spec value ``weights=NAME``): ``learned_v2`` (the default: ``learned_v1``
fine-tuned for strength against the heuristic by ``benchmarks/tune_learned.py``; commands and
figures in ``benchmarks/README.md``) and ``learned_v1`` (the imitation model of ``pimc`` alone,
``benchmarks/train_learned.py``, kept for comparison); ``learned(weights=PATH)`` loads
another. Both have feature version 1.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: Version of the feature list; a weights file records the version it was trained on.
FEATURE_VERSION = 1
#: Names of the features, in order (:mod:`cuarenta_sim.cuarenta.engine.learned`).
FEATURE_NAMES: tuple[str, ...] = (
    "points",
    "cards",
    "cards_blocked",
    "caida",
    "limpia",
    "limpia_38",
    "openings",
    "pair",
    "ace",
    "run_start",
    "keep",
    "known",
    "trail",
    "trail_rank",
    "face_trail",
    "sum",
    "table_left",
    "rank_left",
    "cards_pile",
    "points_near",
    "caida_near",
    "cards_deal",
    "table_last_deal",
    "openings_deal",
    "own_next",
    "own_limpia",
    "next_best",
    "cards_carton",
    "points_opp_near",
    "trail_unseen",
    "trail_2",
    "trail_3",
    "trail_4",
    "trail_5",
    "trail_6",
    "trail_7",
    "trail_J",
    "trail_Q",
    "trail_K",
    "capture_2",
    "capture_3",
    "capture_4",
    "capture_5",
    "capture_6",
    "capture_7",
    "capture_J",
    "capture_Q",
    "capture_K",
)
N_FEATURES = len(FEATURE_NAMES)
#: Fixed-point scale of the weights: a weight is ``round(WEIGHT_SCALE * coefficient / scale)``
#: for a float coefficient on the feature divided by its scale.
WEIGHT_SCALE = 1_000_000
#: Largest weight magnitude a weights file may hold: ``2**40``. Every feature is an integer
#: whose largest magnitude is bounded by the rules (per mille chances <= 1000, 10 ranks, 40
#: cards, at most 3 earlier deals, rule values <= ``MAX_POINTS`` = 100): ``openings_deal``
#: <= 3 x 10 x 1000 x 40, ``openings`` <= 10 x 1000 x 40, ``caida`` and ``caida_near`` <=
#: 1000 x 100, ``next_best`` <= 1000 x 40, the others a few thousand at most; their sum is
#: below ``2**21``. So a play's score ``sum_j w[j] * f[j]``, and every partial sum the kernel
#: folds, stays below ``2**40 * 2**21 = 2**61``: the int64 kernel equals the pure-Python
#: twin exactly. The shipped files use at most ``2**25``; the strategies study's tactic
#: doses shift a weight to a few times ``2**35``.
WEIGHT_LIMIT = 2**40
#: Spec value naming the default weights shipped with the package.
DEFAULT_WEIGHTS = "learned_v2"
#: Spec values naming shipped weights files (``weights/<name>.npz``).
SHIPPED_WEIGHTS = ("learned_v1", "learned_v2")
#: Directory of the shipped weights.
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
#: Player counts of the models, in row order of ``weights``.
MODEL_PLAYERS = (2, 4)

_ACCEPTED = (
    f"accepted: {' or '.join(SHIPPED_WEIGHTS)} or the path of a .npz weights file written by "
    f"benchmarks/train_learned.py or tune_learned.py (feature version {FEATURE_VERSION}, "
    f"int64 weights of shape (2, {N_FEATURES}) for 2 and 4 players, each within +-2**40)"
)


@dataclass(frozen=True)
class LearnedWeights:
    """A loaded, checked weights file.

    Attributes
    ----------
    path : str
        The file read.
    weights : ndarray of int64, shape (2, N_FEATURES)
        Row 0: the model for 2 players; row 1: for 4 players (read-only).
    provenance : dict
        The training record (module docstring).
    """

    path: str
    weights: np.ndarray
    provenance: dict[str, Any]

    def row(self, players: int) -> np.ndarray:
        """The weights of the model for ``players`` (2 or 4): int64, shape (N_FEATURES,)."""
        return self.weights[MODEL_PLAYERS.index(players)]


def weights_path(value: str) -> Path:
    """The file a ``weights=`` value names: the shipped file for a name of
    :data:`SHIPPED_WEIGHTS`, else ``value`` as a path."""
    if value in SHIPPED_WEIGHTS:
        return WEIGHTS_DIR / f"{value}.npz"
    return Path(value).expanduser()


def load_weights(value: str) -> LearnedWeights:
    """Load and check the weights a ``weights=`` value names.

    Parameters
    ----------
    value : str
        A name of :data:`SHIPPED_WEIGHTS` or the path of a ``.npz`` weights file.

    Returns
    -------
    LearnedWeights

    Raises
    ------
    ValueError
        Missing or unreadable file, another feature version, other feature names, or weights
        of another shape, not int64, or beyond ``+-WEIGHT_LIMIT`` (where the kernel's int64
        scores could overflow): one line saying what was wrong and what is accepted.
    """
    path = weights_path(value)
    try:
        stat = os.stat(path)
    except OSError:
        raise ValueError(f"learned weights file {str(path)!r} not found; {_ACCEPTED}") from None
    return _load(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _load(path: str, _mtime: int, _size: int) -> LearnedWeights:
    """Read a weights file (cached by path, modification time and size)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except Exception as exc:  # a corrupt or foreign file: numpy raises various errors
        raise ValueError(
            f"learned weights file {path!r} is not a readable .npz archive "
            f"({type(exc).__name__}); {_ACCEPTED}"
        ) from None
    missing = [
        k for k in ("feature_version", "feature_names", "weights", "provenance") if k not in arrays
    ]
    if missing:
        raise ValueError(f"learned weights file {path!r} lacks {', '.join(missing)}; {_ACCEPTED}")
    version = arrays["feature_version"]
    if version.shape != () or not np.issubdtype(version.dtype, np.integer):
        raise ValueError(
            f"learned weights file {path!r} has no integer feature_version; {_ACCEPTED}"
        )
    if int(version) != FEATURE_VERSION:
        raise ValueError(
            f"learned weights file {path!r} has feature version {int(version)}; {_ACCEPTED}"
        )
    names = tuple(str(n) for n in arrays["feature_names"].tolist())
    if names != FEATURE_NAMES:
        raise ValueError(
            f"learned weights file {path!r} lists other features than version "
            f"{FEATURE_VERSION}; {_ACCEPTED}"
        )
    problem = _weights_problem(arrays["weights"])
    if problem:
        raise ValueError(f"learned weights file {path!r} has {problem}; {_ACCEPTED}")
    weights = arrays["weights"]
    try:
        provenance = json.loads(str(arrays["provenance"]))
    except ValueError:
        raise ValueError(
            f"learned weights file {path!r} has a provenance that is not JSON; {_ACCEPTED}"
        ) from None
    weights = weights.copy()
    weights.flags.writeable = False
    return LearnedWeights(path, weights, provenance)


def _weights_problem(weights: np.ndarray, *, int64: bool = True) -> str:
    """What is wrong with a weights array (shape, type, range), or "" when nothing is;
    ``int64`` False accepts integers of any width (converted when written)."""
    expected = (len(MODEL_PLAYERS), N_FEATURES)
    if weights.shape != expected:
        return f"weights of shape {weights.shape}, not {expected} (2 and 4 players x features)"
    if weights.dtype.kind not in "iu":
        kind = "numbers with fractions" if weights.dtype.kind == "f" else "not integers"
        return f"weights of type {weights.dtype} ({kind}), not 64-bit integers (int64)"
    worst = max(abs(int(weights.max())), abs(int(weights.min())))
    if worst > WEIGHT_LIMIT:
        return (
            f"a weight of magnitude {worst:,}, beyond the accepted +-{WEIGHT_LIMIT:,} (2**40), "
            "where the kernel's integer scores could overflow"
        )
    if int64 and weights.dtype != np.int64:
        return f"weights of type {weights.dtype}, not 64-bit integers (int64)"
    return ""


def save_weights(path: str | Path, weights: np.ndarray, provenance: dict[str, Any]) -> None:
    """Write a weights file (module docstring) that :func:`load_weights` accepts.

    Parameters
    ----------
    path : str or Path
        Destination ``.npz`` file (written whole, then renamed into place).
    weights : ndarray of int64, shape (2, N_FEATURES)
        Models for 2 and 4 players.
    provenance : dict
        JSON-serialisable training record.

    Raises
    ------
    ValueError
        Weights of another shape, not integers, or beyond ``+-WEIGHT_LIMIT``.
    """
    weights = np.asarray(weights)
    problem = _weights_problem(weights, int64=False)
    if problem:
        raise ValueError(f"weights: {problem}; {_ACCEPTED}")
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(  # the JSON provenance compresses well
        tmp,
        feature_version=np.int64(FEATURE_VERSION),
        feature_names=np.array(FEATURE_NAMES),
        players=np.array(MODEL_PLAYERS, dtype=np.int64),
        weights=weights.astype(np.int64),
        provenance=np.array(json.dumps(provenance, sort_keys=True)),
    )
    os.replace(tmp, path)
