"""Calibration templates: arithmetic, from two-digit sums to fifteen-digit products."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from slopmark.evals.answers import format_number
from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.calibration.question import DOMAIN, ask, level


def _digits(rng: random.Random, count: int) -> int:
    return rng.randint(10 ** (count - 1), 10**count - 1)


@register("add", domain=DOMAIN)
def add(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    a, b = _digits(rng, 2 * k), _digits(rng, 2 * k + k // 3)
    return ask(f"What is {a} + {b}?", a + b, "integer", difficulty, "arithmetic")


@register("subtract", domain=DOMAIN)
def subtract(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    a, b = _digits(rng, 2 * k), _digits(rng, 2 * k)
    return ask(f"What is {a} - {b}?", a - b, "integer", difficulty, "arithmetic")


@register("multiply", domain=DOMAIN)
def multiply(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    a, b = _digits(rng, k + 1), _digits(rng, 2 * k - 1)
    return ask(f"What is {a} × {b}?", a * b, "integer", difficulty, "arithmetic")


@register("long-division", domain=DOMAIN)
def long_division(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    b = _digits(rng, k)
    a = b * _digits(rng, k + 1) + rng.randrange(b)
    question = f"What is the whole-number quotient of {a} ÷ {b} (drop the remainder)?"
    return ask(question, a // b, "integer", difficulty, "arithmetic")


@register("power", domain=DOMAIN)
def power(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    base = rng.choice([2, 3, 5, 7][: k + 1])
    exponent = rng.randint(4 * k, 10 * k)
    return ask(f"What is {base}^{exponent}?", base**exponent, "integer", difficulty, "powers")


@register("square-root", domain=DOMAIN)
def square_root(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    root = rng.randint(10 ** k // 2 + 2, 10 ** (k + 1) // 3)
    question = f"What is the square root of {root * root}?"
    return ask(question, root, "integer", difficulty, "powers")


@register("factorial", domain=DOMAIN)
def factorial(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(3 * k + 1, 4 * k + 3)
    return ask(f"What is {n}! ({n} factorial)?", math.factorial(n), "integer", difficulty, "powers")


@register("sum-to-n", domain=DOMAIN)
def sum_to_n(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(10**k, 3 * 10**k)
    question = f"What is the sum of all whole numbers from 1 to {n}?"
    return ask(question, n * (n + 1) // 2, "integer", difficulty, "series")


@register("percent-of", domain=DOMAIN)
def percent_of(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    percent = rng.choice([10, 25, 50, 20, 15, 35, 12.5, 17.5, 2.5, 37.5][: 3 * k + 1])
    whole = rng.randint(2, 10 ** (k + 1)) * 8
    value = Fraction(str(percent)) * whole / 100
    question = f"What is {percent}% of {whole}?"
    return ask(question, format_number(value), "number", difficulty, "percentages")


@register("lowest-terms", domain=DOMAIN)
def lowest_terms(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    top, bottom = rng.randint(1, 6 * k), rng.randint(7 * k, 13 * k)
    factor = rng.randint(2, 4 * k + 2)
    question = f"Write {top * factor}/{bottom * factor} as a fraction in lowest terms."
    value = Fraction(top, bottom)
    return ask(question, format_number(value), "number", difficulty, "fractions")


@register("larger-fraction", domain=DOMAIN)
def larger_fraction(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    a = b = Fraction(1)
    while a == b or a.denominator == 1 or b.denominator == 1:
        a = Fraction(rng.randint(1, 8 * k), rng.randint(2, 9 * k))
        b = Fraction(rng.randint(1, 8 * k), rng.randint(2, 9 * k))
    names = [format_number(a), format_number(b)]
    question = f"Which is larger, {names[0]} or {names[1]}?"
    return ask(question, names[0] if a > b else names[1], "choice", difficulty, "fractions",
               choices=names)


@register("mixed-operations", domain=DOMAIN)
def mixed_operations(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    a, b, c, d = (rng.randint(2, 6 * k + 3) for _ in range(4))
    question = f"What is {a} + {b} × {c} - {d}? (Use the usual order of operations.)"
    return ask(question, a + b * c - d, "integer", difficulty, "arithmetic")
