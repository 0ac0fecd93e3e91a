"""Math templates: word problems: shopping, rates, ages, tickets."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.math.problem import (
    DOMAIN,
    NAMES,
    draft,
    draw_level,
)


@register("shopping-change", domain=DOMAIN)
def shopping_change(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b, p, q = rng.randint(2, 4 * k), rng.randint(2, 3 * k), rng.randint(2, 9), rng.randint(3, 12)
    bill = 50 * math.ceil((a * p + b * q + 1) / 50)
    name = rng.choice(NAMES)
    question = (f"{name} buys {a} notebooks at ${p} each and {b} pens at ${q} each, and pays "
                f"with ${bill}. How many dollars of change does {name} get?")
    return draft(question, bill - a * p - b * q, "integer", level, "arithmetic")


@register("marbles-given-away", domain=DOMAIN)
def marbles_given_away(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    part, rest = rng.choice([2, 3, 4, 5]), rng.randint(3, 12 * k)
    total = part * rng.randint(5, 15 * k)
    question = (f"{rng.choice(NAMES)} has {total} marbles, gives 1/{part} of them to a friend and "
                f"then loses {rest} more. How many marbles are left?")
    return draft(question, total - total // part - rest, "integer", level, "arithmetic")


@register("average-speed-round-trip", domain=DOMAIN)
def average_speed(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    v1, v2 = rng.sample(range(20, 40 * k + 30, 5), 2)
    question = (f"A cyclist rides to a town at {v1} km/h and back along the same road at "
                f"{v2} km/h. What is the average speed for the whole trip, in km/h?")
    return draft(question, Fraction(2 * v1 * v2, v1 + v2), "number", level, "rates")


@register("pipes-together", domain=DOMAIN)
def pipes_together(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b = rng.sample(range(2, 6 + 4 * k), 2)
    question = (f"One pipe fills a tank in {a} hours and another fills it in {b} hours. "
                "Working together, how many hours do they take to fill it?")
    return draft(question, Fraction(a * b, a + b), "number", level, "rates")


@register("ages", domain=DOMAIN)
def ages(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    child, times, years = rng.randint(3, 12), rng.randint(2, 3 + k), rng.randint(2, 5 * k)
    parent, child_name = child * times, rng.choice(NAMES)
    parent_name = rng.choice([name for name in NAMES if name != child_name])  # two people
    total = parent + child + 2 * years
    question = (f"{parent_name} is {times} times as old as {child_name}. In {years} years "
                f"the sum of their ages will be {total}. How old is {child_name} now?")
    return draft(question, child, "integer", level, "algebra")


@register("ticket-sales", domain=DOMAIN)
def ticket_sales(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    adult, child = rng.randint(8, 20), rng.randint(3, 7)
    n_adult, n_child = rng.randint(10, 60 * k), rng.randint(10, 60 * k)
    revenue = adult * n_adult + child * n_child
    question = (f"A museum sold {n_adult + n_child} tickets for ${revenue}. Adult tickets cost "
                f"${adult} and child tickets ${child}. How many adult tickets were sold?")
    return draft(question, n_adult, "integer", level, "algebra", "systems")
