"""Calibration templates: weekdays, date arithmetic, clock times and unit conversions."""

from __future__ import annotations

import calendar
import datetime
import random
from fractions import Fraction

from slopmark.evals.answers import format_number
from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.calibration.question import (
    DOMAIN,
    WEEKDAYS,
    ask,
    level,
    yes_no,
)


def _date(rng: random.Random, k: int) -> datetime.date:
    """A date near today when easy, centuries away when hard."""
    span = (30, 120, 400)[k - 1]
    offset = rng.randint(-365 * span // 2, 365 * span // 2)
    return datetime.date(2000, 1, 1) + datetime.timedelta(days=offset)


def _spoken(day: datetime.date) -> str:
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


@register("weekday-of-date", domain=DOMAIN)
def weekday_of_date(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    day = _date(rng, k)
    question = f"What day of the week was (or will be) {_spoken(day)} in the Gregorian calendar?"
    return ask(question, WEEKDAYS[day.weekday()], "choice", difficulty, "calendar",
               choices=WEEKDAYS)


@register("days-between", domain=DOMAIN)
def days_between(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    start = _date(rng, k)
    end = start + datetime.timedelta(days=rng.randint(5, 40 * 10 ** (k - 1)))
    question = f"How many days are there from {_spoken(start)} to {_spoken(end)}?"
    return ask(question + " (Count the end date but not the start date.)", (end - start).days,
               "integer", difficulty, "calendar")


@register("date-after", domain=DOMAIN)
def date_after(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    start = _date(rng, k)
    later = start + datetime.timedelta(days=rng.randint(10, 50 * 10 ** (k - 1)))
    gap = (later - start).days
    question = f"What date is {gap} days after {_spoken(start)}? Answer as YYYY-MM-DD."
    aliases = [_spoken(later), f"{calendar.month_name[later.month]} {later.day}, {later.year}"]
    return ask(question, later.isoformat(), "text", difficulty, "calendar", aliases=aliases)


@register("leap-year", domain=DOMAIN)
def leap_year(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    if k == 1:
        year = rng.randint(1950, 2050)
    else:
        year = rng.randint(375, 625) * 4 if k == 2 else rng.randint(5, 30) * 100
    return yes_no(f"Is {year} a leap year in the Gregorian calendar?", calendar.isleap(year),
                  difficulty, "calendar")


@register("weekday-after-days", domain=DOMAIN)
def weekday_after_days(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    today, gap = rng.randrange(7), rng.randint(3, 20 * 10 ** (k - 1))
    question = f"Today is {WEEKDAYS[today]}. What day of the week will it be in {gap} days?"
    return ask(question, WEEKDAYS[(today + gap) % 7], "choice", difficulty, "calendar",
               choices=WEEKDAYS)


@register("days-in-month", domain=DOMAIN)
def days_in_month(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    day = _date(rng, k)
    question = f"How many days does {calendar.month_name[day.month]} {day.year} have?"
    days = calendar.monthrange(day.year, day.month)[1]
    return ask(question, days, "integer", difficulty, "calendar")


@register("clock-add", domain=DOMAIN)
def clock_add(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    start, gap = rng.randrange(24 * 60), rng.randint(10, 200 * k * k)
    end = (start + gap) % (24 * 60)
    question = (f"A 24-hour clock shows {start // 60:02d}:{start % 60:02d}. What does it show "
                f"{gap} minutes later? Answer as HH:MM.")
    answer, short = f"{end // 60:02d}:{end % 60:02d}", f"{end // 60}:{end % 60:02d}"
    aliases = [short] if short != answer else []
    return ask(question, answer, "text", difficulty, "time", aliases=aliases)


@register("inches-to-cm", domain=DOMAIN)
def inches_to_cm(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    inches = rng.randint(2, 20 * k) + Fraction(rng.choice([0, 0, 1, 2][: k + 1]), 4)
    shown = f"{float(inches):g}"
    question = f"An inch is exactly 2.54 cm. How many centimetres are {shown} inches?"
    value = inches * Fraction("2.54")
    return ask(question, format_number(value), "number", difficulty, "units")


@register("celsius-to-fahrenheit", domain=DOMAIN)
def celsius_to_fahrenheit(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    celsius = rng.randrange(-40, 40 * k, 5 if k == 1 else 1)
    value = Fraction(celsius * 9, 5) + 32
    question = f"What is {celsius} °C in degrees Fahrenheit?"
    return ask(question, format_number(value), "number", difficulty, "units")


@register("time-to-seconds", domain=DOMAIN)
def time_to_seconds(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    days, hours, minutes = rng.randint(0, k - 1), rng.randint(1, 23), rng.randint(1, 59)
    span = f"{days} days, {hours} hours" if days else f"{hours} hours"
    question = f"How many seconds are there in {span} and {minutes} minutes?"
    return ask(question, ((days * 24 + hours) * 60 + minutes) * 60, "integer", difficulty, "units")


@register("area-units", domain=DOMAIN)
def area_units(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    width, height = rng.randint(2, 9 * k), rng.randint(2, 9 * k)
    question = (f"A rectangle measures {width} m by {height} m. What is its area in square "
                "centimetres?")
    return ask(question, width * height * 10_000, "integer", difficulty, "units")
