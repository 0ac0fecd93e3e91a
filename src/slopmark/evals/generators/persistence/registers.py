"""Persistence templates for named values that change: registers, variables, a store."""

from __future__ import annotations

import random

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.persistence.machine import (
    DOMAIN,
    ask_pairs,
    draft,
    draw_steps,
)


@register("registers-add", domain=DOMAIN)
def registers_add(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    regs = {name: rng.randint(0, 20) for name in "ABC"}
    start, steps = dict(regs), []
    for _ in range(n):
        target, source, value = rng.choice("ABC"), rng.choice("ABC"), rng.randint(1, 15)
        op = rng.choice(["add", "sub", "set", "addreg"])
        if op == "add":
            regs[target] += value
            steps.append(f"add {value} to {target}")
        elif op == "sub":
            regs[target] -= value
            steps.append(f"subtract {value} from {target}")
        elif op == "set":
            regs[target] = value
            steps.append(f"set {target} to {value}")
        else:
            regs[target] += regs[source]
            steps.append(f"add the value of {source} to {target}")
    intro = f"Registers start at A={start['A']}, B={start['B']}, C={start['C']}."
    return draft(intro, steps, ask_pairs("ABC"), "mapping", regs, level, "registers")


@register("registers-mul-swap", domain=DOMAIN)
def registers_mul_swap(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    regs = {name: rng.randint(1, 9) for name in "WXYZ"}
    start, steps = dict(regs), []
    for _ in range(n):
        a, b = rng.sample("WXYZ", 2)
        op = rng.choice(["mul", "swap", "copy", "neg"])
        if op == "mul" and abs(regs[a]) < 200:
            factor = rng.choice([2, 3, -1])
            regs[a] *= factor
            steps.append(f"{a} := {a} * {factor}")
        elif op == "swap":
            regs[a], regs[b] = regs[b], regs[a]
            steps.append(f"swap {a} and {b}")
        elif op == "copy":
            regs[a] = regs[b]
            steps.append(f"{a} := {b}")
        else:
            regs[a] = regs[b] - regs[a]
            steps.append(f"{a} := {b} - {a}")
    intro = ("Four registers start as " + ", ".join(f"{k}={v}" for k, v in start.items())
             + ". `:=` assigns the value on the right, computed with the current values.")
    return draft(intro, steps, ask_pairs("WXYZ"), "mapping", regs, level, "registers")


@register("registers-conditional", domain=DOMAIN)
def registers_conditional(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    regs = {"P": rng.randint(0, 10), "Q": rng.randint(0, 10), "R": 0}
    start, steps = dict(regs), []
    for _ in range(n):
        a, b = rng.sample("PQ", 2)
        value = rng.randint(1, 6)
        if rng.random() < 0.5:
            steps.append(f"if {a} > {b}, add {value} to R; otherwise add {value} to {a}")
            regs["R" if regs[a] > regs[b] else a] += value
        else:
            steps.append(f"if R is even, subtract {value} from {b}; otherwise add 1 to R")
            if regs["R"] % 2 == 0:
                regs[b] -= value
            else:
                regs["R"] += 1
    intro = f"Registers start at P={start['P']}, Q={start['Q']}, R=0. Steps test current values."
    return draft(intro, steps, ask_pairs("PQR"), "mapping", regs, level, "registers", "branching")


@register("variable-assignments", domain=DOMAIN)
def variable_assignments(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    env = {"x": rng.randint(1, 5), "y": rng.randint(1, 5), "z": rng.randint(1, 5)}
    start, steps = dict(env), []
    for _ in range(n):
        target, a, b = rng.choice("xyz"), rng.choice("xyz"), rng.choice("xyz")
        op = rng.choice("+-")
        if op == "+" and abs(env[a] + env[b]) > 1000:
            op = "-"
        env[target] = env[a] + env[b] if op == "+" else env[a] - env[b]
        steps.append(f"{target} = {a} {op} {b}")
    intro = ("A program starts with " + ", ".join(f"{k} = {v}" for k, v in start.items())
             + " and runs these statements in order:")
    return draft(intro, steps, ask_pairs("xyz"), "mapping", env, level, "variables")


@register("key-value-store", domain=DOMAIN)
def key_value_store(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    keys = ["colour", "size", "owner", "shape"]
    store: dict[str, str] = {"colour": "red", "size": "small"}
    values = ["red", "blue", "large", "small", "ana", "ben", "round", "square"]
    steps = []
    for _ in range(n):
        key, other = rng.sample(keys, 2)
        roll = rng.random()
        if roll < 0.5:
            store[key] = rng.choice(values)
            steps.append(f"SET {key} {store[key]}")
        elif roll < 0.75:
            store.pop(key, None)
            steps.append(f"DELETE {key}")
        else:
            if other in store:
                store[key] = store[other]
            steps.append(f"COPY {other} {key}")
    intro = ("A key-value store holds colour=red and size=small. SET writes a value, DELETE "
             "removes a key, COPY a b copies a's value into b (nothing happens if a is not set).")
    state = {key: store.get(key, "none") for key in keys}
    ask = ask_pairs(keys, ", writing none for a key that is not set")
    return draft(intro, steps, ask, "mapping", state, level, "store")
