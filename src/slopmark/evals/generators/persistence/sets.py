"""Persistence templates for collections without order: a backpack, lit lamps, cards."""

from __future__ import annotations

import random

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.persistence.machine import (
    DOMAIN,
    ITEMS,
    ask_list,
    draft,
    draw_steps,
)


@register("backpack", domain=DOMAIN)
def backpack(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    carried: set[str] = set()
    steps = []
    for _ in range(n):
        item = rng.choice(ITEMS)
        if item in carried and rng.random() < 0.7:
            carried.discard(item)
            steps.append(f"Drop the {item}.")
        elif carried and rng.random() < 0.25:
            item = rng.choice(sorted(carried))
            carried.discard(item)
            steps.append(f"Give the {item} away.")
        else:
            steps.append(f"Pick up the {item}{' (you may already have it)' * (item in carried)}.")
            carried.add(item)
    intro = "You start with an empty backpack. It holds at most one of each thing."
    ask = ask_list("the things in the backpack, in any order", "[map, rope]")
    return draft(intro, steps, ask, "set", sorted(carried), level, "set")


@register("lamps-toggle", domain=DOMAIN)
def lamps_toggle(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    count = rng.randint(6, 10)
    lit: set[int] = set(rng.sample(range(1, count + 1), 2))
    start, steps = sorted(lit), []
    for _ in range(n):
        lamp, roll = rng.randint(1, count), rng.random()
        if roll < 0.6:
            lit ^= {lamp}
            steps.append(f"Toggle lamp {lamp}.")
        elif roll < 0.8:
            lit.discard(lamp)
            steps.append(f"Switch lamp {lamp} off.")
        else:
            lit |= {i for i in range(1, count + 1) if i % 3 == 0}
            steps.append("Switch on every lamp whose number is a multiple of 3.")
    intro = (f"Lamps numbered 1 to {count} are off except lamps {start[0]} and {start[1]}. "
             "Toggling flips a lamp between on and off.")
    ask = ask_list("the numbers of the lamps that are on, in any order", "[2, 5]")
    return draft(intro, steps, ask, "set", sorted(lit), level, "set")


@register("card-hand", domain=DOMAIN)
def card_hand(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    ranks = ("2", "5", "9", "jack", "queen", "ace")
    deck = [f"{rank} of {suit}" for suit in ("hearts", "spades") for rank in ranks]
    rng.shuffle(deck)
    hand: list[str] = []
    steps = []
    for _ in range(n):
        if hand and rng.random() < 0.4:
            card = rng.choice(hand)
            hand.remove(card)
            steps.append(f"Discard the {card}.")
        elif deck:
            hand.append(deck.pop())
            steps.append(f"Draw the {hand[-1]}.")
    intro = "You start with no cards. You draw cards and discard them as follows."
    ask = ask_list("the cards in your hand, in any order", "[5 of hearts, ace of spades]")
    return draft(intro, steps, ask, "set", sorted(hand), level, "set")
