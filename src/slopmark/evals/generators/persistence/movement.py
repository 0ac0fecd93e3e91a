"""Persistence templates for things that move: robots, cups, blocks, water between jugs."""

from __future__ import annotations

import random

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.persistence.machine import (
    COLOURS,
    COMPASS,
    DOMAIN,
    HEADINGS,
    MOVES,
    SCREEN,
    ask_pairs,
    draft,
    draw_steps,
)


@register("robot-compass", domain=DOMAIN)
def robot_compass(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    x = y = 0
    steps = []
    for _ in range(n):
        heading, distance = rng.choice(HEADINGS), rng.randint(1, 6)
        dx, dy = MOVES[heading]
        x, y = x + dx * distance, y + dy * distance
        steps.append(f"Move {distance} {COMPASS[heading]}.")
    intro = "A robot starts at x=0, y=0. North is +y and east is +x."
    return draft(intro, steps, ask_pairs("xy"), "mapping", {"x": x, "y": y}, level, "grid")


@register("robot-turtle", domain=DOMAIN)
def robot_turtle(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    x = y = 0
    facing, steps = "N", []
    for _ in range(n):
        op = rng.choice(["forward", "forward", "left", "right", "around"])
        if op == "forward":
            distance = rng.randint(1, 5)
            x, y = x + MOVES[facing][0] * distance, y + MOVES[facing][1] * distance
            steps.append(f"Go forward {distance}.")
        else:
            turn = {"left": -1, "right": 1, "around": 2}[op]
            facing = HEADINGS[(HEADINGS.index(facing) + turn) % 4]
            steps.append("Turn around." if op == "around" else f"Turn {op}.")
    intro = ("A robot stands at x=0, y=0 facing north (N). North is +y, east is +x. Turns are "
             "90° on the spot. Report the heading as one of N, E, S, W.")
    state = {"x": x, "y": y, "facing": facing}
    return draft(intro, steps, ask_pairs(["x", "y", "facing"]), "mapping", state, level, "grid")


@register("robot-walled-room", domain=DOMAIN)
def robot_walled_room(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    width, height = rng.randint(4, 8), rng.randint(4, 8)
    x, y = rng.randrange(width), rng.randrange(height)
    start, steps = (x, y), []
    for _ in range(n):
        heading, distance = rng.choice(HEADINGS), rng.randint(1, 5)
        x = min(max(x + MOVES[heading][0] * distance, 0), width - 1)
        y = min(max(y + MOVES[heading][1] * distance, 0), height - 1)
        steps.append(f"Move {distance} {SCREEN[heading]}.")
    intro = (f"A robot vacuum is in a room of cells x=0..{width - 1}, y=0..{height - 1}, starting "
             f"at x={start[0]}, y={start[1]}. Up is +y, right is +x. A move that would leave the "
             "room stops at the wall.")
    return draft(intro, steps, ask_pairs("xy"), "mapping", {"x": x, "y": y}, level, "grid")


@register("shell-game", domain=DOMAIN)
def shell_game(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    cups = ["red", "blue", "empty"]
    rng.shuffle(cups)
    places = ("left", "middle", "right")
    start, steps = list(cups), []
    for _ in range(n):
        i, j = sorted(rng.sample(range(3), 2))
        cups[i], cups[j] = cups[j], cups[i]
        steps.append(f"Swap the {places[i]} and {places[j]} cups.")
    red, blue = places[start.index("red")], places[start.index("blue")]
    intro = (f"Three cups stand in a row. The red ball is under the {red} cup, the blue ball "
             f"under the {blue} cup, and the third is empty. "
             "Cups move with the balls under them.")
    state = {"red": places[cups.index("red")], "blue": places[cups.index("blue")]}
    return draft(intro, steps, ask_pairs(["red", "blue"], ", each left, middle or right"),
                  "mapping", state, level, "swaps")


@register("block-towers", domain=DOMAIN)
def block_towers(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    towers: dict[str, list[str]] = {"A": rng.sample(COLOURS, 3), "B": [], "C": []}
    shown, steps = " (bottom to top)", []
    start = "-".join(towers["A"])
    for _ in range(n):
        source = rng.choice([t for t in towers if towers[t]])
        target = rng.choice([t for t in towers if t != source])
        towers[target].append(towers[source].pop())
        steps.append(f"Move the top block of tower {source} onto tower {target}.")
    intro = (f"Tower A holds blocks {start}{shown}; towers B and C are empty. Only the top block "
             "of a tower can move.")
    state = {t: "-".join(blocks) or "empty" for t, blocks in towers.items()}
    ask = ask_pairs("ABC", ", each tower's colours from bottom to top joined by - (or empty)")
    return draft(intro, steps, ask, "mapping", state, level, "puzzle")


@register("water-jugs", domain=DOMAIN)
def water_jugs(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    size = {"A": rng.randint(3, 6), "B": rng.randint(7, 11)}
    jug, steps = {"A": 0, "B": 0}, []
    for _ in range(n):
        a, b = rng.sample("AB", 2)
        op = rng.choice(["fill", "empty", "pour", "pour"])
        if op == "fill":
            jug[a] = size[a]
        elif op == "empty":
            jug[a] = 0
        else:
            moved = min(jug[a], size[b] - jug[b])
            jug[a], jug[b] = jug[a] - moved, jug[b] + moved
        steps.append(f"Pour jug {a} into jug {b}." if op == "pour" else f"{op.title()} jug {a}.")
    intro = (f"Jug A holds up to {size['A']} litres and jug B up to {size['B']} litres; both start "
             "empty. Pouring stops when the source is empty or the target is full.")
    return draft(intro, steps, ask_pairs("AB"), "mapping", jug, level, "puzzle")
