"""The distributions the board's statistics need, in pure Python.

Normal, Student t and binomial CDFs and quantiles, built on two primitives:
``math.erfc`` for the normal and the regularized incomplete beta function
I_x(a, b) for t and binomial, evaluated by its continued fraction
(Abramowitz & Stegun 26.5.8) with the modified Lentz method.

Accuracy (relative error), measured against scipy 1.17 and mpmath, and pinned
by ``tests/board/reference/distributions.json``:

- ``normal_cdf``: ``erfc(−x/√2)``: ≤ 1e-15 for |x| ≤ 5, growing as ~x²·1e-16
  in the far tail from rounding x/√2 (2e-13 at x = −37). ``normal_ppf``:
  Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4) polished by Halley steps on
  ``erf``/``erfc`` until a step is below 1e-15: ≤ 1e-15 for p in [1e-300, 1).
- ``regularized_beta``: ≤ 1e-13 while a, b ≤ 1e3; ≤ 1e-11 up to 1e4; ~1e-9 at
  1e5–1e6, where the continued fraction converges slowly (~√max(a, b) terms)
  and rounding accumulates. log B(a, b) uses a Stirling form for large
  arguments, and the prefactor x^a·(1−x)^b is taken through ``log1p``.
- ``t_sf``/``t_cdf``: ≤ 1e-13 for df ≤ 1e3, ≤ 5e-12 to 1e5, ≤ 5e-11 to 1e6,
  then degrading (~1e-7 at 1e10): the board never needs them there.
- ``t_ppf``: Newton steps on log P(T > t) inside a bracket: ≤ 1e-13 for
  df ≤ 1e4, ≤ 1e-12 below 1e6, for tail probabilities down to 1e-300 (while
  |t| < 1e154); from df = 1e6 on, Fisher's expansion to 1/df⁴: ≤ 1e-14.
  Within 1e-6 of p = ½ only the absolute error (~1e-16) is small: t is near 0.
- ``binomial_cdf`` = I_{1−p}(n − k, k + 1): ≤ 1e-12 for n ≤ 1e3, ≤ 5e-11 for
  n ≤ 2e4, ~5e-10 at 1e6. ``binomial_ppf`` bisects on k and is exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from slopmark.errors import BadInput

__all__ = [
    "binomial_cdf",
    "binomial_ppf",
    "log_beta",
    "normal_cdf",
    "normal_ppf",
    "regularized_beta",
    "t_cdf",
    "t_ppf",
    "t_sf",
]

_EPS = 1e-15
_TINY = 1e-300
_MAX_TERMS = 200_000
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
#: From here on t quantiles come from Fisher's expansion (error < 1e-15 for p ≥ 1e-300).
_HUGE_DF = 1e6


def _check_probability(name: str, p: float) -> None:
    if not 0.0 < p < 1.0:
        raise BadInput(f"{name}={p!r}: must be strictly between 0 and 1")


def normal_cdf(x: float) -> float:
    """P(Z ≤ x) for a standard normal Z."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _normal_tail_guess(q: float) -> float:
    """Abramowitz & Stegun 26.2.23: x with P(Z > x) ≈ q for q ≤ 0.5, |error| < 4.5e-4."""
    t = math.sqrt(-2.0 * math.log(q))
    numerator = 2.515517 + t * (0.802853 + t * 0.010328)
    denominator = 1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))
    return t - numerator / denominator


def _normal_excess(x: float, p: float) -> float:
    """P(Z ≤ x) − p, through erf near the centre where p − ½ is exact and erfc would cancel."""
    if p > 0.25:
        return 0.5 * math.erf(x / math.sqrt(2.0)) - (p - 0.5)
    return normal_cdf(x) - p


def normal_ppf(p: float) -> float:
    """x with P(Z ≤ x) = p: A&S 26.2.23 polished by Halley steps on erfc (see module doc)."""
    _check_probability("p", p)
    if p >= 0.5:
        return 0.0 if p == 0.5 else -normal_ppf(1.0 - p)
    x = -_normal_tail_guess(p)
    for _ in range(20):
        density = math.exp(-0.5 * x * x - _HALF_LOG_2PI)
        if density == 0.0:
            break
        u = _normal_excess(x, p) / density
        step = u / (1.0 + 0.5 * x * u)
        x -= step
        if abs(step) <= _EPS * max(1.0, abs(x)):
            break
    return x


def log_beta(a: float, b: float) -> float:
    """log B(a, b), with a Stirling form when the larger argument is ≥ 10.

    log Γ(s) − log Γ(s + d) for large s is −(s − ½)·log1p(d/s) − d·log(s + d) + d
    plus the Stirling remainders, which avoids cancelling two huge lgamma values.
    """
    small, large = sorted((a, b))
    if large < 10.0:
        return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    total = large + small
    ratio = -(large - 0.5) * math.log1p(small / large) - small * math.log(total) + small
    return math.lgamma(small) + ratio + _stirling_remainder(large) - _stirling_remainder(total)


def _stirling_remainder(x: float) -> float:
    """log Γ(x) − ((x − ½)·log x − x + ½·log 2π), for x ≥ 10 (error < 2e-14)."""
    inverse = 1.0 / x
    square = inverse * inverse
    series = 1 / 12 - square * (1 / 360 - square * (1 / 1260 - square * (1 / 1680 - square / 1188)))
    return inverse * series


def _lentz(first: float, pairs: Iterator[tuple[float, float]]) -> float:
    """1 / (first + d2 / (1 + d3 / (1 + ...))) by the modified Lentz method.

    The coefficients come in (even, odd) pairs and convergence is judged after
    whole pairs: an even step alone can change the value by a spuriously tiny amount.
    """
    d = 1.0 / (first if abs(first) > _TINY else _TINY)
    c = 1.0
    value = d
    for _, pair in zip(range(_MAX_TERMS), pairs, strict=False):
        change = 1.0
        for coefficient in pair:
            d = 1.0 + coefficient * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + coefficient / c
            c = c if abs(c) > _TINY else _TINY
            change = c * d
            value *= change
        if abs(change - 1.0) < _EPS:
            return value
    raise ArithmeticError("the incomplete beta continued fraction did not converge")


def _beta_terms(a: float, b: float, x: float) -> Iterator[tuple[float, float]]:
    """The coefficients (d_2m, d_2m+1), m = 1, 2, ... of A&S 26.5.8 (d_1 is in the first term)."""
    m = 1
    while True:
        even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        yield even, odd
        m += 1


def _first_denominator(a: float, b: float, x: float, y: float) -> float:
    """1 − (a + b)·x/(a + 1); for b ≤ 1 as ((a + b)·y + 1 − b)/(a + 1), two terms ≥ 0."""
    if b <= 1.0:
        return ((a + b) * y + 1.0 - b) / (a + 1.0)
    return 1.0 - (a + b) * x / (a + 1.0)


def _beta_fraction(a: float, b: float, x: float, y: float) -> float:
    """I_x(a, b) by the continued fraction, given y = 1 − x computed without cancellation."""
    log_x = math.log1p(-y) if y < 0.5 else math.log(x)
    log_y = math.log1p(-x) if x < 0.5 else math.log(y)
    log_front = a * log_x + b * log_y - log_beta(a, b)
    first = _first_denominator(a, b, x, y)
    fraction = _lentz(first, _beta_terms(a, b, x))
    return math.exp(log_front + math.log(fraction / a))  # one exp: no subnormal prefactor


def _incomplete_beta(a: float, b: float, x: float, y: float) -> float:
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - _beta_fraction(b, a, y, x)
    return _beta_fraction(a, b, x, y)


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function (scipy's ``betainc(a, b, x)``)."""
    if not (a > 0.0 and b > 0.0 and 0.0 <= x <= 1.0):
        raise BadInput(
            f"regularized_beta: x={x!r}, a={a!r}, b={b!r}; needs x in [0, 1] and a, b > 0"
        )
    return _incomplete_beta(a, b, x, 1.0 - x)


def _check_t(t: float, df: float) -> None:
    if math.isnan(t) or not 0.0 < df < math.inf:
        raise BadInput(f"t={t!r}, df={df!r}: needs a number t and a finite df greater than 0")


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    _check_t(t, df)
    return _t_sf(t, df)


def _t_sf(t: float, df: float) -> float:
    if math.isinf(t):
        return 0.0 if t > 0.0 else 1.0
    square = t * t
    tail = 0.5 * _incomplete_beta(0.5 * df, 0.5, df / (df + square), square / (df + square))
    return tail if t >= 0.0 else 1.0 - tail


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with ``df`` degrees of freedom."""
    return t_sf(-t, df)


def _t_log_density_constant(df: float) -> float:
    return -log_beta(0.5, 0.5 * df) - 0.5 * math.log(df)


def t_ppf(p: float, df: float) -> float:
    """t with P(T ≤ t) = p (scipy's ``t.ppf``), accurate as the module doc says."""
    _check_probability("p", p)
    _check_t(0.0, df)
    if p == 0.5:
        return 0.0
    if df >= _HUGE_DF:
        return _t_ppf_expansion(normal_ppf(p), df)
    root = _t_tail_root(min(p, 1.0 - p), df)
    return root if p > 0.5 else -root


def _t_ppf_expansion(z: float, df: float) -> float:
    """Fisher's expansion of the t quantile in powers of 1/df (A&S 26.7.5), to 1/df⁴."""
    s = z * z
    terms = (
        (s + 1.0) / 4.0,
        ((5.0 * s + 16.0) * s + 3.0) / 96.0,
        (((3.0 * s + 19.0) * s + 17.0) * s - 15.0) / 384.0,
        ((((79.0 * s + 776.0) * s + 1482.0) * s - 1920.0) * s - 945.0) / 92160.0,
    )
    return z + z * sum(term / df ** (power + 1) for power, term in enumerate(terms))


def _t_tail_root(q: float, df: float) -> float:
    """The t > 0 with P(T > t) = q < ½: Newton steps on log P(T > t), kept inside a bracket."""
    low, high = 0.0, max(1.0, -normal_ppf(q))
    while _t_sf(high, df) > q:
        low, high = high, 2.0 * high
    constant, t = _t_log_density_constant(df), high
    for _ in range(200):
        tail = _t_sf(t, df)
        low, high = (t, high) if tail > q else (low, t)
        candidate = 0.5 * (low + high)
        if tail > 0.0:
            log_density = constant - 0.5 * (df + 1.0) * math.log1p(t * t / df)
            newton = t + math.log(tail / q) * math.exp(math.log(tail) - log_density)
            candidate = newton if low < newton < high else candidate
        if abs(candidate - t) <= 1e-15 * candidate or high - low <= 1e-15 * high:
            return candidate
        t = candidate
    return t


def _check_binomial(n: int, p: float) -> None:
    if n < 0 or not 0.0 <= p <= 1.0:
        raise BadInput(f"binomial: n={n!r}, p={p!r}; needs n ≥ 0 and p in [0, 1]")


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X ≤ k) for X ~ Binomial(n, p), as I_{1−p}(n − k, k + 1)."""
    _check_binomial(n, p)
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return _incomplete_beta(float(n - k), float(k + 1), 1.0 - p, p)


def binomial_ppf(q: float, n: int, p: float) -> int:
    """The smallest k with P(X ≤ k) ≥ q for X ~ Binomial(n, p), by bisection on k."""
    _check_probability("q", q)
    _check_binomial(n, p)
    low, high = 0, n
    while low < high:
        middle = (low + high) // 2
        if binomial_cdf(middle, n, p) >= q:
            high = middle
        else:
            low = middle + 1
    return low
