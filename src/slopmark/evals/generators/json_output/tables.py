"""JSON templates for tables that must add up: budgets, invoices, tallies, stock."""

from __future__ import annotations

import random

from slopmark.evals.generators.json_output.case import Case, ask, case, make_case
from slopmark.evals.generators.json_output.draws import CITIES, PEOPLE, listed, pick, split
from slopmark.evals.generators.json_output.schema import INT, NUM, STR, Record, arr, count, eq, obj


@case("budget-shares")
def budget_shares(rng: random.Random) -> Case:
    names = pick(rng, "housing food transport savings leisure health education", 4, 6)
    who = rng.choice(("a student", "a family of four", "a retired couple", "a freelancer"))
    shares = split(rng, 100, len(names), 5)
    rows = [{"name": n, "percent": p} for n, p in zip(names, shares, strict=True)]
    schema = obj({"categories": arr(obj({"name": STR, "percent": INT}))})
    prompt = ask(f"Propose a monthly budget for {who} as JSON over exactly these categories: "
                 f"{listed(names)}. Give each a whole-number percent, none below 5, adding up to "
                 "exactly 100, as {\"categories\": [{\"name\": ..., \"percent\": ...}, ...]}.")
    invariants = [{"sum": "/categories/*/percent", "equals": 100}, count("/categories", len(names)),
                  {"unique": "/categories/*/name"}, {"compare": ["/categories/*/percent", ">=", 5]}]
    return make_case(prompt, {"categories": rows}, schema, invariants)


@case("invoice-totals")
def invoice_totals(rng: random.Random) -> Case:
    lines: list[Record] = [
        {"description": goods, "quantity": rng.randint(1, 9),
         "unit_price": rng.randint(199, 9999) / 100}
        for goods in pick(rng, "lamp chair monitor keyboard cables webcam", 2, 4)
    ]
    for line in lines:
        line["line_total"] = round(line["quantity"] * line["unit_price"], 2)
    total = round(sum(line["line_total"] for line in lines), 2)
    ordered = listed([f"{x['quantity']} × {x['description']} at {x['unit_price']:.2f}"
                      for x in lines])
    item = obj({"description": STR, "quantity": INT, "unit_price": NUM, "line_total": NUM})
    schema = obj({"items": arr(item, 1), "total": NUM})
    prompt = ask(f"Turn this order into an invoice as JSON: {ordered} (prices in EUR). Each item "
                 "gets its line_total (quantity × unit_price) and the invoice its total.", schema)
    invariants = [{"sum": "/items/*/line_total", "equals": "/total", "tolerance": 0.01},
                  {"sum": "/total", "equals": total, "tolerance": 0.01}]
    invariants += [{"sum": f"/items/{i}/line_total", "equals": x["line_total"], "tolerance": 0.01}
                   for i, x in enumerate(lines)]
    return make_case(prompt, {"items": lines, "total": total}, schema, invariants, "hard")


@case("weekly-hours")
def weekly_hours(rng: random.Random) -> Case:
    names = pick(rng, "coding meetings reviews support learning planning", 3, 5)
    total, cap = rng.choice((35, 38, 40)), rng.randint(6, 10)
    hours = split(rng, total, len(names), 2)
    hours[0], hours[-1] = min(hours[0], cap), hours[-1] + hours[0] - min(hours[0], cap)
    prompt = ask(f"Split a {total}-hour work week between {listed(names)} as JSON "
                 "{\"hours\": {activity: whole hours}}. Every activity gets at least 2 hours, "
                 f"{names[0]} at most {cap}, and the hours add up to exactly {total}.", bare=True)
    invariants = [{"sum": "/hours/*", "equals": total}, count("/hours", len(names)),
                  {"compare": ["/hours/*", ">=", 2]},
                  {"compare": [f"/hours/{names[0]}", "<=", cap]}]
    schema = obj({"hours": {"type": "object", "additionalProperties": INT}})
    reference = {"hours": dict(zip(names, hours, strict=True))}
    return make_case(prompt, reference, schema, invariants, "hard", bare=True)


@case("bill-split")
def bill_split(rng: random.Random) -> Case:
    people, cents = pick(rng, PEOPLE, 3, 5), rng.randint(4000, 30000)
    base, extra = divmod(cents, len(people))
    shares = [{"person": p, "amount": (base + (i < extra)) / 100} for i, p in enumerate(people)]
    schema = obj({"total": NUM, "shares": arr(obj({"person": STR, "amount": NUM}))})
    prompt = ask(f"A dinner bill of {cents / 100:.2f} is split as evenly as possible (to the cent) "
                 f"between {listed(people)}. Give it as JSON {{\"total\": ..., \"shares\": "
                 "[{\"person\": ..., \"amount\": ...}]} where the amounts add up to the total.")
    invariants = [{"sum": "/shares/*/amount", "equals": cents / 100, "tolerance": 0.005},
                  {"sum": "/total", "equals": cents / 100, "tolerance": 0.005},
                  count("/shares", len(people)), {"unique": "/shares/*/person"},
                  {"compare": ["/shares/*/amount", ">=", (base - 1) / 100]},
                  {"compare": ["/shares/*/amount", "<=", (base + 1) / 100]}]
    return make_case(prompt, {"total": cents / 100, "shares": shares}, schema, invariants)


@case("grade-weights")
def grade_weights(rng: random.Random) -> Case:
    others = pick(rng, "homework labs quizzes project participation midterm", 2, 4)
    weights = sorted(split(rng, 100, len(others) + 1, 5), reverse=True)
    weights[0], weights[-1] = weights[0] + 1, weights[-1] - 1
    course = rng.choice(("introductory statistics", "organic chemistry", "European history"))
    schema = obj({"course": STR, "components": arr(obj({"name": STR, "weight": INT}))})
    prompt = ask(f"Design a grading scheme for {course} with the components 'final exam', "
                 f"{listed([repr(o) for o in others])}. Weights are whole percents adding up to "
                 "100; the final exam weighs strictly the most; list components from heaviest to "
                 "lightest.", schema)
    invariants = [{"sum": "/components/*/weight", "equals": 100},
                  {"sorted": "/components/*/weight", "order": "desc"},
                  eq("/components/0/name", "final exam"),
                  {"compare": ["/components/0/weight", ">", "/components/1/weight"]},
                  count("/components", len(others) + 1), {"unique": "/components/*/name"}]
    rows = [{"name": n, "weight": w} for n, w in zip(["final exam", *others], weights, strict=True)]
    return make_case(prompt, {"course": course, "components": rows}, schema, invariants, "hard")


@case("election-results")
def election_results(rng: random.Random) -> Case:
    names = pick(rng, PEOPLE, 3, 5)
    votes = rng.sample(range(100, 5000), len(names))
    tally = ", ".join(f"{n} {v}" for n, v in zip(names, votes, strict=True))
    ranked = sorted(zip(names, votes, strict=True), key=lambda pair: -pair[1])
    schema = obj({"candidates": arr(obj({"name": STR, "votes": INT})), "total_votes": INT,
                  "winner": STR})
    prompt = ask(f"Club election tally: {tally}. Report it as JSON with candidates (name, votes) "
                 "from most to fewest votes, total_votes and winner.", schema)
    invariants = [{"sorted": "/candidates/*/votes", "order": "desc", "strict": True},
                  {"sum": "/candidates/*/votes", "equals": "/total_votes"},
                  eq("/total_votes", sum(votes)), eq("/winner", ranked[0][0]),
                  {"compare": ["/winner", "==", "/candidates/0/name"]},
                  count("/candidates", len(names))]
    reference = {"candidates": [{"name": n, "votes": v} for n, v in ranked],
                 "total_votes": sum(votes), "winner": ranked[0][0]}
    return make_case(prompt, reference, schema, invariants)


@case("macro-split")
def macro_split(rng: random.Random) -> Case:
    kcal, protein = rng.choice((1800, 2000, 2200, 2500)), rng.choice((20, 25, 30))
    fat = rng.randint(20, 35)
    schema = obj({"calories": INT, "macros": obj({"protein": INT, "carbs": INT, "fat": INT})})
    prompt = ask(f"Plan the macronutrient split of a {kcal} kcal diet as JSON {{\"calories\": ..., "
                 "\"macros\": {\"protein\": %, \"carbs\": %, \"fat\": %}} with whole percents "
                 f"adding up to 100, protein at least {protein}% and fat 20–35%.", bare=True)
    invariants = [{"sum": "/macros/*", "equals": 100}, eq("/calories", kcal),
                  {"compare": ["/macros/protein", ">=", protein]},
                  {"compare": ["/macros/fat", ">=", 20]}, {"compare": ["/macros/fat", "<=", 35]}]
    macros = {"protein": protein, "carbs": 100 - protein - fat, "fat": fat}
    return make_case(prompt, {"calories": kcal, "macros": macros}, schema, invariants, bare=True)


@case("warehouse-stock")
def warehouse_stock(rng: random.Random) -> Case:
    houses: list[Record] = []
    for city in rng.sample(CITIES, rng.randint(2, 3)):
        bins = [{"bin": b, "units": rng.randint(0, 500)} for b in pick(rng, "A B C D E F", 2, 3)]
        houses.append({"city": city, "bins": bins, "units_total": sum(b["units"] for b in bins)})
    said = "; ".join(f"{h['city']}: " + ", ".join(f"bin {b['bin']} {b['units']}" for b in h["bins"])
                     for h in houses)
    grand = sum(h["units_total"] for h in houses)
    house = obj({"city": STR, "bins": arr(obj({"bin": STR, "units": INT})), "units_total": INT})
    schema = obj({"warehouses": arr(house), "grand_total": INT})
    prompt = ask(f"Stock count ({said}). Report it as JSON with warehouses (city, bins with bin "
                 "and units, units_total per warehouse) and grand_total.", schema)
    invariants = [{"sum": "/warehouses/*/bins/*/units", "equals": "/grand_total"},
                  eq("/grand_total", grand), count("/warehouses", len(houses))]
    invariants += [
        {"sum": f"/warehouses/{i}/bins/*/units", "equals": f"/warehouses/{i}/units_total"}
        for i in range(len(houses))
    ]
    reference = {"warehouses": houses, "grand_total": grand}
    return make_case(prompt, reference, schema, invariants, "hard")
