"""Distribution functions the statistics need, without scipy.

scipy is not a dependency of cuarenta_sim, yet honest small-sample statistics need a few
distribution functions beyond the normal one (:class:`statistics.NormalDist`):

* Student t quantiles (t intervals at small ``n``),
* the exact binomial tail and Clopper-Pearson bounds (exact tests on discordant pairs),
* the chi-square survival function (goodness of fit of Bradley-Terry ratings).

All of them reduce to two special functions, implemented here with the classical methods of
Press et al., *Numerical Recipes* (3rd ed., sections 6.2 and 6.4):

* the regularized incomplete beta function ``I_x(a, b)``, from its continued fraction
  (evaluated by the modified Lentz method) on the side of ``x`` where it converges fast, and
  the symmetry ``I_x(a, b) = 1 - I_{1-x}(b, a)`` on the other side;
* the regularized upper incomplete gamma function ``Q(a, x)``, from its power series for
  ``x < a + 1`` and its continued fraction otherwise.

Quantiles are found by bisection on the distribution function (monotone, so bisection cannot
fail), to a relative tolerance of about 1e-13. The tests compare these functions with closed
forms (t with 1, 2 and 4 degrees of freedom, chi-square with even degrees, ``0/n`` Clopper-
Pearson bounds) and with published table values to 1e-6.
"""

from __future__ import annotations

import math
import numbers
from functools import lru_cache
from statistics import NormalDist

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 100_000


def _check_positive(name: str, value: float) -> None:
    if not (isinstance(value, numbers.Real) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")


def _check_probability(name: str, p: float) -> None:
    if not (isinstance(p, numbers.Real) and 0.0 < p < 1.0):
        raise ValueError(f"{name} must be strictly between 0 and 1, got {p!r}")


# --------------------------------------------------------------------------- incomplete beta
def _beta_cf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz method)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_ITER):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            return h
    raise ArithmeticError(f"incomplete beta continued fraction did not converge (a={a}, b={b})")


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function ``I_x(a, b)``.

    Parameters
    ----------
    a, b : float
        Positive shape parameters.
    x : float
        Point in [0, 1].

    Returns
    -------
    float
        ``I_x(a, b) = B(x; a, b) / B(a, b)`` in [0, 1]; the CDF at ``x`` of a Beta(a, b).

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not positive or ``x`` is outside [0, 1].
    """
    _check_positive("a", a)
    _check_positive("b", b)
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must lie in [0, 1], got {x!r}")
    if x == 0.0 or x == 1.0:
        return float(x)
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    # The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry
    # on the other side.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1.0 - x) / b


def _bisect(f, target: float, lo: float, hi: float, rel: float = 1e-14) -> float:
    """Root of the increasing function ``f(x) = target`` in [lo, hi] by bisection."""
    for _ in range(2000):
        mid = 0.5 * (lo + hi)
        if hi - lo <= rel * max(abs(mid), 1e-300) or mid in (lo, hi):
            return mid
        if f(mid) < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def beta_ppf(q: float, a: float, b: float) -> float:
    """Quantile of the Beta(a, b) distribution: the ``x`` with ``I_x(a, b) = q``.

    Parameters
    ----------
    q : float
        Probability in [0, 1].
    a, b : float
        Positive shape parameters.

    Returns
    -------
    float
        The quantile in [0, 1] (bisection, relative tolerance 1e-14).

    Raises
    ------
    ValueError
        If ``q`` is outside [0, 1] or a shape is not positive.
    """
    _check_positive("a", a)
    _check_positive("b", b)
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"q must lie in [0, 1], got {q!r}")
    if q in (0.0, 1.0):
        return float(q)
    return _bisect(lambda x: betainc(a, b, x), q, 0.0, 1.0)


# --------------------------------------------------------------------------- Student t
def t_sf(t: float, df: float) -> float:
    """Upper tail ``P(T > t)`` of Student's t with ``df`` degrees of freedom.

    Computed as ``I_x(df/2, 1/2) / 2`` with ``x = df / (df + t^2)`` for ``t >= 0`` (no
    cancellation in the far tail), and ``1 - t_sf(-t)`` below 0.

    Raises
    ------
    ValueError
        If ``df`` is not positive.
    """
    _check_positive("df", df)
    if math.isnan(t):
        return math.nan
    if t < 0:
        return 1.0 - t_sf(-t, df)
    if math.isinf(t):
        return 0.0
    return 0.5 * betainc(0.5 * df, 0.5, df / (df + t * t))


def t_cdf(t: float, df: float) -> float:
    """Distribution function ``P(T <= t)`` of Student's t; see :func:`t_sf`."""
    return 1.0 - t_sf(t, df) if t >= 0 else t_sf(-t, df)


@lru_cache(maxsize=4096)
def t_ppf(p: float, df: float) -> float:
    """Quantile of Student's t with ``df`` degrees of freedom.

    Parameters
    ----------
    p : float
        Probability strictly between 0 and 1.
    df : float
        Positive degrees of freedom (need not be whole: Welch-Satterthwaite).

    Returns
    -------
    float
        The ``t`` with ``P(T <= t) = p``: bisection on the upper tail :func:`t_sf` (so
        quantiles near 1 keep their relative precision), relative tolerance about 1e-13.

    Raises
    ------
    ValueError
        If ``p`` is not in (0, 1) or ``df`` is not positive.
    """
    _check_probability("p", p)
    _check_positive("df", df)
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_ppf(1.0 - p, df)
    tail = 1.0 - p
    hi = max(1.0, NormalDist().inv_cdf(p))
    while t_sf(hi, df) > tail:
        hi *= 2.0
    # t_sf decreases in t; bisect on -t_sf, increasing.
    return _bisect(lambda t: -t_sf(t, df), -tail, 0.0, hi)


# --------------------------------------------------------------------------- binomial
def binom_cdf(k: int, n: int, p: float) -> float:
    """Binomial distribution function ``P(X <= k)``, ``X ~ Binomial(n, p)``.

    Exact rational arithmetic for ``p = 1/2`` and ``n <= 2000`` (sums of binomial
    coefficients); otherwise ``I_{1-p}(n - k, k + 1)``.

    Raises
    ------
    ValueError
        If ``n < 0`` or ``p`` is outside [0, 1].
    """
    if n < 0 or not 0.0 <= p <= 1.0:
        raise ValueError(f"need n >= 0 and 0 <= p <= 1, got n={n!r}, p={p!r}")
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p == 0.5 and n <= 2000:
        return sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    if p in (0.0, 1.0):
        return 1.0 if p == 0.0 else 0.0
    return betainc(n - k, k + 1, 1.0 - p)


def sign_test_p(k: int, n: int) -> float:
    """Exact two-sided binomial test of ``p = 1/2`` (sign test, McNemar's exact test).

    Parameters
    ----------
    k : int
        Successes (e.g. discordant pairs favouring A), ``0 <= k <= n``.
    n : int
        Trials (e.g. discordant pairs).

    Returns
    -------
    float
        ``min(1, 2 P(X <= min(k, n - k)))`` for ``X ~ Binomial(n, 1/2)`` (the distribution is
        symmetric, so doubling the smaller tail is the same as summing every outcome at most
        as likely as ``k``); 1 when ``n == 0``.

    Raises
    ------
    ValueError
        If the counts are negative or ``k > n``.
    """
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k!r}, n={n!r}")
    if n == 0:
        return 1.0
    return min(1.0, 2.0 * binom_cdf(min(k, n - k), n, 0.5))


@lru_cache(maxsize=4096)
def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) two-sided interval for a binomial proportion ``k / n``.

    Parameters
    ----------
    k, n : int
        Successes and trials, ``0 <= k <= n``, ``n > 0``.
    confidence : float
        Two-sided level; each tail gets ``(1 - confidence) / 2``.

    Returns
    -------
    (lower, upper) : tuple of float
        Beta quantiles ``B(alpha/2; k, n-k+1)`` and ``B(1-alpha/2; k+1, n-k)``; at ``k = 0``
        the upper bound is the closed form ``1 - (alpha/2)^(1/n)`` (the exact "rule of three":
        about ``3.69 / n`` at 95%), symmetrically at ``k = n``. Never zero-width.

    Raises
    ------
    ValueError
        On impossible counts or a level outside (0, 1).
    """
    _check_probability("confidence", confidence)
    if n <= 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n and n > 0, got k={k!r}, n={n!r}")
    half_alpha = (1.0 - confidence) / 2.0
    lower = (
        0.0
        if k == 0
        else (half_alpha ** (1.0 / n) if k == n else beta_ppf(half_alpha, k, n - k + 1))
    )
    upper = (
        1.0
        if k == n
        else (1.0 - half_alpha ** (1.0 / n) if k == 0 else beta_ppf(1.0 - half_alpha, k + 1, n - k))
    )
    return lower, upper


# --------------------------------------------------------------------------- chi-square
def _gamma_series(a: float, x: float) -> float:
    """Lower regularized gamma ``P(a, x)`` by its series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            return total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    raise ArithmeticError(f"incomplete gamma series did not converge (a={a}, x={x})")


def _gamma_cf(a: float, x: float) -> float:
    """Upper regularized gamma ``Q(a, x)`` by its continued fraction (x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h
    raise ArithmeticError(f"incomplete gamma continued fraction did not converge (a={a}, x={x})")


def gammaincc(a: float, x: float) -> float:
    """Regularized upper incomplete gamma function ``Q(a, x) = Gamma(a, x) / Gamma(a)``.

    Raises
    ------
    ValueError
        If ``a`` is not positive or ``x`` is negative.
    """
    _check_positive("a", a)
    if not x >= 0.0:
        raise ValueError(f"x must be non-negative, got {x!r}")
    if x == 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1.0:
        return 1.0 - _gamma_series(a, x)
    return _gamma_cf(a, x)


def chi2_sf(x: float, df: float) -> float:
    """Survival function ``P(X > x)`` of a chi-square with ``df`` degrees of freedom.

    ``Q(df / 2, x / 2)`` (:func:`gammaincc`); 1 for ``x <= 0``.

    Raises
    ------
    ValueError
        If ``df`` is not positive.
    """
    _check_positive("df", df)
    if math.isnan(x):
        return math.nan
    if x <= 0.0:
        return 1.0
    return gammaincc(0.5 * df, 0.5 * x)


# --------------------------------------------------------------------------- normal
def z_value(confidence: float) -> float:
    """Two-sided standard-normal quantile for ``confidence`` in (0, 1).

    Raises
    ------
    ValueError
        If ``confidence`` is not strictly between 0 and 1.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def normal_two_sided_p(z: float) -> float:
    """Two-sided p-value ``2 P(Z > |z|)`` of a standard-normal statistic (NaN stays NaN)."""
    if math.isnan(z):
        return math.nan
    return math.erfc(abs(z) / math.sqrt(2.0))
