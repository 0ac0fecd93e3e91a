"""Math templates: geometry and unit conversion."""

from __future__ import annotations

import random
from fractions import Fraction

import sympy

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.math.problem import (
    DOMAIN,
    draft,
    draw_level,
)


@register("rectangle-from-perimeter", domain=DOMAIN)
def rectangle_from_perimeter(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    length, width = rng.randint(3, 20 * k), rng.randint(2, 15 * k)
    question = (f"A rectangle has perimeter {2 * (length + width)} cm and length {length} cm. "
                "What is its area in square centimetres?")
    return draft(question, length * width, "integer", level, "geometry")


@register("triangle-area", domain=DOMAIN)
def triangle_area(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    base, height = rng.randint(3, 15 * k), rng.randint(3, 15 * k)
    question = f"A triangle has base {base} m and height {height} m. What is its area in m²?"
    return draft(question, Fraction(base * height, 2), "number", level, "geometry")


@register("circle-area-pi", domain=DOMAIN)
def circle_area_pi(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    diameter = rng.randint(2, 12 * k)
    question = (f"A circle has diameter {diameter} cm. What is its area in cm²? Give the exact "
                "value in terms of pi, e.g. 9*pi.")
    return draft(question, sympy.pi * Fraction(diameter, 2) ** 2, "number", level, "geometry")


@register("pythagoras", domain=DOMAIN)
def pythagoras(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    a, b, c = rng.choice([(3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29)][: 2 + k])
    scale = rng.randint(1, 4 * k)
    question = (f"A ladder reaches {b * scale} m up a wall with its foot {a * scale} m from the "
                "wall. How long is the ladder, in metres?")
    return draft(question, c * scale, "integer", level, "geometry")


@register("polygon-angles", domain=DOMAIN)
def polygon_angles(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    sides = rng.randint(5, 6 + 6 * k)
    question = f"How many degrees is one interior angle of a regular polygon with {sides} sides?"
    return draft(question, Fraction(180 * (sides - 2), sides), "number", level, "geometry")


@register("clock-angle", domain=DOMAIN)
def clock_angle(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    hour, minute = rng.randint(1, 12), rng.choice(range(0, 60, 15 // k))
    angle = abs(Fraction(30 * hour) + Fraction(minute, 2) - 6 * minute) % 360
    question = (f"What is the smaller angle between the hour and minute hands of a clock at "
                f"{hour}:{minute:02d}, in degrees?")
    return draft(question, min(angle, 360 - angle), "number", level, "geometry")


@register("speed-units", domain=DOMAIN)
def speed_units(rng: random.Random) -> Draft:
    level, k = draw_level(rng)
    kmh = rng.randint(6, 40 * k)
    question = f"A train moves at {kmh} km/h. What is its speed in metres per second?"
    return draft(question, Fraction(kmh * 1000, 3600), "number", level, "units")
