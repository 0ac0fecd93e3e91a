"""Math templates: algebra: linear equations, systems, quadratics, expansion and factorising."""

from __future__ import annotations

import random
from fractions import Fraction

import sympy

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.math.problem import (
    DOMAIN,
    X,
    Y,
    draft,
    draw_level,
    nonzero,
    show,
)


@register("linear-one-side", domain=DOMAIN)
def linear_one_side(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b, c = nonzero(rng, -5 * k, 5 * k), rng.randint(-20 * k, 20 * k), rng.randint(-30, 30)
    question = f"Solve for x: {show(a * X + b)} = {c}"
    return draft(question, Fraction(c - b, a), "number", level, "algebra")


@register("linear-both-sides", domain=DOMAIN)
def linear_both_sides(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, c = rng.sample([n for n in range(-6 * k, 6 * k + 1) if n], 2)
    b, d = rng.randint(-25, 25), rng.randint(-25, 25)
    question = f"Solve for x: {show(a * X + b)} = {show(c * X + d)}"
    return draft(question, Fraction(d - b, a - c), "number", level, "algebra")


@register("system-2x2", domain=DOMAIN)
def system_2x2(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    x, y = rng.randint(-5 * k, 5 * k), rng.randint(-5 * k, 5 * k)
    while True:
        a, b, c, d = (nonzero(rng, -4 - k, 4 + k) for _ in range(4))
        if a * d != b * c:
            break
    lines = [f"{show(p * X + q * Y)} = {p * x + q * y}" for p, q in ((a, b), (c, d))]
    question = "Solve the system:\n" + "\n".join(lines)
    return draft(question, [x, y], "tuple", level, "algebra", "systems", names=["x", "y"])


@register("quadratic-integer-roots", domain=DOMAIN)
def quadratic_integer_roots(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    r, s = rng.sample(range(-6 * k, 6 * k + 1), 2)
    poly = sympy.expand((X - r) * (X - s))
    question = f"Solve for x: {show(poly)} = 0"
    return draft(question, [r, s], "set", level, "algebra", "quadratics")


@register("quadratic-rational-roots", domain=DOMAIN)
def quadratic_rational_roots(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    p, q = rng.randint(-5 * k, 5 * k), rng.choice([2, 3, 5])
    r = rng.choice([n for n in range(-4 * k, 4 * k + 1) if n % q])
    poly = sympy.expand((q * X - r) * (X - p))
    question = f"Solve for x: {show(poly)} = 0"
    return draft(question, [Fraction(r, q), p], "set", level, "algebra", "quadratics")


@register("vieta-sum-of-squares", domain=DOMAIN)
def vieta_sum_of_squares(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    b, c = rng.randint(-6 * k, 6 * k), nonzero(rng, -10 * k, 10 * k)
    question = (f"Let r and s be the roots of x^2 + {b}x + {c} = 0. What is r^2 + s^2?"
                .replace("+ -", "- "))
    return draft(question, b * b - 2 * c, "integer", level, "algebra", "quadratics")


@register("expand-binomials", domain=DOMAIN)
def expand_binomials(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b, c, d = (nonzero(rng, -3 * k, 3 * k) for _ in range(4))
    product = f"({show(a * X + b)})({show(c * X + d)})"
    question = f"Expand and simplify {product}."
    gold = sympy.expand((a * X + b) * (c * X + d))
    return draft(question, gold, "expression", level, "algebra", form="expanded")


@register("factor-quadratic", domain=DOMAIN)
def factor_quadratic(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    p, q = rng.sample([n for n in range(-5 * k, 5 * k + 1) if n], 2)
    poly = sympy.expand((X + p) * (X + q))
    question = f"Factorise completely: {show(poly)}"
    return draft(question, (X + p) * (X + q), "expression", level, "algebra", form="factored")


@register("simplify-rational", domain=DOMAIN)
def simplify_rational(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b = rng.sample([n for n in range(-4 * k, 4 * k + 1) if n], 2)
    top, bottom = sympy.expand((X + a) * (X + b)), X + a
    question = f"Simplify ({show(top)}) / ({show(bottom)}) for x ≠ {-a}."
    return draft(question, X + b, "expression", level, "algebra", form="expanded")
