"""Math templates: number theory: remainders, inverses, multiples."""

from __future__ import annotations

import math
import random

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.math.problem import (
    DOMAIN,
    draft,
    draw_level,
)


@register("power-mod", domain=DOMAIN)
def power_mod(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    base, exponent = rng.randint(2, 12), rng.randint(10, 10**k * 20)
    modulus = rng.randint(5, 13 * k)
    question = f"What is the remainder when {base}^{exponent} is divided by {modulus}?"
    return draft(question, pow(base, exponent, modulus), "integer", level, "number-theory")


@register("modular-inverse", domain=DOMAIN)
def modular_inverse(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    prime = rng.choice([7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43][: 3 + 3 * k])
    a = rng.randint(2, prime - 1)
    question = (f"Find the integer x with 0 ≤ x < {prime} such that {a}x ≡ 1 (mod {prime}).")
    return draft(question, pow(a, -1, prime), "integer", level, "number-theory")


@register("buses-lcm", domain=DOMAIN)
def buses_lcm(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    periods = rng.sample(range(4, 10 + 8 * k), 1 + k)
    listing = ", ".join(map(str, periods[:-1])) + f" and {periods[-1]}"
    question = (f"Buses leave a station every {listing} minutes. They all leave together at noon. "
                "After how many minutes do they next all leave together?")
    return draft(question, math.lcm(*periods), "integer", level, "number-theory")


@register("divisible-count", domain=DOMAIN)
def divisible_count(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    n, (a, b) = rng.randint(50, 500 * k), rng.sample([2, 3, 5, 7, 4, 9, 11][: 3 + 2 * k], 2)
    count = n // a + n // b - n // math.lcm(a, b)
    question = f"How many integers from 1 to {n} are divisible by {a} or by {b}?"
    return draft(question, count, "integer", level, "number-theory")
