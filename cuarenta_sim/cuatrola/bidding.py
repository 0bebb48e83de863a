"""What is a Cuatrola hand worth as a bid? Forced-declarer experiments and their analysis.

Issue 7, item 5. One **experiment** plays the same ``n`` hands (level ``hand``: hand ``i`` is
dealt by seat ``i % 4`` at 0-0, its deck depends only on ``(seed, i)``) four times with
:func:`cuarenta_sim.simulation.simulate` (``game="cuatrola"``):

* ``pass``: every seat passes (``never``): the hand is played without contract (C2.4);
* ``solo``, ``cuatrola``, ``quintola``: the studied seat (``seat``, default 0) is a forced
  declarer (``always(X)``), the other seats pass; its partner sits out (C2.2).

So for every deal and the same seat we know the outcome of each of the four bids, and every
comparison between bids is a **paired** difference (common random numbers). Because the dealer
of hand ``i`` is ``i % 4``, a fixed seat sits in each position relative to the dealer (mano,
second, third, dealer) in exactly a quarter of the hands.

The **value** of a bid in a hand is the game points of the seat's pair minus those of the
opponents (C5): ``+-1`` without contract (C5.2), ``+-2`` solo, ``+-4`` cuatrola, ``+-5``
quintola (under ``failed_contract = to_opponents``; with ``nobody`` a failed contract is 0).
Its mean is the bid's expected game-point value (EV); EV(bid) - EV(pass) is the **gain** of
bidding over passing.

Hand classes come from the seat's dealt cards and the trump suit (:func:`hand_classes`):
trumps held, aces and threes held (all, of trumps, of other suits), holding the trump R and C
(a cante of 40, C4.1), the position relative to the dealer and the bidding strength
(:func:`cuarenta_sim.cuatrola.policies.hand_strength`). Class columns are ordered categoricals
with every possible value, so classes nobody was dealt stay in every table with ``n = 0`` and
undefined intervals.

Interval methods (:mod:`cuarenta_sim.stats`): ``wilson`` for make-probabilities, ``normal`` for
an EV (hands are independent), ``paired`` for an EV difference between two bids on the same
deals, ``welch`` / ``newcombe`` for differences between positions (different deals).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..simulation import simulate
from ..stats import (
    ESTIMATE_COLUMNS,
    diff_paired,
    grouped_means,
    grouped_proportions,
    mean,
    with_verdicts,
)
from .bidding_intervals import (
    clip_bounds,
    clip_gains,
    difference_range,
    outcome_values,
    pair_ranges,
    success_column,
    two_valued_ev,
    value_range,
)
from .bidding_verdicts import apply_gain_verdicts, beats_pass, difference_verdicts, gain_p_values
from .cards import N_CARDS, N_RANKS, N_SUITS
from .contracts import DECLARATIONS
from .policies import (
    FIRST_GUESS_THRESHOLDS,
    OFF,
    PLAIN_WEIGHTS,
    PLAY_POLICIES,
    TRUMP_WEIGHTS,
    resolve_play_policies,
)
from .rules import resolve_rules

#: The four bids, by declaration code (0 pass, 1 solo, 2 cuatrola, 3 quintola).
BIDS: tuple[str, ...] = DECLARATIONS
#: The three contracts.
CONTRACT_BIDS: tuple[str, ...] = BIDS[1:]
#: Positions relative to the dealer: ``(seat - dealer - 1) % 4`` (C1.1: the mano is first).
POSITIONS = ("mano", "second", "third", "dealer")
#: Positions as printed; C1.1 partners sit two apart: second = dealer's, third = mano's partner.
POSITION_WORDS = {p: f"{p} ({POSITIONS[(i + 2) % 4]}'s partner)" for i, p in enumerate(POSITIONS)}
POSITION_WORDS.update(mano="mano", dealer="dealer")
#: Highest bidding strength (five trumps).
MAX_STRENGTH = sum(TRUMP_WEIGHTS)
#: Possible values of each hand-class column, in order.
CLASS_VALUES: dict[str, tuple[object, ...]] = {
    "position": POSITIONS,
    "trumps": tuple(range(6)),
    "aces_threes": tuple(range(6)),
    "trump_aces_threes": tuple(range(3)),
    "plain_aces_threes": tuple(range(6)),
    "trump_rc": (False, True),
    "strength": tuple(range(MAX_STRENGTH + 1)),
}
#: What each hand-class column means.
CLASS_LABELS = {
    "position": "position relative to the dealer",
    "trumps": "trumps held",
    "aces_threes": "aces and threes held",
    "trump_aces_threes": "trump ace and three held",
    "plain_aces_threes": "aces and threes of other suits held",
    "trump_rc": "holds the trump R and C (cante de 40)",
    "strength": "bidding strength (hand_strength)",
}
#: Interval method of each estimate of :func:`class_table` (an EV whose bid is not two-valued,
#: e.g. synthetic outcomes, falls back to ``t`` / ``normal``: the ``ev_method`` column).
METHODS = {"p_make": "wilson", "ev": "wilson", "gain": "paired"}
_ACE, _THREE, _REY, _CABALLO = 0, 1, 2, 3

Progress = Callable[[str], None]


def default_play_policy() -> str:
    """The play policy of the bidding study: ``pimc`` (lookahead) if the Cuatrola engine has
    it, else ``greedy``."""
    return "pimc" if "pimc" in PLAY_POLICIES else "greedy"


def position_of(seat: int | np.ndarray, dealer: int | np.ndarray) -> int | np.ndarray:
    """Position of ``seat`` relative to ``dealer``: 0 mano, 1 second, 2 third, 3 dealer
    (index in :data:`POSITIONS`; C1.1)."""
    return (np.asarray(seat) - np.asarray(dealer) - 1) % 4


# --------------------------------------------------------------------------- hand classes
def hand_classes(dealt: np.ndarray, trump: np.ndarray, position: np.ndarray) -> pd.DataFrame:
    """Classify 5-card hands by the features that drive bidding.

    Parameters
    ----------
    dealt : array of int, shape (n,)
        20-bit masks of the hands (bit = card id ``suit * 5 + rank``).
    trump : array of int, shape (n,)
        Trump suit of each hand, 0..3 (C1.4).
    position : array of int, shape (n,)
        Position relative to the dealer, 0 mano .. 3 dealer (:func:`position_of`).

    Returns
    -------
    DataFrame
        One row per hand, ordered categorical columns with every value of
        :data:`CLASS_VALUES`: ``position`` (names of :data:`POSITIONS`), ``trumps`` (0..5),
        ``aces_threes`` (0..5), ``trump_aces_threes`` (0..2), ``plain_aces_threes`` (0..5),
        ``trump_rc`` (bool), ``strength`` (0..22, equal to
        :func:`cuarenta_sim.cuatrola.policies.hand_strength`).

    Raises
    ------
    ValueError
        Arrays of different lengths, a mask outside 20 bits, a trump or position outside 0..3.
    """
    masks = np.asarray(dealt, dtype=np.int64)
    t = np.asarray(trump, dtype=np.int64)
    pos = np.asarray(position, dtype=np.int64)
    if not masks.shape == t.shape == pos.shape or masks.ndim != 1:
        raise ValueError(
            f"dealt, trump and position must be 1-d arrays of equal length, got shapes "
            f"{masks.shape}, {t.shape}, {pos.shape}"
        )
    if np.any((masks < 0) | (masks >> N_CARDS != 0)):
        raise ValueError("dealt masks must be 20-bit card masks (0 <= mask < 2**20)")
    if np.any((t < 0) | (t >= N_SUITS)) or np.any((pos < 0) | (pos > 3)):
        raise ValueError("trump suits and positions must lie in 0..3")
    n = masks.size
    bits = ((masks[:, None] >> np.arange(N_CARDS)) & 1).astype(np.int8)
    by_suit = bits.reshape(n, N_SUITS, N_RANKS)
    rows = np.arange(n)
    trumps_bits = by_suit[rows, t]
    trumps = trumps_bits.sum(axis=1)
    aces_threes = by_suit[:, :, _ACE].sum(axis=1) + by_suit[:, :, _THREE].sum(axis=1)
    trump_a3 = trumps_bits[:, _ACE] + trumps_bits[:, _THREE]
    plain = np.array(PLAIN_WEIGHTS, dtype=np.int64)
    strength = (
        trumps_bits.astype(np.int64) @ np.array(TRUMP_WEIGHTS, dtype=np.int64)
        + by_suit.sum(axis=1).astype(np.int64) @ plain
        - trumps_bits.astype(np.int64) @ plain
    )
    raw = {
        "position": np.array(POSITIONS, dtype=object)[pos],
        "trumps": trumps,
        "aces_threes": aces_threes,
        "trump_aces_threes": trump_a3,
        "plain_aces_threes": aces_threes - trump_a3,
        "trump_rc": (trumps_bits[:, _REY] & trumps_bits[:, _CABALLO]).astype(bool),
        "strength": strength,
    }
    return pd.DataFrame(
        {
            k: pd.Categorical(v, categories=list(CLASS_VALUES[k]), ordered=True)
            for k, v in raw.items()
        }
    )


# --------------------------------------------------------------------------- experiment
@dataclass
class BiddingExperiment:
    """The outcomes of one forced-declarer experiment (see the module docstring).

    Attributes
    ----------
    outcomes : DataFrame
        One row per hand: ``hand`` (int64), ``dealer``, ``trump`` (int8), the class columns of
        :func:`hand_classes` for the studied seat, ``value_<bid>`` (int8, game points of the
        seat's pair minus the opponents' when the seat bids ``<bid>``, for every bid of
        :data:`BIDS`), ``made_<contract>`` (int8 0/1, the seat's contract was made, C5),
        ``won_pass`` (int8 0/1, the seat's pair scored the no-contract hand, C5.2) and
        ``mano_won_pass`` (int8 0/1, the mano's pair scored it).
    seat : int
        The studied (forced declaring) seat.
    play_policy : str
        Play policy of every seat, canonical spelling (e.g. ``"pimc(samples=16)"``).
    rules : str
        Slug of the Cuatrola rules.
    seed : int
        Seed of the four simulations (common random numbers).
    runs : list of dict
        Provenance of each simulation (bid policies, n, seed, root, wall time, hands/s).
    """

    outcomes: pd.DataFrame
    seat: int
    play_policy: str
    rules: str
    seed: int
    runs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def n(self) -> int:
        """Hands per bid."""
        return len(self.outcomes)


def run_bidding_experiment(
    n: int,
    seed: int = 0,
    play_policy: str | None = None,
    rules: str = "ro",
    seat: int = 0,
    threads: int | None = None,
    progress: Progress | None = None,
) -> BiddingExperiment:
    """Play ``n`` hands under each of the four bids of ``seat`` and collect the outcomes.

    Parameters
    ----------
    n : int
        Hands per bid (> 0); the four simulations deal the same ``n`` hands.
    seed : int
        Non-negative seed shared by the four simulations.
    play_policy : str or None
        One Cuatrola play policy for every seat (:data:`PLAY_POLICIES`); ``None`` takes
        :func:`default_play_policy`.
    rules : str
        Cuatrola preset or slug (``ro``, ``online``, ``ro(failed_contract=nobody)``...).
    seat : int
        The forced declarer, 0..3.
    threads : int or None
        numba threads (never changes the numbers).
    progress : callable, optional
        Receives one line per simulation.

    Returns
    -------
    BiddingExperiment

    Raises
    ------
    ValueError
        Bad ``n``, seed, seat, play policy or rules.
    RuntimeError
        If a simulation did not deal the same hands or did not give the seat its contract
        (it always should at 0-0, C2.3).
    """
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat <= 3:
        raise ValueError(f"seat must be a whole number from 0 to 3, got {seat!r}")
    policy = default_play_policy() if play_policy is None else play_policy
    if not isinstance(policy, str):
        raise ValueError(f"play_policy must be one Cuatrola play policy name, got {policy!r}")
    policy = resolve_play_policies(policy)[0].name()
    ruleset = resolve_rules(rules)
    frames: dict[str, pd.DataFrame] = {}
    runs: list[dict[str, Any]] = []
    for code, bid in enumerate(BIDS):
        bids = ["never"] * 4
        if code:
            bids[seat] = f"always({bid})"
        if progress is not None:
            progress(f"simulating {n:,} hands, seat {seat} bids {bid} ({policy} play)")
        res = simulate(
            "cuatrola",
            rules=ruleset,
            policies=policy,
            bid_policies=bids,
            n=n,
            level="hand",
            seed=seed,
            threads=threads,
        )
        h = res.hands
        want_declarer = seat if code else -1
        if not (h["contract"].eq(code).all() and h["declarer"].eq(want_declarer).all()):
            raise RuntimeError(f"the {bid} run did not give seat {seat} the contract {bid}")
        frames[bid] = h
        p = res.provenance
        runs.append(
            {
                "bid": bid,
                "bid_policies": p["bid_policies"],
                "play_policies": p["policies"],
                "n": p["n"],
                "seed": p["seed"],
                "root": p["root"],
                "wall_time_s": round(p["wall_time_s"], 3),
                "hands_per_s": round(p["hands_per_s"]),
            }
        )
    base = frames["pass"]
    dealt = base[f"dealt_{seat}"].to_numpy()
    for bid in CONTRACT_BIDS:
        if not np.array_equal(frames[bid][f"dealt_{seat}"].to_numpy(), dealt):
            raise RuntimeError(f"the {bid} run dealt other hands than the pass run")
    dealer = base["dealer"].to_numpy()
    position = position_of(seat, dealer)
    out = pd.concat(
        [
            base[["hand", "dealer", "trump"]].reset_index(drop=True),
            hand_classes(dealt, base["trump"].to_numpy(), position),
        ],
        axis=1,
    )
    pair = seat % 2
    for bid in BIDS:
        h = frames[bid]
        gp = h[[f"game_points_{pair}", f"game_points_{1 - pair}"]].to_numpy(np.int16)
        out[f"value_{bid}"] = (gp[:, 0] - gp[:, 1]).astype(np.int8)
        if bid != "pass":
            out[f"made_{bid}"] = h["made"].to_numpy().astype(np.int8)
    won = base[f"game_points_{pair}"].to_numpy() > 0
    mano_pair = (dealer + 1) % 2
    gp0 = base["game_points_0"].to_numpy()
    out["won_pass"] = won.astype(np.int8)
    out["mano_won_pass"] = np.where(mano_pair == 0, gp0 > 0, gp0 == 0).astype(np.int8)
    return BiddingExperiment(
        outcomes=out,
        seat=int(seat),
        play_policy=policy,
        rules=ruleset.slug(),
        seed=int(seed),
        runs=runs,
    )


# --------------------------------------------------------------------------- class tables
def _keys(by: str | Sequence[str]) -> list[str]:
    keys = [by] if isinstance(by, str) else list(by)
    unknown = [k for k in keys if k not in CLASS_VALUES]
    if not keys or unknown:
        raise ValueError(
            f"hand classes must be among {', '.join(CLASS_VALUES)}; got {list(keys)!r}"
        )
    return keys


def class_table(
    outcomes: pd.DataFrame, by: str | Sequence[str], confidence: float = 0.95
) -> pd.DataFrame:
    """P(make), EV and gain over passing of every bid, per hand class (tidy).

    Parameters
    ----------
    outcomes : DataFrame
        :attr:`BiddingExperiment.outcomes`.
    by : str or sequence of str
        Class columns (keys of :data:`CLASS_VALUES`).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        One row per class x bid (every class, also empty ones), bids in the order of
        :data:`BIDS`: the ``by`` columns, ``bid``, ``n`` (hands), ``p_make`` /
        ``p_make_lower`` / ``p_make_upper`` (``wilson``; the contract made, or for ``pass``
        the seat's pair winning the hand), ``ev`` / ``ev_lower`` / ``ev_upper`` (game points:
        ``wilson`` of P(make) mapped to the bid's two values,
        :func:`.bidding_intervals.two_valued_ev`, so never outside them; ``t`` / ``normal``
        if the bid is not two-valued), ``gain`` / ``gain_lower`` / ``gain_upper`` (``paired``:
        EV(bid) - EV(pass) on the same deals; exactly 0 for ``pass``; the interval at the level
        Holm tested the row over the whole table, clipped to the possible gains,
        :func:`.bidding_intervals.difference_range`; marginal ones in ``gain_lower_marginal`` /
        ``gain_upper_marginal``), ``gain_verdict``, ``gain_p_adjusted``, ``gain_level``
        (:func:`.bidding_verdicts.apply_gain_verdicts`), ``p_make_method``, ``ev_method``,
        ``gain_method`` and ``defined`` (the EV interval exists: ``n > 0`` for ``wilson``,
        ``n >= 2`` and some variation otherwise). Empty classes have NaN estimates.

    Raises
    ------
    ValueError
        Unknown class column.
    """
    return _class_table(outcomes, _keys(by), confidence)


def _class_table(outcomes: pd.DataFrame, keys: list[str], confidence: float) -> pd.DataFrame:
    parts = []
    values = {bid: outcome_values(outcomes, bid) for bid in BIDS}
    for bid in BIDS:
        frame = outcomes[keys].copy()
        frame["success"] = outcomes[success_column(bid)]
        frame["value"] = outcomes[f"value_{bid}"].astype(np.float64)
        frame["gain"] = frame["value"] - outcomes["value_pass"].astype(np.float64)
        p = grouped_proportions(frame, keys, "success", confidence)
        # A two-valued bid: its EV is P(make) mapped to game points (bounded, never zero-width).
        two = values[bid]
        ev = (
            two_valued_ev(p, two)
            if two is not None
            else grouped_means(frame, keys, "value", confidence)
        )
        gain = grouped_means(frame, keys, "gain", confidence)
        part = p[keys].copy()
        part["bid"] = bid
        part["n"] = p["n"].to_numpy()
        for name, src in (("p_make", p), ("ev", ev), ("gain", gain)):
            part[name] = src["estimate"].to_numpy()
            part[f"{name}_lower"] = src["lower"].to_numpy()
            part[f"{name}_upper"] = src["upper"].to_numpy()
        part["defined"] = ev["defined"].to_numpy()
        # EV(pass) - EV(pass) never varies: "identical"; a constant gain: sign test.
        part["gain_defined"] = gain["defined"].to_numpy()
        part["gain_no_variation"] = gain["no_variation"].to_numpy()
        part["gain_p_value"] = gain_p_values(gain, confidence)
        part["gain_ci_method"] = gain["method"].to_numpy()
        for name, method in METHODS.items():
            part[f"{name}_method"] = method
        part["ev_method"] = ev["method"].to_numpy()
        parts.append(part)
    table = apply_gain_verdicts(pd.concat(parts, ignore_index=True), confidence)
    table = clip_gains(table, {b: difference_range(values[b], values["pass"]) for b in BIDS})
    table["bid"] = pd.Categorical(table["bid"], categories=list(BIDS), ordered=True)
    return table.sort_values([*keys, "bid"], kind="stable").reset_index(drop=True)


def bidding_table(
    outcomes: pd.DataFrame,
    by: str | Sequence[str] = ("trumps", "aces_threes"),
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The best bid of each hand class, and whether it beats passing.

    Parameters
    ----------
    outcomes : DataFrame
        :attr:`BiddingExperiment.outcomes`.
    by : str or sequence of str
        Class columns (default trumps held x aces and threes held).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        One row per class (also empty ones): the ``by`` columns, ``n``, ``ev_<bid>`` for every
        bid (``normal`` point estimates), ``best`` (the bid with the highest EV; ``None`` for
        an empty class), ``ev`` / ``ev_lower`` / ``ev_upper`` (its EV, ``normal``),
        ``p_make`` / ``p_make_lower`` / ``p_make_upper`` (its make-probability, ``wilson``),
        ``gain`` / ``gain_lower`` / ``gain_upper`` / ``gain_verdict`` (EV(best) - EV(pass),
        ``paired``, interval at its Holm level), ``beats_pass`` (bool,
        :func:`.bidding_verdicts.beats_pass`: the gain is resolved above 0 after Holm over the
        class table, also when it is the same in every hand and so has no interval),
        ``runner_up`` and ``margin`` / ``margin_lower`` / ``margin_upper`` /
        ``margin_verdict`` (EV(best) - EV(second best), ``paired``, Holm over the margins,
        clipped to the possible margins: :func:`.bidding_intervals.difference_range`).

    Raises
    ------
    ValueError
        Unknown class column.
    """
    keys = _keys(by)
    table = class_table(outcomes, keys, confidence)
    groups = outcomes.groupby(keys, observed=False, sort=True)
    index = {k if isinstance(k, tuple) else (k,): v for k, v in groups.indices.items()}
    rows = []
    for key, sub in table.groupby(keys, observed=False, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        sub = sub.set_index("bid", drop=False)
        row: dict[str, Any] = dict(zip(keys, key, strict=True))
        n = int(sub["n"].iloc[0])
        row["n"] = n
        for bid in BIDS:
            row[f"ev_{bid}"] = float(sub.loc[bid, "ev"])
        idx = index.get(key, np.array([], dtype=np.int64))
        if n == 0:
            row.update(best=None, runner_up=None, beats_pass=False)
            rows.append(row)
            continue
        order = sorted(BIDS, key=lambda b: -row[f"ev_{b}"])
        best, second = order[0], order[1]
        b = sub.loc[best]
        row.update(
            best=best,
            ev=b["ev"],
            ev_lower=b["ev_lower"],
            ev_upper=b["ev_upper"],
            p_make=b["p_make"],
            p_make_lower=b["p_make_lower"],
            p_make_upper=b["p_make_upper"],
            gain=b["gain"],
            gain_lower=b["gain_lower"],
            gain_upper=b["gain_upper"],
            gain_verdict=b["gain_verdict"],
            beats_pass=beats_pass(b),
            runner_up=second,
        )
        values = outcomes.iloc[idx]
        m = diff_paired("margin", values[f"value_{best}"], values[f"value_{second}"], confidence)
        row.update(
            margin=m["estimate"],
            margin_lower=m["lower"],
            margin_upper=m["upper"],
            margin_defined=m["defined"],
            margin_p_value=m["p_value"],
            margin_n=m["n"],
            margin_no_variation=m["no_variation"],
        )
        rows.append(row)
    out = pd.DataFrame(rows)
    for col in (
        "ev",
        "ev_lower",
        "ev_upper",
        "p_make",
        "p_make_lower",
        "p_make_upper",
        "gain",
        "gain_lower",
        "gain_upper",
        "margin",
        "margin_lower",
        "margin_upper",
    ):
        out[col] = out[col].astype(np.float64)
    out["margin_defined"] = out["margin_defined"].fillna(False).astype(bool)
    out["gain_verdict"] = out["gain_verdict"].fillna("undefined")
    margin = out[["margin", "margin_lower", "margin_upper", "margin_defined", "margin_p_value",
                  "margin_n", "margin_no_variation"]].set_axis(
        ["estimate", "lower", "upper", "defined", "p_value", "n", "no_variation"], axis=1
    ).assign(method="paired")  # fmt: skip
    margin["no_variation"] = margin["no_variation"].astype(object).fillna(False).astype(bool)
    mv = with_verdicts(margin, confidence=confidence)
    lo, hi = pair_ranges(outcomes, out["best"], out["runner_up"])
    out["margin_lower"], out["margin_upper"] = clip_bounds(mv["lower"], mv["upper"], lo, hi)
    out["margin_verdict"] = mv["verdict"]
    for k in keys:
        out[k] = pd.Categorical(out[k], categories=list(CLASS_VALUES[k]), ordered=True)
    return out


def overall_table(outcomes: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """:func:`class_table` over all hands: one row per bid (no class columns)."""
    frame = outcomes.assign(everything=pd.Categorical(["all"] * len(outcomes), categories=["all"]))
    return _class_table(frame, ["everything"], confidence).drop(columns="everything")


# --------------------------------------------------------------------------- thresholds
class Thresholds(NamedTuple):
    """Thresholds of the ``threshold`` bidding policy on ``hand_strength`` (99 = never)."""

    solo: int
    cuatrola: int
    quintola: int

    def spec(self) -> str:
        """The policy name, e.g. ``"threshold(solo=14,cuatrola=19,quintola=22)"``."""
        return f"threshold(solo={self.solo},cuatrola={self.cuatrola},quintola={self.quintola})"


def derive_thresholds(table: pd.DataFrame) -> Thresholds:
    """Derive the ``threshold`` policy's thresholds from a per-strength :func:`class_table`.

    For each contract X, the threshold is the lowest strength ``s`` such that at ``s`` and
    at every higher strength that was dealt (``n > 0``), X's estimated EV is above that of
    passing and of every lower contract; :data:`OFF` (99) if no such strength. The rule uses
    the point estimates; the table's paired intervals say how well each comparison is
    resolved.

    Parameters
    ----------
    table : DataFrame
        ``class_table(outcomes, "strength")``.

    Returns
    -------
    Thresholds

    Raises
    ------
    ValueError
        If ``table`` is not a per-strength class table.
    """
    if "strength" not in table or not {"bid", "ev", "n"} <= set(table.columns):
        raise ValueError("derive_thresholds needs class_table(outcomes, 'strength')")
    ev = table.pivot_table(
        index="strength", columns="bid", values="ev", observed=False, dropna=False, aggfunc="first"
    )
    n = table.groupby("strength", observed=False)["n"].first()
    seen = [int(s) for s in ev.index if n.loc[s] > 0]
    found = []
    for code, bid in enumerate(BIDS):
        if code == 0:
            continue
        lower = list(BIDS[:code])
        threshold = OFF
        for s in sorted(seen, reverse=True):
            if ev.loc[s, bid] > max(ev.loc[s, b] for b in lower):
                threshold = s
            else:
                break
        found.append(threshold)
    return Thresholds(*found)


def threshold_choice(strength: np.ndarray, thresholds: Sequence[int]) -> np.ndarray:
    """The bid (code 0..3) of the ``threshold`` policy at each strength: the highest
    contract whose threshold the strength reaches, else 0 (pass); no other seat bids."""
    s = np.asarray(strength, dtype=np.int64)
    choice = np.zeros(s.shape, dtype=np.int64)
    for code, t in enumerate(thresholds, start=1):
        choice = np.where(s >= t, code, choice)
    return choice


def policy_values(outcomes: pd.DataFrame, thresholds: Sequence[int]) -> np.ndarray:
    """Per-hand value (game points, seat's pair minus opponents') of bidding by ``thresholds``
    when the other seats pass, read from the forced-declarer outcomes (float64, shape (n,))."""
    values = outcomes[[f"value_{b}" for b in BIDS]].to_numpy(np.float64)
    choice = threshold_choice(outcomes["strength"].astype(np.int64).to_numpy(), thresholds)
    return values[np.arange(len(values)), choice]


def threshold_comparison(
    outcomes: pd.DataFrame,
    derived: Sequence[int],
    others: dict[str, Sequence[int]] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """EV of the derived thresholds against other threshold sets, paired on the same hands.

    Parameters
    ----------
    outcomes : DataFrame
        :attr:`BiddingExperiment.outcomes`.
    derived : sequence of 3 int
        Solo, cuatrola, quintola thresholds.
    others : dict, optional
        Label -> thresholds; default the hand-set first guess
        (:data:`~cuarenta_sim.cuatrola.policies.FIRST_GUESS_THRESHOLDS`) and never bidding
        (``(99, 99, 99)``).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        Rows ``ESTIMATE_COLUMNS`` plus ``label``: the EV per hand of each threshold set
        (``normal``) and the derived minus each other (``paired``), with ``verdict``
        (:func:`cuarenta_sim.stats.verdicts` for the differences, ``"-"`` for the EVs);
        intervals clipped to the possible values (:func:`.bidding_intervals.value_range`).
    """
    others = others or {"first guess": FIRST_GUESS_THRESHOLDS, "never bid": (OFF, OFF, OFF)}
    mine = policy_values(outcomes, derived)
    rows = [{**mean("EV per hand", mine, confidence), "label": "derived"}]
    for label, t in others.items():
        theirs = policy_values(outcomes, t)
        rows.append({**mean("EV per hand", theirs, confidence), "label": label})
        rows.append(
            {
                **diff_paired("derived minus", mine, theirs, confidence),
                "label": f"derived - {label}",
            }
        )
    out = pd.DataFrame(rows, columns=[*ESTIMATE_COLUMNS, "label"])
    diffs = (out["method"] == "paired").to_numpy()
    res = difference_verdicts(out, diffs, confidence)
    lo, hi = value_range([outcome_values(outcomes, b) for b in BIDS])
    res["lower"], res["upper"] = clip_bounds(
        res["lower"], res["upper"], np.where(diffs, lo - hi, lo), np.where(diffs, hi - lo, hi)
    )
    return res


# Re-exported: the value of mano and the exact trumps check live in .bidding_checks.
from .bidding_checks import exact_trumps_distribution as exact_trumps_distribution  # noqa: E402
from .bidding_checks import mano_table as mano_table  # noqa: E402
from .bidding_checks import trumps_check as trumps_check  # noqa: E402
