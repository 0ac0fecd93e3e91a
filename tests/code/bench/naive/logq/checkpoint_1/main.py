"""logq: filter logfmt lines (quick version)."""

from __future__ import annotations

import sys


def parse_line(line: str) -> dict[str, str]:
    fields = {}
    for part in line.split():
        if "=" in part:
            key, value = part.split("=", 1)
            fields[key] = value.strip('"')
        else:
            fields[part] = "true"
    return fields


def main() -> None:
    args = sys.argv[1:]
    wheres = []
    files = []
    i = 0
    while i < len(args):
        if args[i] == "--where":
            key, value = args[i + 1].split("=", 1)
            wheres.append((key, value))
            i += 2
        else:
            files.append(args[i])
            i += 1
    lines = []
    if not files:
        lines = sys.stdin.read().splitlines()
    for name in files:
        if name == "-":
            lines += sys.stdin.read().splitlines()
        else:
            with open(name) as f:
                lines += f.read().splitlines()
    for line in lines:
        if not line.strip():
            continue
        fields = parse_line(line)
        if all(fields.get(k) == v for k, v in wheres):
            print(line)


main()
