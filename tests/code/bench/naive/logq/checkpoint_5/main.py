"""logq: filter, aggregate, merge and bucket log lines (quick version)."""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime

TOKEN_RE = re.compile(r'\s*(\(|\)|!=|<=|>=|=|<|>|~|"[^"]*"|[^\s()"=!<>~]+)')


ACCESS_RE = re.compile(
    r'(\S+) \S+ (\S+) \[(\d+)/(\w+)/(\d+):(\d+:\d+:\d+) ([+-]\d\d)(\d\d)\] "(\S+) (\S+) (\S+)" '
    r'(\d+) (\S+) "([^"]*)" "([^"]*)"'
)
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def parse_json(line: str) -> dict[str, str]:
    data = json.loads(line)
    fields = {}
    for key, value in data.items():
        if isinstance(value, dict):
            for sub, inner in value.items():
                fields[key + "." + sub] = str(inner)
        elif isinstance(value, bool):
            fields[key] = "true" if value else "false"
        elif value is not None:
            fields[key] = str(value)
    return fields


def parse_access(m: re.Match) -> dict[str, str]:
    month = MONTHS.index(m.group(4)) + 1
    fields = {
        "remote_addr": m.group(1), "user": m.group(2),
        "time": f"{m.group(5)}-{month:02d}-{m.group(3)}T{m.group(6)}{m.group(7)}:{m.group(8)}",
        "method": m.group(9), "path": m.group(10), "protocol": m.group(11),
        "request": f"{m.group(9)} {m.group(10)} {m.group(11)}",
        "status": m.group(12), "bytes": m.group(13), "referer": m.group(14),
        "user_agent": m.group(15),
    }
    return {k: v for k, v in fields.items() if v != "-"}


def parse_line(line: str) -> dict[str, str]:
    if line.strip().startswith("{"):
        return parse_json(line)
    m = ACCESS_RE.match(line)
    if m:
        return parse_access(m)
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


def fmt(x: float | None) -> str:
    if x is None:
        return ""
    x = round(x, 3)
    if x == int(x):
        return str(int(x))
    return str(x)


def compute(func: str, field: str | None, rows: list[dict[str, str]]) -> float | None:
    if func == "count":
        return len(rows)
    nums = [to_num(r[field]) for r in rows if field in r and to_num(r[field]) is not None]
    if not nums:
        return None
    if func == "sum":
        return sum(nums)
    if func == "avg":
        return sum(nums) / len(nums)
    if func == "min":
        return min(nums)
    if func == "max":
        return max(nums)
    nums.sort()
    p = 50 if func == "p50" else 95
    return nums[int(len(nums) * p / 100)]


def print_aggregates(matched: list[dict[str, str]], group_by: list[str], aggs: list[str],
                     out_format: str) -> None:
    groups: dict[tuple, list] = {}
    for fields in matched:
        key = tuple(fields.get(g) for g in group_by)
        groups.setdefault(key, []).append(fields)
    if not group_by and not groups:
        groups[()] = []
    header = group_by + aggs
    rows = []
    for key, members in groups.items():
        row = list(key)
        for a in aggs:
            func, _, field = a.partition(":")
            row.append(compute(func, field or None, members))
        rows.append(row)
    if out_format == "json":
        print(json.dumps([dict(zip(header, r, strict=False)) for r in rows]))
    elif out_format == "csv":
        print(",".join(header))
        for r in rows:
            cells = [fmt(c) if isinstance(c, (int, float)) else (c or "") for c in r]
            print(",".join(cells))
    else:
        text_rows = [[fmt(c) if isinstance(c, (int, float)) else (c or "-") for c in r]
                     for r in rows]
        widths = [max(len(x) for x in col) for col in zip(header, *text_rows, strict=False)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=False)).rstrip())
        print("  ".join("-" * w for w in widths))
        for r in text_rows:
            cells = []
            for i, c in enumerate(r):
                cells.append(c.ljust(widths[i]) if i < len(group_by) else c.rjust(widths[i]))
            print("  ".join(cells).rstrip())


def get_time(fields: dict[str, str], time_field: str | None) -> float | None:
    names = [time_field] if time_field else ["time", "ts", "timestamp"]
    for name in names:
        if name in fields:
            value = fields[name]
            try:
                return float(value)
            except ValueError:
                pass
            try:
                return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
            except ValueError:
                return None
    return None


def bucket_seconds(text: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    return int(text[:-1]) * units[text[-1]]


def main() -> None:
    args = sys.argv[1:]
    wheres = []
    queries = []
    files = []
    group_by: list[str] = []
    aggs: list[str] = []
    out_format = "table"
    merge = False
    bucket = None
    time_field = None
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
        elif args[i] == "--group-by":
            group_by += args[i + 1].split(",")
            i += 2
        elif args[i] == "--agg":
            aggs.append(args[i + 1])
            i += 2
        elif args[i] == "--merge":
            merge = True
            i += 1
        elif args[i] == "--bucket":
            bucket = bucket_seconds(args[i + 1])
            i += 2
        elif args[i] == "--time-field":
            time_field = args[i + 1]
            i += 2
        elif args[i] == "--input-format":
            i += 2
        elif args[i] == "--format":
            out_format = args[i + 1]
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
    if merge:
        lines = [line for line in lines if line.strip()]
        lines.sort(key=lambda line: get_time(parse_line(line), time_field) or float("inf"))
    matched = []
    for line in lines:
        if not line.strip():
            continue
        fields = parse_line(line)
        if all(fields.get(k) == v for k, v in wheres) and all(
            evaluate(q, fields) for q in queries
        ):
            if bucket:
                t = get_time(fields, time_field)
                if t is None:
                    continue
                start = datetime.fromtimestamp(t // bucket * bucket, tz=UTC)
                fields["bucket"] = start.strftime("%Y-%m-%dT%H:%M:%SZ")
                matched.append(fields)
            elif group_by or aggs:
                matched.append(fields)
            else:
                print(line)
    if bucket:
        matched.sort(key=lambda fields: fields["bucket"])
        print_aggregates(matched, ["bucket"] + group_by, aggs or ["count"], out_format)
    elif group_by or aggs:
        print_aggregates(matched, group_by, aggs or ["count"], out_format)


main()
