"""Train the ``learned`` policy's weights by imitating a teacher policy.

Run from the repository root::

    python benchmarks/train_learned.py                         # the shipped learned_v1.npz
    python benchmarks/train_learned.py --chicas 200 --out /tmp/w.npz
    python benchmarks/train_learned.py --teacher 'solver(...)' # another deterministic teacher

What it does, reproducibly from ``--seed``:

1. **Data.** For each player count (``--players``), the reference engine
   (:func:`cuarenta_sim.cuarenta.reference.play_game`, level chica, rules ``--rules``) plays
   ``--chicas`` chicas (indices ``0 .. chicas - 1`` of root seed ``--seed``) with the teacher
   at every seat. At every decision with more than one legal play the teacher's choice is
   taken from the numba kernel's decision code (:func:`cuarenta_sim.cuarenta.policies.decide`,
   the same code ``simulate`` runs; a searching teacher such as ``pimc`` gets the seat's search
   stream of the data, advanced by one draw after each decision), and the features of every
   legal play (:func:`cuarenta_sim.cuarenta.engine.learned.decision_features`) are recorded.
   The work is split over ``--workers`` processes by chica index (the result does not depend
   on it).
2. **Fit.** A multinomial logit over each decision's legal plays (a linear score per play,
   softmax within the decision) is fitted to the teacher's choices by Newton's method on the
   convex mean negative log-likelihood plus ``--l2`` times the squared coefficients, features
   divided by their standard deviation over the plays (no randomness: the fit is a function
   of the data). The last ``--validation`` fraction of the chicas is held out.
3. **Weights.** ``round(WEIGHT_SCALE * coefficient / scale)`` per feature (int64), the model
   of each player count in one ``.npz`` file with its provenance (teacher spec, seed, data
   sizes, rules, feature version, accuracy of the integer model on the training and the
   held-out decisions: the fraction of decisions where the learned policy plays the teacher's
   play), written by :func:`cuarenta_sim.cuarenta.policies.learned.save_weights`.

One model per player count, trained on one rule set, serves every preset (features are
computed under each preset's switches; see :mod:`cuarenta_sim.cuarenta.policies.learned`).

This script wrote ``learned_v1.npz`` (its default output). The default weights,
``learned_v2.npz``, are ``learned_v1`` fine-tuned for strength by ``benchmarks/tune_learned.py``
(the command is in that file's provenance and in ``benchmarks/README.md``); the provenance of a
file written now also records each model's ``feature_scales``, which the tuning uses.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from cuarenta_sim import __version__
from cuarenta_sim.cuarenta.engine.batch import kernel_args
from cuarenta_sim.cuarenta.engine.decide import decide, observation_view, pimc_values
from cuarenta_sim.cuarenta.engine.learned import (
    FEATURE_NAMES,
    FEATURE_VERSION,
    N_FEATURES,
    WEIGHT_SCALE,
    decision_features,
)
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.cuarenta.policies.kernel import POLICY_PIMC
from cuarenta_sim.cuarenta.policies.learned import WEIGHTS_DIR, save_weights
from cuarenta_sim.cuarenta.reference import Observation, play_game
from cuarenta_sim.cuarenta.rules import resolve_rules
from cuarenta_sim.rng import PyRng

DEFAULT_OUT = WEIGHTS_DIR / "learned_v1.npz"
DEFAULT_TEACHER = "pimc"


def observation_features(obs: Observation) -> np.ndarray:
    """The kernel's features of every legal play of ``obs`` (int64, (plays, N_FEATURES))."""
    kr, _players, _arr, sums = kernel_args(obs.rules, obs.players, (0,) * obs.players)
    return decision_features(observation_view(obs), kr, sums)


class TeacherRecorder:
    """A reference-engine policy that plays the teacher's choice and records the decision.

    ``search`` is true so that the reference engine hands it the seat's search stream.
    """

    name = "teacher"
    stochastic = False
    search = True

    def __init__(self, teacher: str) -> None:
        self.teacher = teacher
        self.is_pimc = parse_policy(teacher).id == POLICY_PIMC
        self.samples = dict(parse_policy(teacher).values).get("samples", 1)
        self.features: list[np.ndarray] = []
        self.choices: list[int] = []
        self.values: list[np.ndarray] = []

    def choose(self, obs: Observation, rng: PyRng) -> int:
        """The teacher's play; decisions with several legal plays are recorded, with pimc's
        mean playout value of every play (milli-points; NaN for other teachers)."""
        if len(obs.plays) == 1:
            return 0
        if self.is_pimc:
            totals, state = pimc_values(self.teacher, obs, rng.s)
            rng.s[:] = state  # the stream advances exactly as in the kernel's own play
            k = int(np.argmax(totals))  # the first largest, pimc's rule
            self.values.append(totals / float(self.samples))
        else:
            k = decide(self.teacher, obs, rng.s)
            rng.next64()  # the next decision samples from a new state of the stream
            self.values.append(np.full(len(obs.plays), np.nan))
        self.features.append(observation_features(obs))
        self.choices.append(k)
        return k


def generate(
    teacher: str, rules: str, players: int, seed: int, indices: list[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Teacher decisions of the chicas ``indices``.

    Returns
    -------
    tuple
        ``(features, sizes, choices, chica, values)``: features of every legal play stacked
        (int64, (plays, N_FEATURES)); legal plays per decision (int64, (decisions,)); the
        teacher's index per decision; the chica index of each decision; the teacher's mean
        value of every play (float64, (plays,), NaN when the teacher gives none).
    """
    feats: list[np.ndarray] = []
    choices: list[int] = []
    chica: list[int] = []
    values: list[np.ndarray] = []
    for i in indices:
        rec = TeacherRecorder(teacher)
        play_game(rules, players, rec, seed=seed, level="chica", index=i)
        feats.extend(rec.features)
        choices.extend(rec.choices)
        values.extend(rec.values)
        chica.extend([i] * len(rec.choices))
    sizes = np.array([len(f) for f in feats], dtype=np.int64)
    x = np.concatenate(feats) if feats else np.zeros((0, N_FEATURES), dtype=np.int64)
    v = np.concatenate(values) if values else np.zeros(0)
    return x, sizes, np.array(choices, dtype=np.int64), np.array(chica, dtype=np.int64), v


def generate_parallel(
    teacher: str, rules: str, players: int, seed: int, chicas: int, workers: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`generate` over chicas ``0 .. chicas - 1`` in ``workers`` processes, in order."""
    chunk = max(1, -(-chicas // (4 * max(workers, 1))))
    parts = [list(range(a, min(a + chunk, chicas))) for a in range(0, chicas, chunk)]
    if workers <= 1:
        results = [generate(teacher, rules, players, seed, p) for p in parts]
    else:
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(generate, teacher, rules, players, seed, p) for p in parts]
            results = [f.result() for f in futures]
    return tuple(np.concatenate([r[k] for r in results]) for k in range(5))  # type: ignore[return-value]


def _softmax_stats(
    x: np.ndarray, starts: np.ndarray, target: np.ndarray, w: np.ndarray
) -> tuple[float, np.ndarray, np.ndarray]:
    """Mean cross-entropy, gradient and Hessian of the grouped softmax at coefficients ``w``
    against ``target`` (per play, summing to 1 in each decision)."""
    s = x @ w
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(x))))
    smax = np.maximum.reduceat(s, starts)
    e = np.exp(s - smax[group])
    z = np.add.reduceat(e, starts)
    p = e / z[group]
    n = len(starts)
    nll = float(np.sum(np.log(z) + smax) - target @ s) / n
    xp = x * p[:, None]
    m = np.add.reduceat(xp, starts)  # expected features per decision
    grad = (m.sum(axis=0) - target @ x) / n
    hess = (x.T @ xp - m.T @ m) / n
    return nll, grad, hess


def soft_targets(
    sizes: np.ndarray, choices: np.ndarray, values: np.ndarray, temperature: float
) -> np.ndarray:
    """Per-play fit targets: one-hot on the teacher's choice when ``temperature`` is 0 or
    the teacher gave no values, else ``softmax(values / (1000 * temperature))`` within each
    decision (``temperature`` in points)."""
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    onehot = np.zeros(int(sizes.sum()))
    onehot[starts + choices] = 1.0
    if temperature <= 0 or len(values) == 0 or np.isnan(values).any():
        return onehot
    group = np.repeat(np.arange(len(sizes)), sizes)
    v = values / (1000.0 * temperature)
    e = np.exp(v - np.maximum.reduceat(v, starts)[group])
    return e / np.add.reduceat(e, starts)[group]


def fit(
    x: np.ndarray, sizes: np.ndarray, target: np.ndarray, l2: float, iterations: int = 50
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Fit the grouped multinomial logit (module docstring) by damped Newton steps.

    Returns the coefficients on the scaled features, the scales, and fit statistics.
    """
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = x / scale
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    w = np.zeros(x.shape[1])
    nll = np.inf
    steps = 0
    for steps in range(1, iterations + 1):  # noqa: B007 (the count is reported)
        f, g, h = _softmax_stats(xs, starts, target, w)
        f += l2 * float(w @ w)
        g = g + 2 * l2 * w
        h = h + 2 * l2 * np.eye(len(w))
        step = np.linalg.solve(h + 1e-9 * np.eye(len(w)), g)
        t = 1.0
        while t > 1e-6:
            w_new = w - t * step
            f_new = _softmax_stats(xs, starts, target, w_new)[0] + l2 * float(w_new @ w_new)
            if f_new <= f:
                break
            t /= 2
        w = w - t * step
        converged = abs(f - nll) < 1e-10
        nll = f
        if converged:
            break
    return w, scale, {"nll": nll, "newton_steps": steps}


def integer_weights(w: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Fixed-point weights: ``round(WEIGHT_SCALE * w / scale)`` (int64)."""
    return np.round(WEIGHT_SCALE * w / scale).astype(np.int64)


def accuracy(x: np.ndarray, sizes: np.ndarray, choices: np.ndarray, weights: np.ndarray) -> float:
    """Fraction of decisions where the integer model's play (first largest score, the
    kernel's rule) is the teacher's."""
    if len(sizes) == 0:
        return float("nan")
    s = x @ weights
    hits = 0
    start = 0
    for n, c in zip(sizes.tolist(), choices.tolist(), strict=True):
        hits += int(np.argmax(s[start : start + n])) == c  # argmax: the first maximum
        start += n
    return hits / len(sizes)


def teacher_data(
    teacher: str,
    rules: str,
    players: int,
    chicas: int,
    seed: int,
    workers: int,
    cache: Path | None = None,
) -> dict[str, np.ndarray]:
    """The teacher's decisions (:func:`generate_parallel`), read from ``cache`` when it holds
    the same teacher, rules, players, chicas and seed, else generated (and written there)."""
    key = f"{teacher}|{rules}|{players}|{chicas}|{seed}|{FEATURE_VERSION}"
    if cache is not None and cache.exists():
        with np.load(cache, allow_pickle=False) as z:
            if str(z["key"]) == key:
                return {k: z[k] for k in z.files if k != "key"}
    t0 = time.perf_counter()
    x, sizes, choices, chica, values = generate_parallel(
        teacher, rules, players, seed, chicas, workers
    )
    data = {
        "x": x,
        "sizes": sizes,
        "choices": choices,
        "chica": chica,
        "values": values,
        "seconds": np.float64(time.perf_counter() - t0),
    }
    if cache is not None:
        np.savez(cache, key=np.array(key), **data)
    return data


def train(
    teacher: str,
    rules: str,
    players_list: list[int],
    chicas: int,
    seed: int,
    l2: float,
    temperature: float,
    validation: float,
    workers: int,
    cache_dir: Path | None = None,
    log: Any = sys.stdout,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Generate the data and fit one model per player count; return weights and provenance.

    Player counts not in ``players_list`` get the model of the other count (recorded).
    """
    spec = parse_policy(teacher)
    if spec.info.stochastic:
        raise ValueError(f"the teacher must be deterministic, got {spec.canonical}")
    rule_set = resolve_rules(rules)
    models: dict[int, np.ndarray] = {}
    record: dict[str, Any] = {
        "teacher": spec.canonical,
        "rules": rule_set.slug(),
        "seed": seed,
        "chicas_per_player_count": chicas,
        "validation_fraction": validation,
        "l2": l2,
        "temperature_points": temperature,
        "target": "soft" if temperature > 0 and spec.id == POLICY_PIMC else "choice",
        "feature_version": FEATURE_VERSION,
        "feature_names": list(FEATURE_NAMES),
        "weight_scale": WEIGHT_SCALE,
        "package_version": __version__,
        "models": {},
    }
    for players in players_list:
        cache = None if cache_dir is None else cache_dir / f"teacher_{players}p.npz"
        d = teacher_data(spec.canonical, rules, players, chicas, seed, workers, cache)
        x, sizes, choices, chica = d["x"], d["sizes"], d["choices"], d["chica"]
        n_val_chicas = round(validation * chicas)
        train_mask = chica < chicas - n_val_chicas
        row_mask = np.repeat(train_mask, sizes)
        target = soft_targets(
            sizes[train_mask], choices[train_mask], d["values"][row_mask], temperature
        )
        w, scale, stats = fit(x[row_mask].astype(np.float64), sizes[train_mask], target, l2)
        wi = integer_weights(w, scale)
        models[players] = wi
        acc_train = accuracy(x[row_mask], sizes[train_mask], choices[train_mask], wi)
        acc_val = accuracy(x[~row_mask], sizes[~train_mask], choices[~train_mask], wi)
        info = {
            "players": players,
            "decisions": len(sizes),
            "plays": int(sizes.sum()),
            "train_decisions": int(train_mask.sum()),
            "validation_decisions": int((~train_mask).sum()),
            "train_accuracy": round(acc_train, 4),
            "validation_accuracy": round(acc_val, 4) if acc_val == acc_val else None,
            "train_cross_entropy": round(stats["nll"], 5),
            "newton_steps": stats["newton_steps"],
            "data_seconds": round(float(d["seconds"]), 1),
            # Feature standard deviations over the training plays: the tuning stage's scale.
            "feature_scales": [float(f"{v:.6g}") for v in scale.tolist()],
            "weights": {n: int(v) for n, v in zip(FEATURE_NAMES, wi.tolist(), strict=True)},
        }
        record["models"][str(players)] = info
        print(
            f"{players} players: {info['decisions']} decisions ({info['plays']} plays); "
            f"accuracy train {acc_train:.3f}, validation {acc_val:.3f}",
            file=log,
        )
    for players in (2, 4):
        if players not in models:
            other = 4 if players == 2 else 2
            models[players] = models[other]
            record["models"][str(players)] = {"players": players, "same_as": other}
    return np.stack([models[2], models[4]]), record


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--teacher", default=DEFAULT_TEACHER, help="deterministic policy spec")
    ap.add_argument("--rules", default="quito", help="rule set trained on (preset or slug)")
    ap.add_argument("--players", default="2,4", help="player counts: 2, 4 or 2,4")
    ap.add_argument("--chicas", type=int, default=2000, help="chicas per player count")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--l2", type=float, default=1e-4, help="ridge penalty")
    ap.add_argument(
        "--temperature",
        type=float,
        default=10.0,
        help="points; soft targets softmax(value / temperature) from pimc's values, 0: the "
        "teacher's choice only",
    )
    ap.add_argument(
        "--cache-dir", type=Path, default=None, help="keep the teacher data here for re-fits"
    )
    ap.add_argument("--validation", type=float, default=0.1, help="held-out chica fraction")
    ap.add_argument("--workers", type=int, default=2, help="data-generation processes")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    try:
        players = sorted({int(p) for p in args.players.split(",")})
    except ValueError:
        players = []
    if not players or any(p not in (2, 4) for p in players):
        print(f"error: --players must be 2, 4 or 2,4, got {args.players!r}", file=sys.stderr)
        return 2
    if args.chicas < 2 or not 0 <= args.validation < 1:
        print("error: --chicas must be >= 2 and --validation in [0, 1)", file=sys.stderr)
        return 2
    try:
        weights, record = train(
            args.teacher,
            args.rules,
            players,
            args.chicas,
            args.seed,
            args.l2,
            args.temperature,
            args.validation,
            args.workers,
            args.cache_dir,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    record["command"] = "python benchmarks/train_learned.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    save_weights(args.out, weights, record)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
