"""Second cold read (issue 18, branch i18-fix2-sg): the convergence note printed "0 of 2
inside the main run's interval" for replicates a quarter its size, which reads as a failed
check; each replicate now shows its own interval and whether it overlaps the main run's."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from cuarenta_sim.studies.convergence import convergence_note


def test_replicates_print_their_own_intervals_and_overlap() -> None:
    main = np.array([1] * 5_560 + [0] * 4_440)  # 55.6%, +-1.0 pp
    near = np.array([1] * 1_430 + [0] * 1_070)  # 57.2%, outside main's interval, overlaps
    far = np.array([1] * 1_750 + [0] * 750)  # 70%, no overlap
    text, fig, _ = convergence_note(
        [main, near, far], what="win rate", unit="pairs", kind="proportion", percent=True
    )
    plt.close(fig)
    assert "inside the main run's interval" not in text
    assert "2 replicate runs on other seeds (2,500 pairs each, each with its own 95% interval" in (
        text
    )
    assert "ended at 57.2% [55.3, 59.1]; 70.0% [68.2, 71.8]" in text
    assert "1 of 2 overlap the main run's interval" in text
