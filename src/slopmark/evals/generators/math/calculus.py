"""Math templates: calculus and statistics."""

from __future__ import annotations

import random
from fractions import Fraction

import sympy

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.math.problem import (
    DOMAIN,
    X,
    draft,
    draw_level,
    nonzero,
    show,
)


@register("derivative-polynomial", domain=DOMAIN)
def derivative_polynomial(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    poly = sum(nonzero(rng, -9, 9) * X**power for power in rng.sample(range(4 + k), 2 + k))
    question = f"Differentiate f(x) = {show(poly)} with respect to x."
    return draft(question, sympy.diff(poly, X), "expression", level, "calculus")


@register("derivative-at-point", domain=DOMAIN)
def derivative_at_point(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    poly = sum(nonzero(rng, -6, 6) * X**power for power in rng.sample(range(1, 3 + k), 1 + k))
    point = rng.randint(-3, 3)
    question = f"Let f(x) = {show(poly)}. What is f'({point})?"
    return draft(question, int(sympy.diff(poly, X).subs(X, point)), "integer", level, "calculus")


@register("definite-integral", domain=DOMAIN)
def definite_integral(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    poly = sum(rng.randint(1, 6) * X**power for power in rng.sample(range(3 + k), 1 + k))
    upper = rng.randint(1, 2 + k)
    value = sympy.integrate(poly, (X, 0, upper))
    question = f"Compute the integral of {show(poly)} dx from x = 0 to x = {upper}."
    return draft(question, Fraction(int(value.p), int(value.q)), "number", level, "calculus")


@register("median-of-data", domain=DOMAIN)
def median_of_data(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    data = [rng.randint(1, 50 * k) for _ in range(rng.randint(4, 5 + 3 * k))]
    ordered, middle = sorted(data), len(data) // 2
    median = Fraction(ordered[middle] + ordered[~middle], 2)
    question = f"What is the median of {', '.join(map(str, data))}?"
    return draft(question, median, "number", level, "statistics")


@register("weighted-average", domain=DOMAIN)
def weighted_average(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    parts = [("homework", 20), ("midterm", 30), ("final exam", 50)] if k > 1 else [
        ("coursework", 40), ("exam", 60)]
    scores = [rng.randint(40, 100) for _ in parts]
    value = sum(Fraction(s * w, 100) for s, (_, w) in zip(scores, parts, strict=True))
    listing = "; ".join(f"{n} {s} (weight {w}%)" for s, (n, w) in zip(scores, parts, strict=True))
    question = f"A course grade is a weighted average of: {listing}. What is the course grade?"
    return draft(question, value, "number", level, "statistics")
