"""Naive kvstore, checkpoint 1: the happy path only."""

from __future__ import annotations

import json
import os
import sys


def main() -> int:
    args = sys.argv[1:]
    db = args[1]
    command = args[2]
    rest = args[3:]
    data = {}
    if os.path.exists(db) and os.path.getsize(db) > 0:
        with open(db) as f:
            data = {k: v["value"] for k, v in json.load(f)["keys"].items()}
    if command == "set":
        data[rest[0]] = rest[1]
    elif command == "get":
        if rest[0] not in data:
            print("error: key not found: " + rest[0], file=sys.stderr)
            return 1
        print(data[rest[0]])
    elif command == "del":
        if rest[0] not in data:
            print("error: key not found: " + rest[0], file=sys.stderr)
            return 1
        del data[rest[0]]
    elif command == "list":
        prefix = rest[0] if rest else ""
        for key in sorted(data):
            if key.startswith(prefix):
                print(key)
    else:
        print("error: unknown command: " + command, file=sys.stderr)
        return 2
    with open(db, "w") as f:
        json.dump({"kvstore": 1, "keys": {k: {"value": v} for k, v in data.items()}}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
