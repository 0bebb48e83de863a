"""One colour per bid in every figure of the cuatrola-bidding report (issue 18 cold read:
`value_of_mano.png` gave solo the pass colour in its EV panel, since the P(make) panel has no
pass). Built from a small synthetic table, no simulation."""

from __future__ import annotations

import pandas as pd
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer

from cuarenta_sim.cuatrola import bidding_figures
from cuarenta_sim.cuatrola.bidding import BIDS, POSITIONS


def _by_position() -> pd.DataFrame:
    rows = []
    for i, pos in enumerate(POSITIONS):
        for j, bid in enumerate(BIDS):
            rows.append(
                {
                    "position": pos,
                    "bid": bid,
                    "n": 100,
                    "p_make": 0.4 + 0.05 * j,
                    "p_make_lower": 0.3,
                    "p_make_upper": 0.6,
                    "ev": 0.1 * (i - j),
                    "ev_lower": 0.1 * (i - j) - 0.05,
                    "ev_upper": 0.1 * (i - j) + 0.05,
                    "defined": True,
                }
            )
    return pd.DataFrame(rows)


def _colours(ax) -> dict[str, str]:
    """Legend label -> bar colour of one panel (every bar of a label has one colour)."""
    out: dict[str, set[str]] = {}
    for container in ax.containers:
        if not isinstance(container, BarContainer):
            continue  # the interval whiskers
        label = container.get_label()
        out.setdefault(label, set()).update(to_hex(p.get_facecolor()) for p in container.patches)
    assert all(len(c) == 1 for c in out.values()), out
    return {k: next(iter(v)) for k, v in out.items()}


def test_value_of_mano_gives_each_bid_one_colour_in_both_panels() -> None:
    fig = bidding_figures._fig_mano({"by_position": _by_position()})
    make, ev = (_colours(ax) for ax in fig.axes[:2])
    assert "pass" not in make and set(ev) == set(BIDS)
    for bid, colour in make.items():
        assert ev[bid] == colour, bid
    # The legend names every series drawn, in its drawn colour.
    for ax, drawn in zip(fig.axes[:2], (make, ev), strict=True):
        legend = ax.get_legend()
        assert legend is not None
        shown = {
            t.get_text(): to_hex(h.get_facecolor())
            for t, h in zip(legend.get_texts(), legend.legend_handles, strict=True)
        }
        assert shown == drawn
    assert len(set(ev.values())) == len(BIDS)
    assert ev == {b: to_hex(bidding_figures.BID_COLORS[b]) for b in BIDS}
