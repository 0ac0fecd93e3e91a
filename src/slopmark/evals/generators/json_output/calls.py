"""JSON templates for function calls: a tool on offer, a request, the call that fulfils it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from slopmark.evals.generators import Draft
from slopmark.evals.generators.json_output.case import Case, case
from slopmark.evals.generators.json_output.draws import CITIES, PEOPLE, hhmm, listed, pick, some_day
from slopmark.evals.generators.json_output.schema import (
    BOOL,
    DAY,
    EMAIL,
    HHMM,
    STR,
    Record,
    arr,
    eq,
    obj,
)


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
