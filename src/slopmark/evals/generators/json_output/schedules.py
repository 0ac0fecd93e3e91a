"""JSON templates for schedules and time relations: slots, legs, rosters, timetables."""

from __future__ import annotations

import random
from datetime import timedelta

from slopmark.evals.generators.json_output.case import Case, ask, case, make_case
from slopmark.evals.generators.json_output.draws import (
    CITIES,
    PEOPLE,
    hhmm,
    listed,
    pick,
    some_day,
    split,
)
from slopmark.evals.generators.json_output.schema import (
    DAY,
    HHMM,
    INT,
    STR,
    Record,
    arr,
    count,
    eq,
    obj,
)


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
