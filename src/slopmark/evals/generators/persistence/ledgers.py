"""Persistence templates for money, stock and tallies that rise, fall, or are refused."""

from __future__ import annotations

import random

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.persistence.machine import (
    DOMAIN,
    NAMES,
    ask_pairs,
    draft,
    draw_steps,
)


@register("bank-transfers", domain=DOMAIN)
def bank_transfers(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    owners = rng.sample(NAMES, 3)
    accounts = {name: rng.randint(2, 20) * 10 for name in owners}
    start, steps = dict(accounts), []
    for _ in range(n):
        a, b = rng.sample(owners, 2)
        amount, op = rng.randint(1, 12) * 5, rng.choice(["deposit", "withdraw", "transfer"])
        if op == "deposit":
            accounts[a] += amount
            steps.append(f"{a} deposits ${amount}.")
            continue
        allowed = accounts[a] >= amount
        accounts[a] -= amount if allowed else 0
        if op == "transfer":
            accounts[b] += amount if allowed else 0
        sent = f"{a} sends ${amount} to {b}."
        steps.append(f"{a} withdraws ${amount}." if op == "withdraw" else sent)
    intro = ("Bank balances start at " + ", ".join(f"{k} ${v}" for k, v in start.items())
             + ". A withdrawal or transfer larger than the sender's balance is refused and "
             "changes nothing. Give balances as plain numbers.")
    return draft(intro, steps, ask_pairs(owners), "mapping", accounts, level, "money")


@register("savings-interest", domain=DOMAIN)
def savings_interest(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    balance, fees = rng.randint(10, 50) * 100, 0
    start, steps = balance, []
    for _ in range(n):
        op = rng.choice(["interest", "fee", "deposit"])
        if op == "interest":
            balance += balance // 10
            steps.append("Interest: add 10% of the balance, rounded down to whole dollars.")
        elif op == "fee":
            fee = rng.randint(1, 5) * 3
            balance, fees = balance - fee, fees + fee
            steps.append(f"A ${fee} fee is charged.")
        else:
            amount = rng.randint(1, 20) * 25
            balance += amount
            steps.append(f"${amount} is deposited.")
    intro = f"A savings account holds ${start}. The bank keeps a running total of fees charged."
    state = {"balance": balance, "fees": fees}
    return draft(intro, steps, ask_pairs(["balance", "fees"]), "mapping", state, level, "money")


@register("shop-stock", domain=DOMAIN)
def shop_stock(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    goods = rng.sample(["apples", "pears", "plums", "lemons", "figs"], 3)
    stock = {g: rng.randint(5, 20) for g in goods}
    start, steps = dict(stock), []
    for _ in range(n):
        good, amount = rng.choice(goods), rng.randint(1, 12)
        if rng.random() < 0.4:
            stock[good] += amount
            steps.append(f"A delivery brings {amount} {good}.")
        else:
            stock[good] -= amount if stock[good] >= amount else 0
            steps.append(f"A customer asks to buy {amount} {good}.")
    intro = ("A fruit stall has " + ", ".join(f"{v} {k}" for k, v in start.items())
             + ". An order for more than is in stock is refused entirely.")
    return draft(intro, steps, ask_pairs(goods), "mapping", stock, level, "inventory")


@register("warehouse-pallets", domain=DOMAIN)
def warehouse_pallets(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    sites = {"north": rng.randint(10, 40), "south": rng.randint(10, 40), "east": 0}
    start, steps = dict(sites), []
    for _ in range(n):
        a, b = rng.sample(list(sites), 2)
        amount = rng.randint(1, 15)
        if sites[a] >= amount:
            sites[a], sites[b] = sites[a] - amount, sites[b] + amount
        steps.append(f"Move {amount} pallets from {a} to {b}.")
    intro = ("Warehouses hold pallets: " + ", ".join(f"{k} {v}" for k, v in start.items())
             + ". A move of more pallets than the source holds does not happen.")
    return draft(intro, steps, ask_pairs(list(sites)), "mapping", sites, level, "inventory")


@register("vote-tally", domain=DOMAIN)
def vote_tally(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    candidates = rng.sample(["Oak", "Elm", "Ash", "Yew", "Fir"], 3)
    votes = dict.fromkeys(candidates, 0)
    steps = []
    for _ in range(n):
        a, b = rng.sample(candidates, 2)
        count = rng.randint(1, 9)
        if votes[a] >= count and rng.random() < 0.35:
            votes[a], votes[b] = votes[a] - count, votes[b] + count
            steps.append(f"{count} voters switch from {a} to {b}.")
        else:
            votes[a] += count
            steps.append(f"{count} votes are cast for {a}.")
    intro = f"A poll starts with no votes for the candidates {', '.join(candidates)}."
    return draft(intro, steps, ask_pairs(candidates), "mapping", votes, level, "counter")


@register("library-loans", domain=DOMAIN)
def library_loans(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    readers = rng.sample(NAMES, 3)
    loans = dict.fromkeys(readers, 0)
    steps = []
    for _ in range(n):
        who, count = rng.choice(readers), rng.randint(1, 3)
        if loans[who] >= count and rng.random() < 0.4:
            loans[who] -= count
            steps.append(f"{who} returns {count} book{'s' * (count > 1)}.")
        elif loans[who] + count <= 5:
            loans[who] += count
            steps.append(f"{who} borrows {count} book{'s' * (count > 1)}.")
        else:
            steps.append(f"{who} tries to borrow {count} book{'s' * (count > 1)}.")
    intro = (f"{', '.join(readers)} start with no library books. Nobody may hold more than 5; "
             "a loan that would exceed 5 is refused.")
    return draft(intro, steps, ask_pairs(readers), "mapping", loans, level, "counter")


@register("scoreboard", domain=DOMAIN)
def scoreboard(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    teams = rng.sample(["Lions", "Hawks", "Bears", "Wolves", "Sharks"], 3)
    score = dict.fromkeys(teams, 0)
    steps = []
    for _ in range(n):
        team, points = rng.choice(teams), rng.choice([1, 2, 3])
        roll = rng.random()
        if roll < 0.6:
            score[team] += points
            steps.append(f"The {team} score {points}.")
        elif roll < 0.8:
            score[team] = max(0, score[team] - points)
            steps.append(f"The {team} lose {points} for a foul.")
        else:
            score[team] *= 2
            steps.append(f"Bonus round: the {team} double their score.")
    intro = f"Scores of the {', '.join(teams)} start at 0 and never go below 0."
    return draft(intro, steps, ask_pairs(teams), "mapping", score, level, "counter")


@register("coins-and-lives", domain=DOMAIN)
def coins_and_lives(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    lives, coins = 3, 0
    steps = []
    for _ in range(n):
        if lives > 1 and rng.random() < 0.3:
            lives -= 1
            steps.append("The player is hit.")
            continue
        gained = rng.randint(1, 7)
        lives, coins = lives + (coins + gained) // 10, (coins + gained) % 10
        steps.append(f"The player collects {gained} coin{'s' * (gained > 1)}.")
    intro = ("A game starts with 3 lives and 0 coins. A hit costs one life. Whenever the coins "
             "reach 10, 10 coins are exchanged for one extra life.")
    state = {"lives": lives, "coins": coins}
    return draft(intro, steps, ask_pairs(["lives", "coins"]), "mapping", state, level, "counter")


@register("gate-counters", domain=DOMAIN)
def gate_counters(rng: random.Random) -> Draft:
    level, n = draw_steps(rng)
    gates = {"north": 0, "south": 0, "west": 0}
    steps = []
    for _ in range(n):
        gate, count = rng.choice(list(gates)), rng.randint(1, 9)
        roll = rng.random()
        if roll < 0.65:
            gates[gate] += count
            steps.append(f"{count} visitors pass the {gate} gate.")
        elif roll < 0.85:
            gates[gate] = 0
            steps.append(f"The {gate} counter is reset to 0.")
        else:
            other = rng.choice([g for g in gates if g != gate])
            gates[gate] = gates[other]
            steps.append(f"The {gate} counter is set to the reading of the {other} counter.")
    intro = "A park has clicker counters at its north, south and west gates, all at 0."
    return draft(intro, steps, ask_pairs(list(gates)), "mapping", gates, level, "counter")
