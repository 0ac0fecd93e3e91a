"""JSON templates: records, tables that must add up, schedules, configs and function calls.

Each template draws its values, then builds the prompt, the verifier config
and a reference answer from the same values, so the reference is known to
pass (tests check it for every generated task). `CASES` maps a template id to
the function returning both; the registered template keeps only the task.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from slopmark.evals.generators import Draft, template

VARIANTS = 4
DOMAIN = "json"
Record = dict[str, Any]
STR: Record = {"type": "string"}
INT: Record = {"type": "integer"}
NUM: Record = {"type": "number"}
BOOL: Record = {"type": "boolean"}
HHMM: Record = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
DAY: Record = {"type": "string", "format": "date"}
EMAIL: Record = {"type": "string", "format": "email"}
PEOPLE = ("Ada", "Bruno", "Chen", "Dara", "Elif", "Femi", "Goran", "Hana", "Ivo", "Jun")
SURNAMES = ("Silva", "Mwangi", "Tanaka", "Novak", "Okafor", "Lindqvist", "Haddad", "Moreau")
CITIES = ("Lisbon", "Nairobi", "Osaka", "Toronto", "Tbilisi", "Quito", "Oslo", "Perth")


@dataclass(frozen=True)
class Case:
    """A generated task and an answer that passes it."""

    draft: Draft
    reference: Any


Make = Callable[[random.Random], Case]
CASES: dict[str, Make] = {}


def case(template_id: str) -> Callable[[Make], Make]:
    """Register a template returning a `Case`; the generator sees only its draft."""

    def add(make: Make) -> Make:
        CASES[template_id] = make
        template(DOMAIN, template_id)(lambda rng: make(rng).draft)
        return make

    return add


# --- building blocks -------------------------------------------------------------


def obj(required: Record, optional: Record | None = None) -> Record:
    """A closed object schema: ``required`` keys must appear, ``optional`` ones may."""
    properties = {**required, **(optional or {})}
    closed = {"required": list(required), "additionalProperties": False}
    return {"type": "object", "properties": properties, **closed}


def arr(items: Record, least: int | None = None, **more: Any) -> Record:
    return {"type": "array", "items": items, **({"minItems": least} if least else {}), **more}


def eq(path: str, value: Any) -> Record:
    """Invariant: the value at ``path`` equals ``value``."""
    return {"compare": [path, "==", {"value": value}]}


def count(path: str, equals: int) -> Record:
    return {"count": path, "equals": equals}


def ask(task: str, schema: Record | None = None, bare: bool = False) -> str:
    """The prompt: the task, the schema when shown, and how to reply."""
    shown = f"\nThe JSON must match this JSON Schema:\n{json.dumps(schema)}" if schema else ""
    fence = ", with no code fence around it" if bare else ""
    return f"{task}{shown}\nReply with the JSON only{fence}."


def make_case(
    prompt: str,
    reference: Any,
    schema: Record | None = None,
    invariants: Sequence[Any] = (),
    difficulty: str = "medium",
    bare: bool = False,
) -> Case:
    """A task whose prompt ends with `ask`; ``bare`` tasks reject a fenced answer."""
    verifier: Record = {"type": "json", "fences": "reject" if bare else "allow"}
    verifier.update({"schema": schema} if schema else {})
    verifier.update({"invariants": list(invariants)} if invariants else {})
    tags = ("schema",) * bool(schema) + ("invariants",) * bool(invariants)
    return Case(Draft((prompt,), verifier, difficulty, tags=tags), reference)


def split(rng: random.Random, total: int, parts: int, least: int = 1) -> list[int]:
    """``parts`` whole numbers, each ≥ ``least``, adding up to ``total``."""
    spare = total - parts * (least - 1)
    cuts = sorted(rng.sample(range(1, spare), parts - 1))
    return [b - a + least - 1 for a, b in zip([0, *cuts], [*cuts, spare], strict=True)]


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def some_day(rng: random.Random) -> date:
    return date(2025, 1, 1) + timedelta(days=rng.randrange(330))


def listed(items: Sequence[Any]) -> str:
    if len(items) == 1:
        return str(items[0])
    return ", ".join(map(str, items[:-1])) + f" and {items[-1]}"


def full_name(rng: random.Random) -> str:
    return f"{rng.choice(PEOPLE)} {rng.choice(SURNAMES)}"


def pick(rng: random.Random, choices: str | Sequence[str], low: int, high: int) -> list[str]:
    """Between ``low`` and ``high`` distinct items of ``choices`` (a string: its words)."""
    pool = choices.split() if isinstance(choices, str) else list(choices)
    return rng.sample(pool, rng.randint(low, high))


# --- records -----------------------------------------------------------------------


@case("contact-card")
def contact_card(rng: random.Random) -> Case:
    name = full_name(rng)
    email = name.lower().replace(" ", ".") + "@example.org"
    phone = f"+{rng.randint(1, 99)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}"
    tags = pick(rng, "client supplier vip press friend board", 1, 3)
    schema = obj({"name": STR, "email": EMAIL, "phone": STR, "tags": arr(STR, uniqueItems=True)})
    prompt = ask(f"Make a contact card for {name} (email {email}, phone {phone}) tagged "
                 f"{listed(tags)}, as a JSON object with the keys name, email, phone and tags "
                 "(a list of strings).")
    invariants = [eq("/email", email), eq("/phone", phone), count("/tags", len(tags))]
    reference = {"name": name, "email": email, "phone": phone, "tags": tags}
    return make_case(prompt, reference, schema, invariants, "easy")


@case("book-record")
def book_record(rng: random.Random) -> Case:
    title = rng.choice(("The Salt Orchard", "Seven Quiet Bridges", "Paper Moons", "Glass Delta"))
    author, year = full_name(rng), rng.randint(1950, 2024)
    genres = pick(rng, "mystery history romance travel science poetry", 2, 4)
    schema = obj({"title": STR, "author": STR, "year": {"type": "integer", "minimum": 1450},
                  "genres": arr(STR, 1, uniqueItems=True)})
    prompt = ask(f"Catalogue this book as JSON: '{title}' by {author}, published in {year}, "
                 f"genres {listed(genres)}.", schema)
    invariants = [eq("/title", title), eq("/year", year), {"unique": "/genres/*"},
                  count("/genres", len(genres))]
    reference = {"title": title, "author": author, "year": year, "genres": genres}
    return make_case(prompt, reference, schema, invariants, "easy")


@case("product-listing")
def product_listing(rng: random.Random) -> Case:
    sku = "".join(rng.sample("ABCDEFGHJKLMNPRSTUVWXYZ", 3)) + f"-{rng.randint(1000, 9999)}"
    price, currency = round(rng.uniform(5, 300), 2), rng.choice(("EUR", "USD", "GBP"))
    stock = rng.random() < 0.5
    size = {"width": rng.randint(5, 90), "height": rng.randint(5, 90), "depth": rng.randint(2, 40)}
    schema = obj({"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
                  "price": {"type": "number", "exclusiveMinimum": 0},
                  "currency": {"enum": ["EUR", "USD", "GBP"]}, "in_stock": BOOL,
                  "dimensions_cm": obj({"width": NUM, "height": NUM, "depth": NUM})})
    prompt = ask(f"Write the shop listing for item {sku} as JSON: price {price} {currency}, "
                 f"{'in stock' if stock else 'out of stock'}, {size['width']} × {size['height']} "
                 f"× {size['depth']} cm (width × height × depth). Use the keys sku, price, "
                 "currency (a code like EUR), in_stock and dimensions_cm (width, height, depth).",
                 bare=True)
    invariants = [eq("/sku", sku), eq("/price", price), eq("/in_stock", stock),
                  eq("/dimensions_cm", size)]
    reference = {"sku": sku, "price": price, "currency": currency, "in_stock": stock,
                 "dimensions_cm": size}
    return make_case(prompt, reference, schema, invariants, bare=True)


@case("user-profile")
def user_profile(rng: random.Random) -> Case:
    street = f"{rng.randint(1, 200)} {rng.choice(('Elm', 'Harbour', 'Mill'))} Road"
    postcode = str(rng.randint(10000, 99999))
    address = {"street": street, "city": rng.choice(CITIES), "postcode": postcode}
    user = {"id": rng.randint(1000, 99999), "name": full_name(rng), "address": address}
    prefs = {"newsletter": rng.random() < 0.5, "language": rng.choice(("en", "fr", "de", "es"))}
    schema = obj({"user": obj({"id": INT, "name": STR,
                               "address": obj({"street": STR, "city": STR, "postcode": STR})}),
                  "preferences": obj({"newsletter": BOOL,
                                      "language": {"enum": ["en", "fr", "de", "es", "pt"]}})})
    prompt = ask(f"Store this sign-up as JSON: user #{user['id']}, {user['name']}, living at "
                 f"{street}, {address['postcode']} {address['city']}; "
                 f"{'wants' if prefs['newsletter'] else 'does not want'} the newsletter; "
                 f"language code {prefs['language']}.", schema)
    invariants = [eq("/user/id", user["id"]), eq("/user/address/city", address["city"]),
                  eq("/user/address/postcode", address["postcode"]), eq("/preferences", prefs)]
    return make_case(prompt, {"user": user, "preferences": prefs}, schema, invariants)


@case("recipe-card")
def recipe_card(rng: random.Random) -> Case:
    dish = rng.choice(("flatbread", "lentil soup", "fruit salad", "pancakes", "tomato sauce"))
    names = pick(rng, "flour water salt lentils onion apple milk egg tomato", 4, 4)
    grams = [rng.randint(1, 60) * 5 for _ in names]
    steps = rng.randint(3, 6)
    rows = [{"name": n, "grams": g} for n, g in zip(names, grams, strict=True)]
    ingredient = obj({"name": STR, "grams": {"type": "integer", "minimum": 1}})
    schema = obj({"dish": STR, "ingredients": arr(ingredient, 1), "steps": arr(STR, 1)})
    prompt = ask(f"Write a recipe card for {dish} as JSON with these ingredients: "
                 f"{listed([f'{g} g {n}' for n, g in zip(names, grams, strict=True)])}, and "
                 f"exactly {steps} steps. Use the keys dish, ingredients (objects with name and "
                 "grams) and steps (a list of strings).")
    invariants = [{"sum": "/ingredients/*/grams", "equals": sum(grams)}, count("/steps", steps),
                  {"unique": "/ingredients/*/name"}, count("/ingredients", len(names))]
    written = [f"Step {i + 1}." for i in range(steps)]
    reference = {"dish": dish, "ingredients": rows, "steps": written}
    return make_case(prompt, reference, schema, invariants)


@case("films-by-year")
def films_by_year(rng: random.Random) -> Case:
    titles = rng.sample(["Harbour Lights", "Dust Road", "Blue Meridian", "Northern Static",
                         "The Tin Parade", "Quiet Engines", "Paper Tigers"], rng.randint(4, 6))
    years = rng.sample(range(1960, 2024), len(titles))
    pairs = ", ".join(f"{t} ({y})" for t, y in zip(titles, years, strict=True))
    prompt = ask(f"List these films as JSON, oldest first: {pairs}. Use "
                 "{\"films\": [{\"title\": ..., \"year\": ...}, ...]}.", bare=True)
    films = [{"title": t, "year": y} for y, t in sorted(zip(years, titles, strict=True))]
    invariants = [{"sorted": "/films/*/year", "strict": True}, {"unique": "/films/*/title"},
                  {"sum": "/films/*/year", "equals": sum(years)}, count("/films", len(titles))]
    schema = obj({"films": arr(obj({"title": STR, "year": INT}))})
    return make_case(prompt, {"films": films}, schema, invariants, bare=True)


@case("csv-to-json")
def csv_to_json(rng: random.Random) -> Case:
    rows: list[Record] = [
        {"city": city, "population_k": rng.randint(50, 9000), "coastal": rng.random() < 0.5,
         "rainfall_mm": round(rng.uniform(200, 2500), 1)}
        for city in rng.sample(CITIES, rng.randint(3, 5))
    ]
    table = "\n".join(["city,population_k,coastal,rainfall_mm"] + [
        ",".join(json.dumps(value).strip('"') for value in row.values()) for row in rows])
    schema = arr(obj({"city": STR, "population_k": INT, "coastal": BOOL, "rainfall_mm": NUM}))
    prompt = ask("Convert this CSV to a JSON array of objects, one per row, with numbers as "
                 f"numbers and true/false as booleans:\n{table}", schema)
    rain = sum(row["rainfall_mm"] for row in rows)
    invariants = [count("", len(rows)), {"unique": "/*/city"},
                  {"sum": "/*/population_k", "equals": sum(row["population_k"] for row in rows)},
                  {"sum": "/*/rainfall_mm", "equals": rain, "tolerance": 0.01}]
    return make_case(prompt, rows, schema, invariants)


@case("order-extraction")
def order_extraction(rng: random.Random) -> Case:
    order_id = f"ORD-{rng.randint(10000, 99999)}"
    items: list[Record] = [{"sku": f"{c}{rng.randint(100, 999)}", "qty": rng.randint(1, 12)}
             for c in pick(rng, "A B C D E F G H", 2, 4)]
    express = rng.random() < 0.5
    wanted = listed([f"{item['qty']} × {item['sku']}" for item in items])
    speed = "express, I need it by Friday" if express else "the normal way, no rush"
    message = (f"Hi! This is about order {order_id}. I'd like {wanted}. Please ship it {speed}. "
               f"Thanks, {rng.choice(PEOPLE)}")
    line = obj({"sku": STR, "qty": {"type": "integer", "minimum": 1}})
    schema = obj({"order_id": STR, "items": arr(line, 1), "express": BOOL})
    prompt = ask("Extract the order from this customer message as JSON with keys order_id, items "
                 f"(sku and qty) and express (true or false):\n\n\"{message}\"", bare=True)
    invariants = [eq("/order_id", order_id), eq("/express", express), {"unique": "/items/*/sku"},
                  {"sum": "/items/*/qty", "equals": sum(item["qty"] for item in items)},
                  count("/items", len(items))]
    reference = {"order_id": order_id, "items": items, "express": express}
    return make_case(prompt, reference, schema, invariants, bare=True)


PERSON: Record = {
    "$defs": {"person": {
        "type": "object", "required": ["name", "title", "reports"], "additionalProperties": False,
        "properties": {"name": STR, "title": STR,
                       "reports": {"type": "array", "items": {"$ref": "#/$defs/person"}}}}},
    "$ref": "#/$defs/person",
}


@case("org-chart")
def org_chart(rng: random.Random) -> Case:
    names = rng.sample(PEOPLE, 7)
    heads = names[1 : 1 + rng.randint(2, 3)]
    staff = names[1 + len(heads) :]
    teams = {head: staff[i :: len(heads)] for i, head in enumerate(heads)}
    said = "; ".join(f"{h} leads {listed(t)}" for h, t in teams.items() if t)
    prompt = ask(f"Draw this org chart as nested JSON: {names[0]} is the CEO; the heads reporting "
                 f"to the CEO are {listed(heads)}; {said}. Heads have the title 'Head', everyone "
                 "else 'Engineer'.", PERSON)
    reports = [
        {"name": h, "title": "Head", "reports": [
            {"name": s, "title": "Engineer", "reports": []} for s in team]}
        for h, team in teams.items()
    ]
    invariants = [eq("/name", names[0]), count("/reports", len(heads)),
                  count("/reports/*/reports", len(staff)), {"unique": "/reports/*/reports/*/name"}]
    tree = {"name": names[0], "title": "CEO", "reports": reports}
    return make_case(prompt, tree, PERSON, invariants, "hard")


# --- tables that must add up ---------------------------------------------------------


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


# --- schedules and time relations ------------------------------------------------------


@case("meeting-slots")
def meeting_slots(rng: random.Random) -> Case:
    start, end = rng.choice(((8, 12), (9, 17), (13, 18), (10, 16)))
    lengths = [rng.choice((15, 30, 45, 60)) for _ in range(rng.randint(3, 5))]
    minutes = listed([f"{m} min" for m in lengths])
    prompt = ask(f"Schedule {len(lengths)} meetings lasting {minutes} "
                 f"(in that order) between {start:02d}:00 and {end:02d}:00 without overlaps, as "
                 "JSON {\"slots\": [[start, end], ...]} with 24-hour HH:MM times in time order.")
    invariants = [count("/slots", len(lengths)), {"sorted": "/slots/*/*"},
                  {"compare": ["/slots/*/0", "<", "/slots/*/1"]},
                  {"compare": ["/slots/*/0", ">=", {"value": f"{start:02d}:00"}]},
                  {"compare": ["/slots/*/1", "<=", {"value": f"{end:02d}:00"}]}]
    ends = [start * 60 + sum(lengths[: i + 1]) for i in range(len(lengths))]
    slots = [[hhmm(e - m), hhmm(e)] for e, m in zip(ends, lengths, strict=True)]
    schema = obj({"slots": arr(arr(HHMM, 2, maxItems=2))})
    return make_case(prompt, {"slots": slots}, schema, invariants)


@case("flight-legs")
def flight_legs(rng: random.Random) -> Case:
    cities = rng.sample(CITIES, rng.randint(3, 4))
    day, clock = some_day(rng).isoformat(), rng.randint(6, 10) * 60
    legs: list[Record] = []
    for origin, goal in zip(cities, cities[1:], strict=False):
        length = rng.randint(6, 30) * 10
        legs.append({"from": origin, "to": goal, "depart": f"{day}T{hhmm(clock)}",
                     "arrive": f"{day}T{hhmm(clock + length)}"})
        clock += length + rng.randint(6, 18) * 10
    said = "; ".join(f"{x['from']} → {x['to']} departs {x['depart']} arrives {x['arrive']}"
                     for x in rng.sample(legs, len(legs)))
    stamp = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$"}
    schema = obj({"legs": arr(obj({"from": STR, "to": STR, "depart": stamp, "arrive": stamp}), 1)})
    prompt = ask("Put these flight legs in travel order as JSON {\"legs\": [{\"from\", \"to\", "
                 f"\"depart\", \"arrive\"}}]}}, keeping the times exactly as given: {said}.",
                 bare=True)
    invariants = [{"sorted": "/legs/*/depart", "strict": True},
                  {"compare": ["/legs/*/depart", "<", "/legs/*/arrive"]},
                  eq("/legs/0/from", cities[0]), eq(f"/legs/{len(legs) - 1}/to", cities[-1]),
                  count("/legs", len(legs))]
    return make_case(prompt, {"legs": legs}, schema, invariants, bare=True)


@case("shift-roster")
def shift_roster(rng: random.Random) -> Case:
    staff, days = pick(rng, PEOPLE, 3, 4), pick(rng, "Mon Tue Wed Thu Fri Sat Sun", 3, 5)
    day = {"enum": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]}
    shift = obj({"person": STR, "day": day, "start": HHMM, "end": HHMM})
    schema = obj({"staff": arr(STR), "shifts": arr(shift)})
    prompt = ask(f"Make a café shift roster as JSON for the staff {listed(staff)}: one shift on "
                 f"each of {listed(days)}, each between 06:00 and 22:00, only staff from the list.",
                 schema)
    invariants = [{"subset": "/shifts/*/person", "of": "/staff/*"}, count("/shifts", len(days)),
                  {"unique": "/shifts/*/day"},
                  {"compare": ["/shifts/*/start", "<", "/shifts/*/end"]},
                  {"compare": ["/shifts/*/start", ">=", {"value": "06:00"}]},
                  {"compare": ["/shifts/*/end", "<=", {"value": "22:00"}]}]
    shifts = [{"person": staff[i % len(staff)], "day": d, "start": "07:00", "end": "15:00"}
              for i, d in enumerate(days)]
    return make_case(prompt, {"staff": staff, "shifts": shifts}, schema, invariants)


@case("project-dependencies")
def project_dependencies(rng: random.Random) -> Case:
    steps = pick(rng, "design prototype review build test launch docs", 4, 6)
    tasks: list[Record] = [
        {"id": step, "days": rng.randint(1, 10),
         "depends_on": rng.sample(steps[:i], min(i, rng.randint(0, 2)))}
        for i, step in enumerate(steps)
    ]
    said = "; ".join(f"{t['id']} takes {t['days']} days"
                     + "".join(f" after {listed(t['depends_on'])}" for _ in t["depends_on"][:1])
                     for t in tasks)
    total = sum(t["days"] for t in tasks)
    task = obj({"id": STR, "days": INT, "depends_on": arr(STR)})
    schema = obj({"tasks": arr(task), "total_days": INT})
    prompt = ask(f"Write this project plan as JSON: {said}. Include total_days, the sum of all "
                 "task durations.", schema)
    invariants = [{"unique": "/tasks/*/id"},
                  {"subset": "/tasks/*/depends_on/*", "of": "/tasks/*/id"},
                  {"sum": "/tasks/*/days", "equals": "/total_days"}, eq("/total_days", total),
                  count("/tasks", len(tasks))]
    return make_case(prompt, {"tasks": tasks, "total_days": total}, schema, invariants, "hard")


@case("conference-agenda")
def conference_agenda(rng: random.Random) -> Case:
    opens, closes = rng.choice(((9, 13), (9, 17), (14, 18)))
    topics = rng.sample(["Keynote", "Data ethics", "Rust in production", "Accessibility",
                         "Testing", "Open source funding", "Closing panel"], rng.randint(3, 5))
    day = {"start": f"{opens:02d}:00", "end": f"{closes:02d}:00"}
    schema = obj({"day": obj({"start": HHMM, "end": HHMM}),
                  "talks": arr(obj({"title": STR, "start": HHMM, "end": HHMM}))})
    prompt = ask(f"Lay out a conference day running {day['start']}–{day['end']} with the talks "
                 f"{listed(topics)} as JSON: day (start, end) and talks (title, start, end) in "
                 "time order, with no talk outside the day and none overlapping.", schema)
    invariants = [{"compare": ["/talks/*/start", ">=", "/day/start"]},
                  {"compare": ["/talks/*/end", "<=", "/day/end"]},
                  {"compare": ["/talks/*/start", "<", "/talks/*/end"]},
                  {"sorted": "/talks/*/start", "strict": True}, count("/talks", len(topics)),
                  eq("/day", day)]
    talks = [{"title": t, "start": hhmm(opens * 60 + i * 45), "end": hhmm(opens * 60 + i * 45 + 40)}
             for i, t in enumerate(topics)]
    return make_case(prompt, {"day": day, "talks": talks}, schema, invariants)


@case("train-timetable")
def train_timetable(rng: random.Random) -> Case:
    stops = pick(rng, "Ashford Brook Carden Dunmore Elling Farley Glen", 4, 6)
    gaps, leave = [rng.randint(4, 25) for _ in stops[1:]], rng.randint(5 * 60, 21 * 60)
    times = [hhmm(leave + sum(gaps[:i])) for i in range(len(stops))]
    said = ", ".join(f"{g} min to {s}" for g, s in zip(gaps, stops[1:], strict=True))
    schema = obj({"stops": arr(obj({"station": STR, "time": HHMM}))})
    prompt = ask(f"A train leaves {stops[0]} at {times[0]} and then runs {said}. Give its "
                 "timetable as JSON {\"stops\": [{\"station\": ..., \"time\": \"HH:MM\"}, ...]}, "
                 "first stop first.")
    last = len(stops) - 1
    invariants = [{"sorted": "/stops/*/time", "strict": True}, count("/stops", len(stops)),
                  eq("/stops/0/station", stops[0]), eq(f"/stops/{last}/station", stops[-1]),
                  eq(f"/stops/{last}/time", times[-1]), {"unique": "/stops/*/station"}]
    rows = [{"station": s, "time": t} for s, t in zip(stops, times, strict=True)]
    return make_case(prompt, {"stops": rows}, schema, invariants, "hard")


@case("event-dates")
def event_dates(rng: random.Random) -> Case:
    start, length, notice = some_day(rng), rng.randint(1, 5), rng.randint(7, 30)
    event = rng.choice(("a robotics camp", "a film festival", "a chess open", "a hackathon"))
    dates = {"start_date": start, "end_date": start + timedelta(days=length - 1),
             "registration_deadline": start - timedelta(days=notice)}
    schema = obj({"event": STR, **dict.fromkeys(dates, DAY)})
    prompt = ask(f"{event.capitalize()} starts on {start:%A %d %B %Y} and lasts {length} day(s) "
                 f"including the first; registration closes {notice} days before the start. Give "
                 "event, start_date, end_date and registration_deadline as JSON (YYYY-MM-DD).",
                 bare=True)
    invariants = [eq(f"/{key}", value.isoformat()) for key, value in dates.items()]
    invariants += [{"compare": ["/registration_deadline", "<", "/start_date"]},
                   {"compare": ["/start_date", "<=", "/end_date"]}]
    reference = {"event": event, **{key: value.isoformat() for key, value in dates.items()}}
    return make_case(prompt, reference, schema, invariants, "hard", bare=True)


@case("sprint-plan")
def sprint_plan(rng: random.Random) -> Case:
    first = some_day(rng)
    first -= timedelta(days=first.weekday())
    weeks, sprints, points = rng.choice((1, 2, 3)), rng.randint(3, 5), rng.randint(40, 120)
    rows = [{"name": f"Sprint {i + 1}", "start": (first + timedelta(weeks=weeks * i)).isoformat(),
             "end": (first + timedelta(weeks=weeks * (i + 1), days=-3)).isoformat(), "points": p}
            for i, p in enumerate(split(rng, points, sprints))]
    sprint = obj({"name": STR, "start": DAY, "end": DAY, "points": INT})
    prompt = ask(f"Plan {sprints} back-to-back sprints of {weeks} week(s), Monday to Friday, the "
                 f"first starting {first.isoformat()}, sharing {points} story points (each sprint "
                 "at least 1). JSON: {\"sprints\": [{\"name\", \"start\", \"end\", \"points\"}]}.",
                 obj({"sprints": arr(sprint)}))
    invariants = [count("/sprints", sprints), {"sum": "/sprints/*/points", "equals": points},
                  {"compare": ["/sprints/*/start", "<", "/sprints/*/end"]},
                  {"sorted": "/sprints/*/start", "strict": True},
                  eq("/sprints/0/start", first.isoformat()),
                  eq(f"/sprints/{sprints - 1}/end", rows[-1]["end"])]
    return make_case(prompt, {"sprints": rows}, obj({"sprints": arr(sprint)}), invariants, "hard")


# --- nested configs -------------------------------------------------------------------


@case("server-config")
def server_config(rng: random.Random) -> Case:
    server = {"host": rng.choice(("0.0.0.0", "127.0.0.1")), "port": rng.randint(1025, 65535)}
    cert = f"/etc/ssl/{rng.choice(('api', 'web', 'edge'))}.pem"
    tls = {"enabled": True, "cert_path": cert} if rng.random() < 0.5 else {"enabled": False}
    workers, level = rng.choice((2, 4, 8, 16)), rng.choice(("debug", "info", "warning"))
    port = {"type": "integer", "minimum": 1, "maximum": 65535}
    schema = obj({"server": obj({"host": STR, "port": port}),
                  "tls": obj({"enabled": BOOL}, {"cert_path": STR}),
                  "workers": {"type": "integer", "minimum": 1},
                  "log_level": {"enum": ["debug", "info", "warning", "error"]}})
    said = f"TLS on with the certificate at {cert}" if tls["enabled"] else "TLS off, no certificate"
    prompt = ask(f"Write the service config as JSON: listen on {server['host']} port "
                 f"{server['port']}, {said}, {workers} workers, log level {level}.", schema,
                 bare=True)
    reference = {"server": server, "tls": tls, "workers": workers, "log_level": level}
    invariants = [eq(f"/{key}", value) for key, value in reference.items()]
    return make_case(prompt, reference, schema, invariants, bare=True)


@case("ci-pipeline")
def ci_pipeline(rng: random.Random) -> Case:
    stages = pick(rng, "lint build test package deploy", 3, 4)
    jobs = [{"name": f"{stage}-{part}", "stage": stage, "script": f"make {stage}"}
            for stage in stages for part in pick(rng, "linux mac docs unit e2e", 1, 2)]
    said = "; ".join(f"{s}: {listed([j['name'] for j in jobs if j['stage'] == s])}" for s in stages)
    schema = obj({"stages": arr(STR, 1, uniqueItems=True),
                  "jobs": arr(obj({"name": STR, "stage": STR, "script": STR}))})
    prompt = ask(f"Describe this CI pipeline as JSON. Stages in order: {listed(stages)}. Jobs by "
                 f"stage: {said}. Each job runs `make <stage>`.", schema)
    invariants = [{"subset": "/jobs/*/stage", "of": "/stages/*"}, {"unique": "/jobs/*/name"},
                  count("/jobs", len(jobs)), eq("/stages", stages)]
    return make_case(prompt, {"stages": stages, "jobs": jobs}, schema, invariants)


@case("feature-flags")
def feature_flags(rng: random.Random) -> Case:
    flags: list[Record] = []
    for name in pick(rng, "dark_mode new_checkout beta_search smart_replies offline_sync", 3, 4):
        rollout = rng.choice((0, 0, 5, 25, 50, 100))
        flags.append({"name": name, "enabled": rollout > 0, "rollout_percent": rollout})
    off_means_zero = {"if": {"properties": {"enabled": {"const": False}}},
                      "then": {"properties": {"rollout_percent": {"const": 0}}}}
    flag = obj({"name": {"type": "string", "pattern": "^[a-z_]+$"}, "enabled": BOOL,
                "rollout_percent": {"type": "integer", "minimum": 0, "maximum": 100}})
    schema = obj({"flags": arr({**flag, **off_means_zero})})
    said = "; ".join(f"{f['name']} " + (f"on for {f['rollout_percent']}% of users" if f["enabled"]
                                         else "off") for f in flags)
    prompt = ask("Write these feature flags as JSON {\"flags\": [{\"name\", \"enabled\", "
                 f"\"rollout_percent\"}}]}}: {said}. A flag that is off has rollout_percent 0.")
    invariants = [{"unique": "/flags/*/name"}, count("/flags", len(flags))]
    invariants += [eq(f"/flags/{i}", f) for i, f in enumerate(flags)]
    return make_case(prompt, {"flags": flags}, schema, invariants)


@case("game-keybindings")
def game_keybindings(rng: random.Random) -> Case:
    actions = pick(rng, "jump crouch reload map inventory sprint interact", 4, 6)
    keys = rng.sample("QWERTFGZXCVB", len(actions))
    schema = obj({"keybindings": {"type": "object", "additionalProperties": {
        "type": "string", "pattern": "^[A-Z]$"}}})
    prompt = ask(f"Bind each game action ({listed(actions)}) to a different single capital "
                 f"letter, with {actions[0]} on {keys[0]}, as JSON {{\"keybindings\": "
                 "{action: key}}.", bare=True)
    invariants = [{"unique": "/keybindings/*"}, count("/keybindings", len(actions)),
                  eq(f"/keybindings/{actions[0]}", keys[0])]
    reference = {"keybindings": dict(zip(actions, keys, strict=True))}
    return make_case(prompt, reference, schema, invariants, bare=True)


@case("compose-services")
def compose_services(rng: random.Random) -> Case:
    names = pick(rng, "web api db cache worker proxy", 3, 5)
    services: list[Record] = [{"name": n, "image": f"{n}:latest", "port": 8000 + 10 * i,
                 "depends_on": rng.sample(names[:i], min(i, 1))} for i, n in enumerate(names)]
    said = "; ".join(f"{s['name']} on port {s['port']}"
                     + "".join(f" needs {d}" for d in s["depends_on"]) for s in services)
    service = obj({"name": STR, "image": STR, "port": INT, "depends_on": arr(STR)})
    schema = obj({"services": arr(service)})
    prompt = ask(f"Describe these containers as JSON (image '<name>:latest'): {said}.", schema)
    invariants = [{"unique": "/services/*/name"}, {"unique": "/services/*/port"},
                  {"subset": "/services/*/depends_on/*", "of": "/services/*/name"},
                  count("/services", len(names)),
                  {"sum": "/services/*/port", "equals": sum(s["port"] for s in services)}]
    return make_case(prompt, {"services": services}, schema, invariants)


@case("logging-config")
def logging_config(rng: random.Random) -> Case:
    files = pick(rng, "app_file audit_file error_file", 1, 2)
    names = ["console", *files]
    handlers = [{"name": n, "type": "file" if n in files else "console"} for n in names]
    loggers = [{"name": n, "level": rng.choice(("DEBUG", "INFO", "WARNING", "ERROR")),
                "handlers": rng.sample(names, rng.randint(1, len(names)))}
               for n in pick(rng, "app app.db app.http audit", 2, 3)]
    said = "; ".join(f"logger {x['name']} at {x['level']} to {listed(x['handlers'])}"
                     for x in loggers)
    level = {"enum": ["DEBUG", "INFO", "WARNING", "ERROR"]}
    schema = obj({"handlers": arr(obj({"name": STR, "type": {"enum": ["console", "file"]}})),
                  "loggers": arr(obj({"name": STR, "level": level, "handlers": arr(STR, 1)}))})
    prompt = ask(f"Write a logging config as JSON. Handlers: {listed(names)} (console is a console "
                 f"handler, the others are files). {said}.", schema, bare=True)
    invariants = [{"subset": "/loggers/*/handlers/*", "of": "/handlers/*/name"},
                  {"unique": "/handlers/*/name"}, count("/loggers", len(loggers)),
                  count("/handlers", len(handlers))]
    invariants += [eq(f"/loggers/{i}/level", x["level"]) for i, x in enumerate(loggers)]
    reference = {"handlers": handlers, "loggers": loggers}
    return make_case(prompt, reference, schema, invariants, bare=True)


@case("rbac-roles")
def rbac_roles(rng: random.Random) -> Case:
    permissions = pick(rng, "read write delete invite billing export", 4, 5)
    roles = [{"name": n, "permissions": rng.sample(permissions, rng.randint(1, len(permissions)))}
             for n in pick(rng, "viewer editor admin auditor", 2, 3)]
    said = "; ".join(f"{r['name']} may {listed(r['permissions'])}" for r in roles)
    schema = obj({"permissions": arr(STR, uniqueItems=True),
                  "roles": arr(obj({"name": STR, "permissions": arr(STR, uniqueItems=True)}))})
    prompt = ask(f"Write this access policy as JSON with the full permissions list "
                 f"({listed(permissions)}) and roles: {said}.", schema)
    invariants = [{"subset": "/roles/*/permissions/*", "of": "/permissions/*"},
                  {"unique": "/roles/*/name"}, count("/permissions", len(permissions))]
    invariants += [count(f"/roles/{i}/permissions", len(role["permissions"]))
                   for i, role in enumerate(roles)]
    return make_case(prompt, {"permissions": permissions, "roles": roles}, schema, invariants)


# --- function calls -------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A tool, a user request for it, and the arguments that fulfil it (``pinned`` are checked)."""

    spec: Record
    request: str
    arguments: Record
    pinned: tuple[str, ...]


MakeCall = Callable[[random.Random], Call]
CALLS: dict[str, MakeCall] = {}


def tool(name: str, description: str, required: Record, optional: Record | None = None) -> Record:
    """A tool as chat APIs show it; the verifier closes its parameters to unlisted keys."""
    properties = {**required, **(optional or {})}
    parameters = {"type": "object", "properties": properties, "required": list(required)}
    return {"name": name, "description": description, "parameters": parameters}


def call_case(call: Call, tools: Sequence[Record] = (), difficulty: str = "medium") -> Case:
    """The task of answering ``call.request`` with one tool call, ``tools`` on offer."""
    shown = "\n".join(json.dumps(spec) for spec in (tools or [call.spec]))
    prompt = (f"You can call these tools:\n{shown}\n\nUser: \"{call.request}\"\n\nReply with only "
              "the tool call as a JSON object {\"name\": <tool name>, \"arguments\": {...}}.")
    expected = {"name": call.spec["name"], "parameters": call.spec["parameters"]}
    verifier: Record = {"type": "json", "fences": "allow", "function_call": expected}
    if call.pinned:
        verifier["invariants"] = [eq(f"/arguments/{k}", call.arguments[k]) for k in call.pinned]
    reference = {"name": call.spec["name"], "arguments": call.arguments}
    return Case(Draft((prompt,), verifier, difficulty, tags=("function_call",)), reference)


def calling(template_id: str) -> Callable[[MakeCall], MakeCall]:
    """Register a function-call template (also a candidate for `tool_choice`)."""

    def add(make: MakeCall) -> MakeCall:
        CALLS[template_id] = make
        case(template_id)(lambda rng: call_case(make(rng)))
        return make

    return add


def whole(least: int, most: int | None = None) -> Record:
    return {"type": "integer", "minimum": least, **({"maximum": most} if most else {})}


def one_of(*values: str) -> Record:
    return {"enum": list(values)}


CODE: Record = {"type": "string", "pattern": "^[A-Z]{3}$"}
POSITIVE: Record = {"type": "number", "exclusiveMinimum": 0}


@calling("call-weather")
def call_weather(rng: random.Random) -> Call:
    city, days, units = rng.choice(CITIES), rng.randint(1, 7), rng.choice(("celsius", "fahrenheit"))
    spec = tool("get_forecast", "Weather forecast for a city.", {"city": STR},
                {"days": whole(1, 7), "units": one_of("celsius", "fahrenheit")})
    request = f"What will the weather be in {city} over the next {days} days? In {units}, please."
    arguments = {"city": city, "days": days, "units": units}
    return Call(spec, request, arguments, tuple(arguments))


@calling("call-calendar-event")
def call_calendar_event(rng: random.Random) -> Call:
    day, start = some_day(rng).isoformat(), hhmm(rng.randint(16, 36) * 30)
    minutes, title = rng.choice((30, 45, 60, 90)), rng.choice(("Budget review", "Design critique"))
    emails = [f"{p.lower()}@example.com" for p in pick(rng, PEOPLE, 1, 3)]
    spec = tool("create_event", "Add an event to the user's calendar.",
                {"title": STR, "date": DAY, "start": HHMM, "duration_minutes": whole(5)},
                {"attendees": arr(EMAIL)})
    request = (f"Put '{title}' in my calendar on {day} at {start} for {minutes} minutes and invite "
               f"{listed(emails)}. Make it repeat every week too.")
    arguments = {"title": title, "date": day, "start": start, "duration_minutes": minutes,
                 "attendees": emails}
    return Call(spec, request, arguments, tuple(arguments))


@calling("call-send-email")
def call_send_email(rng: random.Random) -> Call:
    to = [f"{p.lower()}@example.com" for p in pick(rng, PEOPLE, 1, 2)]
    subject = rng.choice(("Quarterly numbers", "Office move", "Workshop", "Invoice 2291"))
    spec = tool("send_email", "Send an email.", {"to": arr(EMAIL, 1), "subject": STR, "body": STR},
                {"cc": arr(EMAIL)})
    request = (f"Email {listed(to)} with the subject '{subject}' saying the draft is ready for "
               "review. Mark it as high priority.")
    arguments = {"to": to, "subject": subject, "body": "Hi, the draft is ready for review."}
    return Call(spec, request, arguments, ("to", "subject"))


@calling("call-search-flights")
def call_search_flights(rng: random.Random) -> Call:
    origin, goal = rng.sample(["LIS", "NBO", "KIX", "YYZ", "TBS", "UIO", "OSL", "PER"], 2)
    day, people = some_day(rng).isoformat(), rng.randint(1, 6)
    cabin = rng.choice(("economy", "business"))
    spec = tool("search_flights", "Find flights between two airports (IATA codes).",
                {"origin": CODE, "destination": CODE, "date": DAY, "passengers": whole(1, 9)},
                {"cabin": one_of("economy", "premium", "business")})
    request = f"Find me {cabin} flights from {origin} to {goal} on {day} for {people} people."
    arguments = {"origin": origin, "destination": goal, "date": day, "passengers": people,
                 "cabin": cabin}
    return Call(spec, request, arguments, tuple(arguments))


@calling("call-convert-currency")
def call_convert_currency(rng: random.Random) -> Call:
    amount = rng.choice((12.5, 99.99, 250, 1200, 75.2))
    source, target = rng.sample(["EUR", "USD", "JPY", "GBP", "KES", "CAD"], 2)
    spec = tool("convert_currency", "Convert an amount between currencies (ISO codes).",
                {"amount": POSITIVE, "from": CODE, "to": CODE})
    request = f"How much is {amount} {source} in {target}?"
    arguments = {"amount": amount, "from": source, "to": target}
    return Call(spec, request, arguments, tuple(arguments))


@calling("call-set-reminder")
def call_set_reminder(rng: random.Random) -> Call:
    text = rng.choice(("take the bins out", "call the dentist", "stretch", "water the tomatoes"))
    at, repeat = hhmm(rng.randint(12, 44) * 30), rng.choice(("none", "daily", "weekly"))
    spec = tool("set_reminder", "Remind the user at a time of day.", {"text": STR, "time": HHMM},
                {"repeat": one_of("none", "daily", "weekly")})
    said = {"none": "just once", "daily": "every day", "weekly": "every week"}[repeat]
    arguments = {"text": text, "time": at, "repeat": repeat}
    return Call(spec, f"Remind me to {text} at {at}, {said}.", arguments, ("time", "repeat"))


@calling("call-query-records")
def call_query_records(rng: random.Random) -> Call:
    city, above, limit = rng.choice(CITIES), rng.choice((50, 100, 500)), rng.choice((5, 10, 20))
    condition = obj({"column": STR, "op": one_of("=", "!=", "<", "<=", ">", ">="),
                     "value": {"type": ["string", "number"]}})
    spec = tool("query_records", "Query a table with filters, newest first.",
                {"table": one_of("orders", "customers", "products"), "filters": arr(condition),
                 "limit": whole(1)})
    request = f"Show the {limit} newest orders shipped to {city} with a total over {above}."
    filters = [{"column": "city", "op": "=", "value": city},
               {"column": "total", "op": ">", "value": above}]
    arguments = {"table": "orders", "filters": filters, "limit": limit}
    return Call(spec, request, arguments, ("table", "limit"))


@calling("call-book-table")
def call_book_table(rng: random.Random) -> Call:
    place = rng.choice(("Casa Lume", "The Copper Pot", "Sakura Tei", "Mama Ngina's"))
    day, at, size = some_day(rng).isoformat(), hhmm(rng.randint(36, 44) * 30), rng.randint(2, 10)
    spec = tool("book_table", "Reserve a restaurant table.",
                {"restaurant": STR, "date": DAY, "time": HHMM, "party_size": whole(1)},
                {"notes": STR})
    request = f"Book {place} for {size} people on {day} at {at}. One of us is vegetarian."
    arguments = {"restaurant": place, "date": day, "time": at, "party_size": size,
                 "notes": "One vegetarian."}
    return Call(spec, request, arguments, ("restaurant", "date", "time", "party_size"))


@calling("call-create-issue")
def call_create_issue(rng: random.Random) -> Call:
    repo = rng.choice(("acme/website", "tools/cli", "data/pipeline"))
    label = rng.choice(("bug", "docs"))
    title = rng.choice(("Login crashes on Safari", "Install steps are wrong"))
    who = rng.choice(PEOPLE).lower()
    spec = tool("create_issue", "Open an issue in a repository.",
                {"repo": {"type": "string", "pattern": "^[a-z]+/[a-z]+$"}, "title": STR},
                {"labels": arr(one_of("bug", "docs", "feature")), "assignees": arr(STR)})
    request = f"Open an issue in {repo} titled '{title}', label it {label} and assign it to {who}."
    arguments = {"repo": repo, "title": title, "labels": [label], "assignees": [who]}
    return Call(spec, request, arguments, tuple(arguments))


@calling("call-transfer-money")
def call_transfer_money(rng: random.Random) -> Call:
    source, target = rng.sample(["CHK-1001", "SAV-2002", "CHK-3003", "BIZ-4004"], 2)
    amount, currency = rng.choice((50, 120.75, 999, 2500)), rng.choice(("EUR", "USD"))
    account = {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}
    spec = tool("transfer", "Move money between the user's own accounts.",
                {"from_account": account, "to_account": account, "amount": POSITIVE,
                 "currency": one_of("EUR", "USD")})
    arguments = {"from_account": source, "to_account": target, "amount": amount,
                 "currency": currency}
    request = f"Move {amount} {currency} from {source} to {target}."
    return Call(spec, request, arguments, tuple(arguments))


@calling("call-smart-light")
def call_smart_light(rng: random.Random) -> Call:
    room, level = rng.choice(("kitchen", "bedroom", "hall", "office")), rng.choice((10, 60, 100))
    spec = tool("set_light", "Switch and dim the lights of one room.",
                {"room": one_of("kitchen", "bedroom", "hall", "office"), "on": BOOL},
                {"brightness": whole(0, 100)})
    if rng.random() < 0.3:
        off = {"room": room, "on": False}
        return Call(spec, f"Switch off the {room} lights.", off, tuple(off))
    on = {"room": room, "on": True, "brightness": level}
    return Call(spec, f"Turn the {room} lights on at {level}% brightness.", on, tuple(on))


@case("call-tool-choice")
def tool_choice(rng: random.Random) -> Case:
    """Three tools on offer; the request fits exactly one of them."""
    offered = [CALLS[name](rng) for name in rng.sample(sorted(CALLS), 3)]
    return call_case(offered[0], [call.spec for call in rng.sample(offered, 3)], "hard")
