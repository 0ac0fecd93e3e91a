"""JSON templates for nested configs: servers, pipelines, flags, services, policies."""

from __future__ import annotations

import random

from slopmark.evals.generators.json_output.case import Case, ask, case, make_case
from slopmark.evals.generators.json_output.draws import listed, pick
from slopmark.evals.generators.json_output.schema import BOOL, INT, STR, Record, arr, count, eq, obj


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
