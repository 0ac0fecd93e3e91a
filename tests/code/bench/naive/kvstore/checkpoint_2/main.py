"""Naive kvstore, checkpoints 2-4: types, batch, TTL; no locking, in-place writes."""

from __future__ import annotations

import json
import os
import shlex
import sys

state = {"keys": {}, "clock": 0}


def load(db):
    if os.path.exists(db) and os.path.getsize(db) > 0:
        with open(db) as f:
            doc = json.load(f)
        state["keys"] = doc["keys"]
        state["clock"] = doc.get("clock", 0)


def save(db):
    with open(db, "w") as f:
        json.dump({"kvstore": 1, "clock": state["clock"], "keys": state["keys"]}, f)


def alive(key):
    entry = state["keys"].get(key)
    if entry is None:
        return None
    if "expires_at" in entry and entry["expires_at"] <= state["clock"]:
        return None
    return entry


def show(entry):
    kind = entry.get("type", "string")
    if kind == "list":
        return json.dumps(entry["value"])
    if kind == "float":
        return repr(float(entry["value"]))
    return str(entry["value"])


def run(words):
    command, args = words[0].lower(), words[1:]
    kind = "string"
    ttl = None
    if "--type" in args:
        i = args.index("--type")
        kind = args[i + 1]
        args = args[:i] + args[i + 2:]
    if "--ttl" in args:
        i = args.index("--ttl")
        ttl = int(args[i + 1])
        args = args[:i] + args[i + 2:]
    out = []
    if command == "set":
        value = args[1]
        if kind == "int":
            value = int(value)
        elif kind == "float":
            value = float(value)
        elif kind == "list":
            value = json.loads(value)
        entry = {"type": kind, "value": value}
        if ttl:
            entry["expires_at"] = state["clock"] + ttl
        state["keys"][args[0]] = entry
    elif command in ("get", "type", "ttl"):
        entry = alive(args[0])
        if entry is None:
            raise KeyError(args[0])
        if command == "get":
            out.append(show(entry))
        elif command == "type":
            out.append(entry.get("type", "string"))
        else:
            out.append(str(entry["expires_at"] - state["clock"]) if "expires_at" in entry else "-1")
    elif command == "del":
        if alive(args[0]) is None:
            raise KeyError(args[0])
        del state["keys"][args[0]]
    elif command == "list":
        prefix = args[0] if args else ""
        out.extend(k for k in sorted(state["keys"]) if k.startswith(prefix) and alive(k))
    elif command == "incr":
        entry = alive(args[0]) or {"type": "int", "value": 0}
        step = args[1] if len(args) > 1 else "1"
        delta = float(step) if "." in step else int(step)
        entry = dict(entry, value=entry["value"] + delta)
        entry["type"] = "float" if isinstance(entry["value"], float) else "int"
        state["keys"][args[0]] = entry
        out.append(show(entry))
    elif command == "append":
        entry = alive(args[0]) or {"type": "list", "value": []}
        entry = dict(entry, value=entry["value"] + args[1:])
        state["keys"][args[0]] = entry
        out.append(str(len(entry["value"])))
    elif command == "expire":
        entry = alive(args[0])
        if entry is None:
            raise KeyError(args[0])
        entry["expires_at"] = state["clock"] + int(args[1])
    elif command == "persist":
        entry = alive(args[0])
        if entry is None:
            raise KeyError(args[0])
        entry.pop("expires_at", None)
    elif command == "tick":
        state["clock"] += int(args[0]) if args else 1
        out.append(str(state["clock"]))
    elif command == "time":
        out.append(str(state["clock"]))
    else:
        raise ValueError("unknown command: " + command)
    return out


def batch():
    stack = []
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        if not line.strip() or line.strip().startswith("#"):
            continue
        words = shlex.split(line)
        keyword = words[0].upper()
        if keyword == "BEGIN":
            stack.append(json.loads(json.dumps(state["keys"])))
        elif keyword == "COMMIT":
            stack.pop()
        elif keyword == "ROLLBACK":
            state["keys"] = stack.pop()
        else:
            try:
                for text in run(words):
                    print(text)
            except KeyError as missing:
                if stack:
                    state["keys"] = stack[0]
                print(f"error: line {number}: key not found: {missing}", file=sys.stderr)
                return 1
    if stack:
        state["keys"] = stack[0]
        print("error: unclosed transaction", file=sys.stderr)
        return 5
    return 0


def main() -> int:
    args = sys.argv[1:]
    db = None
    while args and args[0].startswith("--"):
        name = args[0][2:]
        if "=" in name:
            name, value = name.split("=", 1)
            args = args[1:]
        else:
            value = args[1]
            args = args[2:]
        if name == "db":
            db = value
        elif name == "now":
            db_clock = int(value)
            state["pending_now"] = db_clock
    load(db)
    if "pending_now" in state:
        state["clock"] = state.pop("pending_now")
    if args[0] == "batch":
        code = batch()
        save(db)
        return code
    try:
        for text in run(args):
            print(text)
    except KeyError as missing:
        save(db)
        print(f"error: key not found: {missing}", file=sys.stderr)
        return 1
    save(db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
