"""Persistence templates for stacks, queues, lists and rows, where order is the state."""

from __future__ import annotations

import random

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.persistence.machine import (
    COLOURS,
    DOMAIN,
    NAMES,
    ask_list,
    draft,
    draw_steps,
)


@register("stack-numbers", domain=DOMAIN)
def stack_numbers(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    stack: list[int] = []
    steps = []
    for _ in range(n):
        if stack and rng.random() < 0.4:
            steps.append("pop")
            stack.pop()
        else:
            stack.append(rng.randint(1, 99))
            steps.append(f"push {stack[-1]}")
    intro = "A stack starts empty. `push N` puts N on top; `pop` removes the top item."
    ask = ask_list("the final stack from bottom to top", "[4, 7]")
    return draft(intro, steps, ask, "sequence", stack, level, "stack")


@register("plate-pile", domain=DOMAIN)
def plate_pile(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    pile: list[str] = []
    steps = []
    for _ in range(n):
        take = rng.choice([1, 1, 2])
        if len(pile) >= take and rng.random() < 0.45:
            del pile[-take:]
            steps.append("Take the top plate off." if take == 1 else "Take the top two plates off.")
        else:
            pile.append(rng.choice(COLOURS))
            steps.append(f"Put a {pile[-1]} plate on the pile.")
    intro = "A pile of plates starts empty. Plates are only put on or taken off the top."
    ask = ask_list("the colours of the plates from the TOP of the pile down", "[red, blue]")
    return draft(intro, steps, ask, "sequence", pile[::-1], level, "stack")


@register("forth-stack", domain=DOMAIN)
def forth_stack(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    stack: list[int] = []
    steps = []
    for _ in range(n):
        ops = ["push", *(["dup", "drop"] if stack else [])]
        ops += ["swap", "add", "mul"] if len(stack) > 1 else []
        op = rng.choice(ops)
        if op == "mul" and abs(stack[-1] * stack[-2]) > 500:
            op = "add"
        steps.append(_forth(op, stack, rng))
    intro = ("A stack machine starts with an empty stack. `push N` pushes N; `dup` pushes a copy "
             "of the top; `drop` removes the top; `swap` exchanges the top two; `add` and `mul` "
             "pop the top two and push their sum or product.")
    ask = ask_list("the final stack from bottom to top", "[3, 12]")
    return draft(intro, steps, ask, "sequence", stack, level, "stack")


def _forth(op: str, stack: list[int], rng: random.Random) -> str:
    if op == "push":
        stack.append(rng.randint(1, 9))
        return f"push {stack[-1]}"
    if op == "dup":
        stack.append(stack[-1])
    elif op == "drop":
        stack.pop()
    elif op == "swap":
        stack[-1], stack[-2] = stack[-2], stack[-1]
    else:
        b, a = stack.pop(), stack.pop()
        stack.append(a + b if op == "add" else a * b)
    return op


@register("checkout-queue", domain=DOMAIN)
def checkout_queue(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    line: list[str] = []
    steps = []
    for _ in range(n):
        waiting = [name for name in NAMES if name not in line]
        if line and (rng.random() < 0.4 or not waiting):
            line.pop(0)
            steps.append("The cashier serves the next customer.")
        else:
            line.append(rng.choice(waiting))
            steps.append(f"{line[-1]} joins the back of the line.")
    intro = "A checkout line starts empty. People join at the back and are served from the front."
    ask = ask_list("the line from front to back", "[Ana, Ben]")
    return draft(intro, steps, ask, "sequence", line, level, "queue")


@register("queue-with-priority", domain=DOMAIN)
def queue_with_priority(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    line: list[str] = []
    steps = []
    for _ in range(n):
        waiting = [name for name in NAMES if name not in line]
        roll = rng.random()
        if line and (roll < 0.3 or not waiting):
            line.pop(0)
            steps.append("The nurse calls the next patient in.")
        elif roll < 0.5:
            line.insert(0, rng.choice(waiting))
            steps.append(f"{line[0]} arrives with an emergency and goes to the front.")
        else:
            line.append(rng.choice(waiting))
            steps.append(f"{line[-1]} arrives and waits at the back.")
    intro = ("A clinic's waiting line starts empty. Patients wait in order; emergencies go to "
             "the front; the nurse always calls the person at the front.")
    ask = ask_list("the waiting line from front to back", "[Kai, Lea]")
    return draft(intro, steps, ask, "sequence", line, level, "queue")


@register("deque-ends", domain=DOMAIN)
def deque_ends(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    row: list[int] = []
    steps = []
    for _ in range(n):
        side = rng.choice(["left", "right"])
        if row and rng.random() < 0.35:
            row.pop(0 if side == "left" else -1)
            steps.append(f"Remove the number at the {side} end.")
        else:
            value = rng.randint(10, 99)
            row.insert(0 if side == "left" else len(row), value)
            steps.append(f"Add {value} at the {side} end.")
    intro = "A row of numbers starts empty. Numbers are added and removed at either end."
    ask = ask_list("the row from left to right", "[12, 40]")
    return draft(intro, steps, ask, "sequence", row, level, "deque")


@register("list-positions", domain=DOMAIN)
def list_positions(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    items = [rng.randint(1, 50) for _ in range(4)]
    start, steps = list(items), []
    for _ in range(n):
        if len(items) > 2 and rng.random() < 0.4:
            position = rng.randint(1, len(items))
            items.pop(position - 1)
            steps.append(f"Remove the item at position {position}.")
        else:
            position, value = rng.randint(1, len(items) + 1), rng.randint(1, 50)
            items.insert(position - 1, value)
            steps.append(f"Insert {value} so that it is at position {position}.")
    intro = (f"A list starts as {start}. Positions count from 1 at the left; inserting at a "
             "position shifts that item and the ones after it right.")
    ask = ask_list("the final list", "[5, 9, 2]")
    return draft(intro, steps, ask, "sequence", items, level, "list")


@register("rotate-reverse", domain=DOMAIN)
def rotate_reverse(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    items = rng.sample("ABCDEFG", rng.randint(4, 7))
    start, steps = "".join(items), []
    for _ in range(n):
        op, k = rng.choice(["left", "right", "reverse", "swap"]), rng.randint(1, 3)
        if op == "left":
            items, text = items[k:] + items[:k], f"Rotate left by {k}."
        elif op == "right":
            items, text = items[-k:] + items[:-k], f"Rotate right by {k}."
        elif op == "reverse":
            items, text = items[::-1], "Reverse the whole row."
        else:
            items[0], items[-1] = items[-1], items[0]
            text = "Swap the first and last letters."
        steps.append(text)
    intro = (f"A row of letters reads {', '.join(start)} from left to right. Rotating left by k "
             "moves the first k letters to the end; rotating right by k moves the last k letters "
             "to the front.")
    ask = ask_list("the final row from left to right", "[B, C, A]")
    return draft(intro, steps, ask, "sequence", items, level, "list")


@register("array-updates", domain=DOMAIN)
def array_updates(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    array = [rng.randint(0, 9) for _ in range(6)]
    start, steps = list(array), []
    for _ in range(n):
        i, j, v = rng.randrange(6), rng.randrange(6), rng.randint(1, 9)
        op = rng.choice(["set", "add", "swap"])
        if op == "set":
            array[i], text = v, f"a[{i}] = {v}"
        elif op == "add":
            array[i], text = array[i] + v, f"a[{i}] += {v}"
        else:
            array[i], array[j] = array[j], array[i]
            text = f"swap a[{i}] and a[{j}]"
        steps.append(text)
    intro = f"An array a (indices 0 to 5) starts as {start}. Run these statements in order."
    ask = ask_list("the final array a", "[1, 2, 3, 4, 5, 6]")
    return draft(intro, steps, ask, "sequence", array, level, "array")


@register("train-cars", domain=DOMAIN)
def train_cars(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    cars = ["engine"]
    steps = []
    kinds = ("coal", "tank", "box", "flat", "passenger")
    for _ in range(n):
        if len(cars) > 1 and rng.random() < 0.35:
            cars.pop()
            steps.append("Detach the last car.")
        elif rng.random() < 0.3:
            kind = rng.choice(kinds)
            cars.insert(1, kind)
            steps.append(f"Attach a {kind} car directly behind the engine.")
        else:
            cars.append(rng.choice(kinds))
            steps.append(f"Attach a {cars[-1]} car at the end.")
    intro = "A train is just an engine. Cars are attached and detached as follows."
    ask = ask_list("the train from the engine to the last car", "[engine, coal, tank]")
    return draft(intro, steps, ask, "sequence", cars, level, "list")


@register("playlist", domain=DOMAIN)
def playlist(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    songs = ["Aria", "Blue", "Comet", "Dawn"]
    intro = f"A music queue holds, in order: {', '.join(songs)}."
    pool = ["Echo", "Fable", "Gold", "Halo", "Iris", "Jade", "Kite", "Luna", "Mist", "Nova"]
    steps = []
    for _ in range(n):
        roll = rng.random()
        if songs and roll < 0.3:
            songs.pop(0)
            steps.append("Play the next song (it leaves the queue).")
        elif len(songs) > 1 and roll < 0.55:
            song = rng.choice(songs[1:])
            songs.remove(song)
            songs.insert(0, song)
            steps.append(f"Move {song} to the front of the queue.")
        elif pool:
            songs.append(pool.pop(rng.randrange(len(pool))))
            steps.append(f"Add {songs[-1]} to the end of the queue.")
    ask = ask_list("the queue in playing order", "[Blue, Dawn]")
    return draft(intro, steps, ask, "sequence", songs, level, "queue")


@register("seat-swaps", domain=DOMAIN)
def seat_swaps(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    seats = rng.sample(NAMES, 5)
    start, steps = list(seats), []
    for _ in range(n):
        a, b = rng.sample(seats, 2)
        i, j = seats.index(a), seats.index(b)
        seats[i], seats[j] = b, a
        steps.append(f"{a} and {b} swap seats.")
    places = ", ".join(f"{name} in seat {i}" for i, name in enumerate(start, 1))
    intro = f"Five people sit in seats 1 to 5: {places}."
    ask = ask_list("who sits in seats 1 to 5, in seat order", "[Ana, Ben, Chen, Dara, Eli]")
    return draft(intro, steps, ask, "sequence", seats, level, "swaps")
