"""Math templates: fractions and percentages."""

from __future__ import annotations

import random
from fractions import Fraction

from slopmark.evals.answers import format_number
from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.math.problem import (
    DOMAIN,
    draft,
    draw_level,
)


@register("fraction-sum", domain=DOMAIN)
def fraction_sum(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    terms = [Fraction(rng.randint(1, 9), rng.randint(2, 6 + 2 * k)) for _ in range(1 + k)]
    signs = [rng.choice("+-") for _ in terms[1:]]
    value, text = terms[0], format_number(terms[0])
    for sign, term in zip(signs, terms[1:], strict=True):
        value += term if sign == "+" else -term
        text += f" {sign} {format_number(term)}"
    return draft(f"Compute {text}.", value, "number", level, "fractions")


@register("fraction-product", domain=DOMAIN)
def fraction_product(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b, c = (Fraction(rng.randint(1, 6 * k), rng.randint(2, 9)) for _ in range(3))
    question = f"Compute ({format_number(a)}) × ({format_number(b)}) ÷ ({format_number(c)})."
    return draft(question, a * b / c, "number", level, "fractions")


@register("percent-of", domain=DOMAIN)
def percent_of(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    p, n = rng.choice([5, 12, 15, 35, 62.5, 12.5, 7.5][: 3 + 2 * k]), rng.randint(2, 40 * k) * 8
    question = f"What is {p}% of {n}?"
    return draft(question, Fraction(str(p)) * n / 100, "number", level, "percentages")


@register("percent-change", domain=DOMAIN)
def percent_change(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    old = rng.choice([40, 80, 120, 200, 250, 400, 500, 800])
    new = old + rng.choice([-1, 1]) * old * rng.randint(1, 10 * k) // 20
    question = (f"A price changes from ${old} to ${new}. By what percent did it change? "
                "(Give a negative number for a decrease, without the % sign.)")
    return draft(question, Fraction(new - old, old) * 100, "number", level, "percentages")


@register("successive-discounts", domain=DOMAIN)
def successive_discounts(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    price = rng.randint(2, 20 * k) * 20
    d1, d2 = rng.choice([10, 20, 25, 50]), rng.choice([5, 10, 20, 25])
    question = (f"A jacket costs ${price}. It is discounted by {d1}%, and the sale price is then "
                f"discounted by a further {d2}%. What is the final price in dollars?")
    value = Fraction(price) * (100 - d1) * (100 - d2) / 10000
    return draft(question, value, "number", level, "percentages")


@register("compound-interest", domain=DOMAIN)
def compound_interest(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    rate, years = rng.choice([5, 10, 20, 25, 50]), 1 + k
    growth = Fraction(100 + rate, 100) ** years
    exact = [p for p in range(1000, 20001, 500) if (p * growth * 100).denominator == 1]
    principal = rng.choice(exact)
    question = (f"${principal:,} is invested at {rate}% interest per year, compounded yearly. "
                f"What is the balance in dollars after {years} years?")
    return draft(question, principal * growth, "number", level, "percentages")
