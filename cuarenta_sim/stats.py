"""Estimates with honest error bars: DataFrame in, DataFrame out.

Every estimate comes with its sample size ``n``, a ``lower``/``upper`` interval at
``confidence``, the ``method`` that made it, ``defined`` (False: no interval), ``no_variation``
(True: the sample showed no variation at all) and, for differences, ``p_value`` (two-sided, of
a zero difference; NaN for single estimates):

* ``wilson``: Wilson score interval for a proportion; valid at 0/N and N/N (never zero-width);
  ``n == 0`` gives NaN bounds with ``defined = False`` (never an exception).
* ``t`` / ``normal``: mean +- c * s / sqrt(n) for a mean of i.i.d. per-data values (datas are
  independent by construction: each has its own random streams); ``c`` is Student's t with
  ``n - 1`` degrees of freedom below :data:`T_MAX_N` units (``method = "t"``), the normal
  quantile from there on (``"normal"``): :func:`critical_value`.
* ``ratio``: a ratio of sums over independent datas (e.g. caidas per play), with a delta-method
  (cluster-robust) standard error, so the dependence of plays within a data is respected.

Differences between two variants (rule sets) come in two kinds:

* **paired** (common random numbers: unit ``i`` of both samples played the same decks):
  ``paired`` (interval on the per-unit differences, for means and 0/1 outcomes), ``paired
  exact`` (0/1 outcomes with fewer than :data:`EXACT_MAX_DISCORDANT` discordant pairs: exact
  McNemar test and Clopper-Pearson bounds, :func:`paired_verdict`), ``paired ratio``
  (difference of two ratios of sums, delta method on the paired units) and ``paired
  log-ratio`` (relative difference ``a / b - 1``, delta method on the log scale).
* **unpaired** (independent samples): ``welch`` for means (Welch-Satterthwaite t),
  ``newcombe`` (hybrid score, built from two Wilson intervals) for proportions.

**Constant samples never get a zero-width interval.** When every unit has the same value
(identical paired samples, a mean of equal values, an exactly proportional ratio) the row is
flagged ``no_variation = True``; its interval is the bound :func:`constant_interval` derives
from :func:`no_variation_bound` (the share of units that could still differ, ``1 -
(alpha/2)^(1/n)``) when the range of the values is known (``value_range``, or 0/1 outcomes),
and NaN (``defined = False``: "no variation observed", no interval) otherwise. A single
estimate (a mean or a ratio) with such a bound carries ``method =``
:data:`NO_VARIATION_METHOD` (``"clopper-pearson bound"``), since no ``t`` / ``ratio`` interval
made it.

:func:`verdicts` says what each difference's test settles, with Holm's correction over the
family of rows (:mod:`cuarenta_sim.verdicts`, whose public names are importable from here).

The public API lives here; the code is split by job: single estimates in
:mod:`cuarenta_sim.stats_estimates`, differences in :mod:`cuarenta_sim.stats_paired`, group-bys
and frames of counts in :mod:`cuarenta_sim.stats_frames`.
"""

from __future__ import annotations

from .distributions import z_value as z_value
from .stats_estimates import ESTIMATE_COLUMNS as ESTIMATE_COLUMNS
from .stats_estimates import NO_VARIATION_METHOD as NO_VARIATION_METHOD
from .stats_estimates import ValueRange as ValueRange
from .stats_estimates import clustered_proportion as clustered_proportion
from .stats_estimates import estimate_row as estimate_row
from .stats_estimates import mean as mean
from .stats_estimates import mean_method as mean_method
from .stats_estimates import proportion as proportion
from .stats_estimates import ratio as ratio
from .stats_estimates import spread_row as spread_row
from .stats_estimates import wilson_interval as wilson_interval
from .stats_frames import grouped_means as grouped_means
from .stats_frames import grouped_proportions as grouped_proportions
from .stats_frames import proportions as proportions
from .stats_paired import diff_means as diff_means
from .stats_paired import diff_paired as diff_paired
from .stats_paired import diff_paired_ratio as diff_paired_ratio
from .stats_paired import diff_proportions as diff_proportions
from .stats_paired import diff_rel_diffs_paired as diff_rel_diffs_paired
from .stats_paired import rel_diff_paired as rel_diff_paired
from .verdicts import ADJUSTMENTS as ADJUSTMENTS
from .verdicts import EXACT_MAX_DISCORDANT as EXACT_MAX_DISCORDANT
from .verdicts import T_MAX_N as T_MAX_N
from .verdicts import VERDICT_WORDS as VERDICT_WORDS
from .verdicts import VERDICTS as VERDICTS
from .verdicts import adjust_pvalues as adjust_pvalues
from .verdicts import benjamini_hochberg as benjamini_hochberg
from .verdicts import constant_interval as constant_interval
from .verdicts import critical_value as critical_value
from .verdicts import discordant_test as discordant_test
from .verdicts import holm as holm
from .verdicts import implied_p_value as implied_p_value
from .verdicts import is_binary as is_binary
from .verdicts import no_variation_bound as no_variation_bound
from .verdicts import p_value_of_zero as p_value_of_zero
from .verdicts import paired_verdict as paired_verdict
from .verdicts import required_n as required_n
from .verdicts import too_small as too_small
from .verdicts import verdict_table as verdict_table
from .verdicts import verdict_word as verdict_word
from .verdicts import verdicts as verdicts
from .verdicts import with_verdicts as with_verdicts
