"""logq: filter logfmt lines with --where and --query (quick version)."""

from __future__ import annotations

import re
import sys

TOKEN_RE = re.compile(r'\s*(\(|\)|!=|<=|>=|=|<|>|~|"[^"]*"|[^\s()"=!<>~]+)')


def parse_line(line: str) -> dict[str, str]:
    fields = {}
    for part in line.split():
        if "=" in part:
            key, value = part.split("=", 1)
            fields[key] = value.strip('"')
        else:
            fields[part] = "true"
    return fields


def tokenize(text: str) -> list[str]:
    tokens = []
    pos = 0
    while pos < len(text.rstrip()):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise ValueError("bad query")
        tokens.append(m.group(1))
        pos = m.end()
    return tokens


def parse_expr(tokens: list[str]):  # noqa: ANN201
    left = parse_and(tokens)
    while tokens and tokens[0].upper() == "OR":
        tokens.pop(0)
        right = parse_and(tokens)
        left = ("or", left, right)
    return left


def parse_and(tokens: list[str]):  # noqa: ANN201
    left = parse_not(tokens)
    while tokens and tokens[0].upper() == "AND":
        tokens.pop(0)
        right = parse_not(tokens)
        left = ("and", left, right)
    return left


def parse_not(tokens: list[str]):  # noqa: ANN201
    if tokens and tokens[0].upper() == "NOT":
        tokens.pop(0)
        return ("not", parse_not(tokens))
    if tokens and tokens[0] == "(":
        tokens.pop(0)
        e = parse_expr(tokens)
        tokens.pop(0)
        return e
    field, op, value = tokens.pop(0), tokens.pop(0), tokens.pop(0)
    return ("cmp", field, op, value.strip('"'))


def to_num(s: str) -> float | None:
    try:
        return float(s)
    except ValueError:
        return None


def evaluate(node, fields: dict[str, str]) -> bool:  # noqa: ANN001
    if node[0] == "or":
        return evaluate(node[1], fields) or evaluate(node[2], fields)
    if node[0] == "and":
        return evaluate(node[1], fields) and evaluate(node[2], fields)
    if node[0] == "not":
        return not evaluate(node[1], fields)
    _, field, op, value = node
    actual = fields.get(field)
    if actual is None:
        return op == "!="
    if op == "~":
        return re.search(value, actual) is not None
    a, b = to_num(actual), to_num(value)
    if a is None or b is None:
        a, b = actual, value
    if op == "=":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def main() -> None:
    args = sys.argv[1:]
    wheres = []
    queries = []
    files = []
    i = 0
    while i < len(args):
        if args[i] == "--where":
            key, value = args[i + 1].split("=", 1)
            wheres.append((key, value))
            i += 2
        elif args[i] in ("-q", "--query"):
            try:
                tokens = tokenize(args[i + 1])
                queries.append(parse_expr(tokens))
                if tokens:
                    raise ValueError("bad query")
            except (ValueError, IndexError):
                print("logq: error: query parse error", file=sys.stderr)
                sys.exit(2)
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
        if all(fields.get(k) == v for k, v in wheres) and all(
            evaluate(q, fields) for q in queries
        ):
            print(line)


main()
