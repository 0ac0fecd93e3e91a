"""Math templates: counting, probability and sequences."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.math.problem import (
    DOMAIN,
    WORDS,
    draft,
    draw_level,
    nonzero,
    nth,
)


@register("committee-choose", domain=DOMAIN)
def committee_choose(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    n = rng.randint(5, 6 + 4 * k)
    r = rng.randint(2, min(n - 2, 2 + k))
    question = f"In how many ways can a committee of {r} be chosen from {n} people?"
    return draft(question, math.comb(n, r), "integer", level, "combinatorics")


@register("podium-arrangements", domain=DOMAIN)
def podium_arrangements(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    n, places = rng.randint(4, 6 + 4 * k), min(3 + k - 1, 5)
    question = (f"{n} runners race. In how many ways can the first {places} places be filled "
                "(no ties)?")
    return draft(question, math.perm(n, places), "integer", level, "combinatorics")


@register("word-arrangements", domain=DOMAIN)
def word_arrangements(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    word = rng.choice([w for w in WORDS if len(w) <= 4 + 2 * k])
    counts = [word.count(ch) for ch in sorted(set(word))]
    value = math.factorial(len(word)) // math.prod(math.factorial(c) for c in counts)
    question = f"How many distinct arrangements of the letters of the word {word} are there?"
    return draft(question, value, "integer", level, "combinatorics")


@register("dice-sum", domain=DOMAIN)
def dice_sum(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    dice = 1 + k
    target = rng.randint(dice, 6 * dice)
    ways = sum(1 for roll in _rolls(dice) if sum(roll) == target)
    question = (f"{dice} fair six-sided dice are rolled. What is the probability that the sum "
                f"is {target}?")
    return draft(question, Fraction(ways, 6**dice), "number", level, "probability")


def _rolls(dice: int) -> list[tuple[int, ...]]:
    rolls: list[tuple[int, ...]] = [()]
    for _ in range(dice):
        rolls = [roll + (face,) for roll in rolls for face in range(1, 7)]
    return rolls


@register("draw-without-replacement", domain=DOMAIN)
def draw_without_replacement(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    red, blue, draws = rng.randint(2, 4 * k + 2), rng.randint(2, 4 * k + 2), min(1 + k, 3)
    draws = min(draws, red)
    value = Fraction(math.comb(red, draws), math.comb(red + blue, draws))
    question = (f"A bag holds {red} red and {blue} blue balls. {draws} balls are drawn without "
                f"replacement. What is the probability that all of them are red?")
    return draft(question, value, "number", level, "probability")


@register("coin-exactly-k", domain=DOMAIN)
def coin_exactly_k(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    n = rng.randint(3, 3 + 3 * k)
    heads = rng.randint(0, n)
    question = f"A fair coin is tossed {n} times. What is the probability of exactly {heads} heads?"
    return draft(question, Fraction(math.comb(n, heads), 2**n), "number", level, "probability")


@register("arithmetic-term", domain=DOMAIN)
def arithmetic_term(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, d, n = rng.randint(-20, 20), nonzero(rng, -9, 9), rng.randint(10, 40 * k)
    terms = ", ".join(str(a + i * d) for i in range(4))
    question = f"The sequence {terms}, … continues in the same way. What is its {nth(n)} term?"
    return draft(question, a + (n - 1) * d, "integer", level, "sequences")


@register("arithmetic-series", domain=DOMAIN)
def arithmetic_series(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, d, n = rng.randint(1, 15), rng.randint(2, 7), rng.randint(8, 25 * k)
    last = a + (n - 1) * d
    question = f"Compute the sum {a} + {a + d} + {a + 2 * d} + … + {last}."
    return draft(question, n * (a + last) // 2, "integer", level, "sequences")


@register("custom-recurrence", domain=DOMAIN)
def custom_recurrence(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b, c, n = rng.randint(1, 4), rng.randint(1, 5), rng.randint(1, 3), rng.randint(5, 5 + 3 * k)
    values = [a, b]
    while len(values) < n:
        values.append(values[-1] + c * values[-2])
    question = (f"A sequence has a(1) = {a}, a(2) = {b} and a(n) = a(n-1) + {c}·a(n-2) for n ≥ 3. "
                f"What is a({n})?")
    return draft(question, values[n - 1], "integer", level, "sequences")
