"""Persistence templates for devices with a display: lift, thermostat, clocks, lock, editor."""

from __future__ import annotations

import random

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.persistence.machine import (
    DOMAIN,
    ask_pairs,
    ask_text,
    draft,
    draw_steps,
)

PLATES = ("K1", "M7", "P3", "R8", "T2", "V5", "X9")


@register("elevator", domain=DOMAIN)
def elevator(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    lift = {"floor": 0, "people": 0}
    top = rng.randint(8, 15)
    steps = [_lift_step(rng, lift, top) for _ in range(n)]
    intro = f"A lift in a building with floors 0 to {top} starts empty at floor 0."
    return draft(intro, steps, ask_pairs(["floor", "people"]), "mapping", lift, level, "counter")


def _lift_step(rng: random.Random, lift: dict[str, int], top: int) -> str:
    roll, floor = rng.random(), lift["floor"]
    if roll < 0.4:
        lift["floor"] = target = rng.choice([f for f in range(top + 1) if f != floor])
        return f"The lift goes {'up' if target > floor else 'down'} to floor {target}."
    moving = -rng.randint(1, lift["people"]) if lift["people"] and roll < 0.7 else rng.randint(1, 4)
    lift["people"] += moving
    who = "1 person gets" if abs(moving) == 1 else f"{abs(moving)} people get"
    return f"{who} {'in' if moving > 0 else 'out'}."


@register("thermostat", domain=DOMAIN)
def thermostat(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    temperature, mode, steps = rng.randint(16, 24), "heat", []
    start = temperature
    for _ in range(n):
        roll, amount = rng.random(), rng.randint(1, 6)
        if roll < 0.35:
            temperature = min(30, temperature + amount)
            steps.append(f"Raise the setting by {amount}.")
        elif roll < 0.7:
            temperature = max(10, temperature - amount)
            steps.append(f"Lower the setting by {amount}.")
        else:
            mode = {"heat": "cool", "cool": "off", "off": "heat"}[mode]
            steps.append("Press the mode button.")
    intro = (f"A thermostat is set to {start} degrees in heat mode. The setting stays between 10 "
             "and 30. The mode button cycles heat → cool → off → heat.")
    state = {"setting": temperature, "mode": mode}
    return draft(intro, steps, ask_pairs(["setting", "mode"]), "mapping", state, level, "device")


@register("clock-time", domain=DOMAIN)
def clock_time(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    minutes = rng.randrange(24 * 60)
    start, steps = minutes, []
    for _ in range(n):
        amount, forward = rng.randint(5, 200), rng.random() < 0.7
        minutes = (minutes + (amount if forward else -amount)) % (24 * 60)
        steps.append(f"{'Add' if forward else 'Subtract'} {amount} minutes.")
    intro = (f"A 24-hour clock shows {start // 60:02d}:{start % 60:02d}. It wraps around at "
             "midnight.")
    state = {"hour": minutes // 60, "minute": minutes % 60}
    ask = ask_pairs(["hour", "minute"], " with plain numbers, e.g. hour=7, minute=5")
    return draft(intro, steps, ask, "mapping", state, level, "time")


@register("toy-calendar", domain=DOMAIN)
def toy_calendar(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    days_per_month, months = rng.choice([20, 25, 30]), rng.choice([4, 6, 8])
    day_index = rng.randrange(days_per_month * months)
    year, steps = 1, []
    start = (day_index // days_per_month + 1, day_index % days_per_month + 1)
    for _ in range(n):
        advance = rng.randint(1, days_per_month * 2)
        day_index += advance
        steps.append(f"{advance} days pass.")
    year += day_index // (days_per_month * months)
    month, day = divmod(day_index % (days_per_month * months), days_per_month)
    intro = (f"On a planet, every month has {days_per_month} days and every year {months} months "
             f"(numbered from 1). Today is year 1, month {start[0]}, day {start[1]}.")
    state = {"year": year, "month": month + 1, "day": day + 1}
    ask = ask_pairs(["year", "month", "day"])
    return draft(intro, steps, ask, "mapping", state, level, "time")


@register("parking-lot", domain=DOMAIN)
def parking_lot(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    spots: list[str | None] = [None] * 4
    steps = [_parking_step(rng, spots) for _ in range(n)]
    intro = ("A car park has spots 1 to 4, all free. An arriving car takes the free spot with "
             "the lowest number.")
    state = {f"spot{i}": car or "empty" for i, car in enumerate(spots, 1)}
    ask = ask_pairs(list(state), ", each the plate of the car parked there, or empty")
    return draft(intro, steps, ask, "mapping", state, level, "slots")


def _parking_step(rng: random.Random, spots: list[str | None]) -> str:
    parked = [car for car in spots if car]
    if parked and (rng.random() < 0.4 or None not in spots):
        car = rng.choice(parked)
        spots[spots.index(car)] = None
        return f"Car {car} leaves."
    car = rng.choice([p for p in PLATES if p not in spots])
    spots[spots.index(None)] = car
    return f"Car {car} arrives."


@register("dial-lock", domain=DOMAIN)
def dial_lock(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    dials = [rng.randrange(10) for _ in range(4)]
    start, steps = "".join(map(str, dials)), []
    for _ in range(n):
        dial, turns, up = rng.randrange(4), rng.randint(1, 7), rng.random() < 0.5
        dials[dial] = (dials[dial] + (turns if up else -turns)) % 10
        steps.append(f"Turn dial {dial + 1} {'up' if up else 'down'} by {turns}.")
    intro = (f"A lock has four dials reading {start} (dial 1 is the leftmost). Each dial shows a "
             "digit 0–9; turning up from 9 gives 0, turning down from 0 gives 9.")
    ask = ask_text("the four digits the lock shows", "0000")
    return draft(intro, steps, ask, "text", "".join(map(str, dials)), level, "modular")


@register("bit-register", domain=DOMAIN)
def bit_register(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    value = rng.randrange(256)
    start, steps = value, []
    for _ in range(n):
        bit = rng.randrange(8)
        op = rng.choice(["set", "clear", "flip", "shl", "shr"])
        if op in ("set", "clear", "flip"):
            mask = 1 << bit
            value = {"set": value | mask, "clear": value & ~mask, "flip": value ^ mask}[op]
            steps.append(f"{op} bit {bit}")
        elif op == "shl":
            value = (value << 1) & 255
            steps.append("shift left by one (the top bit falls off)")
        else:
            value >>= 1
            steps.append("shift right by one")
    intro = (f"An 8-bit register holds {start:08b}. Bits are numbered 0 (rightmost) to 7 "
             "(leftmost); shifts fill the empty place with 0.")
    ask = ask_text("the final 8 bits", "00101100")
    return draft(intro, steps, ask, "text", f"{value:08b}", level, "bits")


@register("string-build", domain=DOMAIN)
def string_build(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    text = rng.choice(["cat", "sun", "map", "pen"])
    start, steps = text, []
    for _ in range(n):
        piece, roll = "".join(rng.sample("abcdefghijklmnoprstu", rng.randint(1, 3))), rng.random()
        if roll < 0.35:
            text += piece
            steps.append(f'Append "{piece}".')
        elif roll < 0.6:
            text = piece + text
            steps.append(f'Prepend "{piece}".')
        elif len(text) > 2:
            cut = rng.randint(1, min(3, len(text) - 1))
            text = text[:-cut]
            steps.append(f"Delete the last {cut} character{'s' * (cut > 1)}.")
        else:
            text = text[::-1]
            steps.append("Reverse the string.")
    intro = f'A string starts as "{start}".'
    ask = ask_text("the final string", "abc")
    return draft(intro, steps, ask, "text", text, level, "string")


@register("cursor-editor", domain=DOMAIN)
def cursor_editor(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    text, cursor, steps = "", 0, []
    for _ in range(n):
        op = rng.choice(["type", "type", "left", "right", "backspace", "home"])
        if op == "type" or not text:
            word = rng.choice(["ab", "xy", "cat", "q", "ro", "zz", "mi"])
            text, cursor = text[:cursor] + word + text[cursor:], cursor + len(word)
            steps.append(f'Type "{word}".')
        elif op in ("left", "right"):
            k = rng.randint(1, 3)
            cursor = max(0, cursor - k) if op == "left" else min(len(text), cursor + k)
            steps.append(f"Press the {op} arrow {k} time{'s' * (k > 1)}.")
        elif op == "backspace":
            text, cursor = text[: max(0, cursor - 1)] + text[cursor:], max(0, cursor - 1)
            steps.append("Press backspace.")
        else:
            cursor = 0
            steps.append("Press Home (the cursor jumps to the start).")
    intro = ("A text editor starts empty with the cursor at the start. Typing inserts at the "
             "cursor, and the cursor ends after the typed text. Backspace deletes the character "
             "left of the cursor; arrows stop at either end.")
    ask = ask_text("the final text", "abxy")
    return draft(intro, steps, ask, "text", text, level, "string")
