"""The json domain: is the answer JSON of the asked shape, with the asked meaning?

Config (``schema``, ``invariants`` and ``function_call`` are each optional, but
at least one is given)::

    {"type": "json",
     "fences": "allow" | "reject",          # default "allow"
     "schema": {...},                       # JSON Schema, draft 2020-12
     "invariants": [{...}, ...],            # semantic checks, see below
     "function_call": {"name": "get_weather", "parameters": {...}}}

Checks, in order; pass = all of them, score = share passed:

1. ``parse``: whitespace around the output is ignored. With ``fences:
   "allow"`` one markdown fence around the whole output (```` ```json ````
   or ```` ``` ```` … ```` ``` ````) is removed; with ``"reject"`` a fenced
   output is not JSON. Text before or after the JSON, NaN/Infinity, duplicate
   keys and nesting deeper than 100 levels are parse failures. A parse
   failure is the only check, so it scores 0.
2. ``schema``: the value against ``schema`` (formats date, email, ipv4, ipv6,
   uuid are checked).
3. one check per invariant.
4. with ``function_call``: ``call shape`` (an object with exactly ``name``
   and ``arguments``, arguments an object), ``call name``, ``required
   arguments``, ``unknown arguments`` (objects in ``parameters`` that list
   ``properties`` and don't set ``additionalProperties`` are closed) and
   ``argument types`` (every other schema error).

Invariants address values with paths: a JSON Pointer (RFC 6901, ``""`` is
the whole value) whose ``*`` segments match every element of an array or
every member of an object. A path that runs into a missing key, an index out
of range or a ``*`` over a non-container fails its invariant. Operands that
are strings are paths; numbers, booleans and null are literals, and
``{"value": X}`` is the literal X. Nothing is ever evaluated as code.

- ``{"sum": P, "equals"|"at_least"|"at_most": N, "tolerance": 1e-6}``: the
  numbers at P add up to N (N a number or a path to one).
- ``{"count": P, "equals"|"at_least"|"at_most": N}``: how many elements the
  arrays/objects at P hold together (the matches of ``P/*``).
- ``{"compare": [A, OP, B]}`` with OP one of ``< <= == != >= >``: holds for
  every pair of matches of A and B whose ``*`` bindings agree (one binding
  list is a prefix of the other, so ``/budget`` pairs with each
  ``/items/*/price``). Order needs two numbers or two strings; ISO dates and
  zero-padded ``HH:MM`` times compare correctly as strings.
- ``{"unique": P}``: the values at P are pairwise different.
- ``{"sorted": P, "order": "asc"|"desc", "strict": false}``: the values at P
  are in order.
- ``{"subset": P, "of": Q}``: every value at P is among the values at Q
  (e.g. each dependency names an existing task id).

Paths are resolved in `json_paths` and invariants checked in `json_invariants`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema
from referencing.exceptions import Unresolvable

from slopmark.evals.verifiers.base import Check, Message, Verdict, register
from slopmark.evals.verifiers.json_invariants import OPERATORS, TARGETS, check_invariant
from slopmark.evals.verifiers.json_paths import POINTER, is_number, kind_of, resolve

__all__ = [
    "ARGUMENT_CHECKS",
    "CONFIG_KEYS",
    "FENCES",
    "MAX_DEPTH",
    "JsonVerifier",
    "Parsed",
    "call_checks",
    "check_invariant",
    "closed",
    "config_problems",
    "invariant_problems",
    "parse",
    "resolve",
    "schema_check",
]

MAX_DEPTH = 100
FENCES = ("allow", "reject")
_FENCE = re.compile(r"\A```(?:json)?[ \t]*\n(.*?)\n?```\Z", re.DOTALL | re.IGNORECASE)
_VALIDATOR = jsonschema.Draft202012Validator
_FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


# --- parsing -----------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    repeated = sorted(key for key, times in Counter(key for key, _ in pairs).items() if times > 1)
    if repeated:
        raise ValueError(f"duplicate key(s) {', '.join(map(repr, repeated))}")
    return dict(pairs)


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(item, dict | list):
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


@dataclass(frozen=True)
class Parsed:
    """The answer's JSON ``value``, or the ``error`` saying why it is not JSON."""

    value: Any
    fenced: bool
    error: str | None = None


def parse(output: str, fences: str = "allow") -> Parsed:
    """Read the answer as one JSON value, under the fence rule (see module doc)."""
    text = output.strip()
    fence = _FENCE.match(text)
    fenced = fence is not None
    if fenced and fences == "reject":
        return Parsed(None, fenced, "the JSON is wrapped in a ``` fence; this task wants bare JSON")
    body = fence.group(1) if fence else text
    if not body.strip():
        return Parsed(None, fenced, "the output is empty")
    try:
        value = json.loads(body, parse_constant=_no_constant, object_pairs_hook=_unique_pairs)
    except json.JSONDecodeError as error:
        near = body[error.pos : error.pos + 20]
        where = f"line {error.lineno} column {error.colno} (near {near!r})"
        return Parsed(None, fenced, f"not JSON: {error.msg} at {where}")
    except (ValueError, RecursionError) as error:
        return Parsed(None, fenced, f"not JSON: {error}")
    if _depth(value) > MAX_DEPTH:
        return Parsed(None, fenced, f"the JSON is nested deeper than {MAX_DEPTH} levels")
    return Parsed(value, fenced)



# --- schema and function call ------------------------------------------------

ARGUMENT_CHECKS = ("required arguments", "unknown arguments", "argument types")


def _validation_errors(schema: Any, value: Any) -> list[jsonschema.ValidationError] | str:
    """The schema errors of ``value``, in path order; a string when it cannot be validated."""
    validator = _VALIDATOR(schema, format_checker=_FORMATS)
    try:
        return sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.path)))
    except RecursionError:
        return "too deeply nested to validate"
    except Unresolvable as error:
        return f"the schema has a $ref that cannot be resolved: {error}"


def _errors(schema: Any, value: Any) -> list[str]:
    found = _validation_errors(schema, value)
    if isinstance(found, str):
        return [f"/: {found}"]
    return [f"{_pointer('', e.path)}: {e.message[:200]}" for e in found]


def _pointer(prefix: str, path: Iterable[Any]) -> str:
    return "/".join([prefix, *map(str, path)]) or "/"


def _listed(errors: list[str], ok: str) -> tuple[bool, str]:
    if not errors:
        return True, ok
    more = f" (+{len(errors) - 3} more)" if len(errors) > 3 else ""
    return False, "; ".join(errors[:3]) + more


def schema_check(schema: Any, value: Any) -> Check:
    """The whole answer against the task's JSON Schema."""
    return Check("schema", *_listed(_errors(schema, value), "matches the schema"))


def closed(schema: Any) -> Any:
    """``schema`` with every object that lists ``properties`` closed to other keys."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: closed(sub) for name, sub in out["properties"].items()}
        if "additionalProperties" not in out and "unevaluatedProperties" not in out:
            out["additionalProperties"] = False
    if "items" in out:
        out["items"] = closed(out["items"])
    if isinstance(out.get("prefixItems"), list):
        out["prefixItems"] = [closed(sub) for sub in out["prefixItems"]]
    return out


def _shape_problem(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f"expected an object with 'name' and 'arguments', got {kind_of(value)}"
    extra = sorted(set(value) - {"name", "arguments"})
    missing = [key for key in ("name", "arguments") if key not in value]
    if missing or extra:
        return f"missing {missing or 'nothing'}, unexpected {extra or 'nothing'}"
    if not isinstance(value["arguments"], dict):
        return f"'arguments' is {kind_of(value['arguments'])}, expected an object"
    return None


def call_checks(spec: Mapping[str, Any], value: Any) -> list[Check]:
    """Shape, name, required/unknown arguments and argument types of a function call."""
    problem = _shape_problem(value)
    shape = problem or "an object with 'name' and 'arguments'"
    name = value.get("name") if isinstance(value, dict) else None
    checks = [
        Check("call shape", problem is None, shape),
        Check("call name", name == spec["name"], f"expected {spec['name']!r}, got {name!r}"),
    ]
    arguments = value.get("arguments") if isinstance(value, dict) else None
    if not isinstance(arguments, dict):
        return checks + [Check(n, False, "no 'arguments' object") for n in ARGUMENT_CHECKS]
    found = _validation_errors(closed(spec["parameters"]), arguments)
    groups: dict[str, list[str]] = {n: [] for n in ARGUMENT_CHECKS}
    if isinstance(found, str):
        groups["argument types"].append(f"/arguments: {found}")
        found = []
    for error in found:
        group = {"required": 0, "additionalProperties": 1}.get(str(error.validator), 2)
        where = _pointer("/arguments", error.path)
        groups[ARGUMENT_CHECKS[group]].append(f"{where}: {error.message[:200]}")
    oks = ("every required argument is given", "no argument outside the parameters", "types match")
    pairs = zip(ARGUMENT_CHECKS, oks, strict=True)
    return checks + [Check(name, *_listed(groups[name], ok)) for name, ok in pairs]


# --- config validation -------------------------------------------------------

CONFIG_KEYS = ("type", "fences", "schema", "invariants", "function_call")
_INVARIANT_KEYS: dict[str, dict[str, str]] = {
    "sum": {"sum": "path", **dict.fromkeys(TARGETS, "target"), "tolerance": "tolerance"},
    "count": {"count": "path", **dict.fromkeys(TARGETS, "target")},
    "compare": {"compare": "comparison"},
    "unique": {"unique": "path"},
    "sorted": {"sorted": "path", "order": "order", "strict": "bool"},
    "subset": {"subset": "path", "of": "path"},
}


def _path_problem(value: Any) -> str | None:
    if isinstance(value, str) and POINTER.fullmatch(value):
        return None
    return f"must be '' or a JSON Pointer like '/items/*/id' (with ~0, ~1 escapes), got {value!r}"


def _operand_problem(value: Any) -> str | None:
    if isinstance(value, str):
        return _path_problem(value)
    if isinstance(value, dict):
        return None if set(value) == {"value"} else f"a literal is {{'value': X}}, got {value!r}"
    if value is None or isinstance(value, bool | int | float):
        return None
    return f"bad operand {value!r}; use a path, number, true/false/null or {{'value': X}}"


def _comparison_problem(value: Any) -> str | None:
    if not (isinstance(value, list) and len(value) == 3):
        return f"must be [A, OP, B], got {value!r}"
    if value[1] not in OPERATORS:
        return f"operator {value[1]!r} is not one of {' '.join(OPERATORS)}"
    return _operand_problem(value[0]) or _operand_problem(value[2])


_VALUE_PROBLEMS: dict[str, Callable[[Any], str | None]] = {
    "path": _path_problem,
    "target": lambda v: None if is_number(v) else _path_problem(v),
    "tolerance": lambda v: None if is_number(v) and v >= 0 else f"must be a number ≥ 0, got {v!r}",
    "comparison": _comparison_problem,
    "order": lambda v: None if v in ("asc", "desc") else f"must be 'asc' or 'desc', got {v!r}",
    "bool": lambda v: None if isinstance(v, bool) else f"must be true or false, got {v!r}",
}


def invariant_problems(invariant: Any) -> list[str]:
    """What is wrong with one invariant (see the module doc for the language)."""
    kinds = list(_INVARIANT_KEYS.keys() & invariant.keys()) if isinstance(invariant, dict) else []
    if len(kinds) != 1:
        return [f"must hold exactly one of {', '.join(_INVARIANT_KEYS)}, got {invariant!r}"]
    allowed = _INVARIANT_KEYS[kinds[0]]
    found = [_key_problem(allowed, key, value) for key, value in invariant.items()]
    aggregate = "equals" in allowed and sum(key in invariant for key in TARGETS) != 1
    found.append(f"give exactly one of {', '.join(TARGETS)}" if aggregate else None)
    return [problem for problem in found if problem]


def _key_problem(allowed: Mapping[str, str], key: str, value: Any) -> str | None:
    if key not in allowed:
        return f"unknown key {key!r}; allowed: {', '.join(allowed)}"
    problem = _VALUE_PROBLEMS[allowed[key]](value)
    return f"{key!r}: {problem}" if problem else None


def _schema_problems(where: str, schema: Any) -> list[str]:
    if not isinstance(schema, dict | bool):
        return [f"{where}: must be a JSON Schema object, got {schema!r}"]
    try:
        _VALIDATOR.check_schema(schema)
    except jsonschema.SchemaError as error:
        path = "/".join(map(str, error.path))
        return [f"{where}: not a valid draft 2020-12 schema at '/{path}': {error.message[:200]}"]
    return [f"{where}: $ref {ref!r} is not local; use '#/$defs/…'" for ref in _remote_refs(schema)]


def _remote_refs(schema: Any) -> list[str]:
    """Every ``$ref`` in ``schema`` that points outside it (they are never fetched)."""
    if isinstance(schema, list):
        return [ref for item in schema for ref in _remote_refs(item)]
    if not isinstance(schema, dict):
        return []
    ref = schema.get("$ref")
    own = [ref] if isinstance(ref, str) and not ref.startswith("#") else []
    return own + [found for value in schema.values() for found in _remote_refs(value)]


def _call_problems(spec: Any) -> list[str]:
    if not isinstance(spec, dict) or set(spec) != {"name", "parameters"}:
        return [f"function_call must be {{'name': ..., 'parameters': {{...}}}}, got {spec!r}"]
    name = spec["name"]
    named = isinstance(name, str) and name
    found = [] if named else [f"function_call.name must be a non-empty string, got {name!r}"]
    parameters = spec["parameters"]
    if not (isinstance(parameters, dict) and parameters.get("type") == "object"):
        return [*found, "function_call.parameters must be a schema with \"type\": \"object\""]
    return found + _schema_problems("function_call.parameters", parameters)


def _invariants_problems(invariants: Any) -> list[str]:
    if not isinstance(invariants, list):
        return [f"invariants must be a list, got {invariants!r}"]
    return [
        f"invariants[{i}]: {problem}"
        for i, invariant in enumerate(invariants)
        for problem in invariant_problems(invariant)
    ]


def _top_problems(config: Mapping[str, Any]) -> list[str]:
    names = ", ".join(CONFIG_KEYS)
    found = [f"unknown key {k!r}; allowed: {names}" for k in config if k not in CONFIG_KEYS]
    if config.get("fences", "allow") not in FENCES:
        found.append(f"fences must be one of {', '.join(FENCES)}, got {config['fences']!r}")
    if not any(key in config for key in CONFIG_KEYS[2:]):
        found.append("give at least one of schema, invariants, function_call")
    return found


def config_problems(config: Mapping[str, Any]) -> list[str]:
    """Every problem of a json task's verifier config."""
    found = _top_problems(config)
    if "schema" in config:
        found.extend(_schema_problems("schema", config["schema"]))
    found.extend(_invariants_problems(config.get("invariants", [])))
    if "function_call" in config:
        found.extend(_call_problems(config["function_call"]))
    return found


@register("json")
class JsonVerifier:
    """Parses the answer as JSON and checks its schema, invariants and function-call shape."""

    name = "json"

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        return config_problems(config)

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        text = output if isinstance(output, str) else ""
        parsed = parse(text, config.get("fences", "allow"))
        value, fenced = parsed.value, parsed.fenced
        if parsed.error is not None:
            return Verdict.from_checks([Check("parse", False, parsed.error)], fenced=fenced)
        checks = [Check("parse", True, "valid JSON" + (" inside a ``` fence" if fenced else ""))]
        if "schema" in config:
            checks.append(schema_check(config["schema"], value))
        checks.extend(check_invariant(inv, value) for inv in config.get("invariants", []))
        if "function_call" in config:
            checks.extend(call_checks(config["function_call"], value))
        return Verdict.from_checks(checks, fenced=fenced)
