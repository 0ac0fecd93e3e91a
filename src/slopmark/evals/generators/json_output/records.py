"""JSON templates for records: contact cards, listings, profiles, extractions, trees."""

from __future__ import annotations

import json
import random

from slopmark.evals.generators.json_output.case import Case, ask, case, make_case
from slopmark.evals.generators.json_output.draws import CITIES, PEOPLE, full_name, listed, pick
from slopmark.evals.generators.json_output.schema import (
    BOOL,
    EMAIL,
    INT,
    NUM,
    STR,
    Record,
    arr,
    count,
    eq,
    obj,
)


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
