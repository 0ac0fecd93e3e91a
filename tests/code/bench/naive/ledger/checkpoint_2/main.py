"""Naive ledger, checkpoint 2: formats bolted on with if-chains, one catch-all handler."""

from __future__ import annotations

import csv
import io
import json
import sys


def load_csv(text):
    rows = []
    reader = csv.reader(io.StringIO(text))
    header = [h.strip().lower() for h in next(reader)]
    for row in reader:
        if not row or not "".join(row).strip():
            continue
        rows.append(dict(zip(header, [c.strip() for c in row], strict=False)))
    return rows


def load_jsonl(text):
    rows = []
    for line in text.splitlines():
        if line.strip():
            d = json.loads(line)
            rows.append({k: str(v).strip() for k, v in d.items() if v is not None})
    return rows


def load_qif(text):
    rows = []
    account = None
    cur = {}
    for line in text.splitlines():
        line = line.strip()
        if line.lower().startswith("!account"):
            account = line[8:].strip()
        elif line == "^":
            if cur:
                cur["account"] = account
                rows.append(cur)
            cur = {}
        elif line.startswith("D"):
            cur["date"] = line[1:]
        elif line.startswith("T"):
            cur["amount"] = line[1:]
        elif line.startswith("L"):
            cur["category"] = line[1:]
        elif line.startswith("M"):
            cur["memo"] = line[1:]
    return rows


def load(path, fmt):
    with open(path) as f:
        text = f.read()
    if fmt is None:
        if path.lower().endswith(".csv"):
            fmt = "csv"
        elif path.lower().endswith(".jsonl") or path.lower().endswith(".ndjson"):
            fmt = "jsonl"
        elif path.lower().endswith(".qif"):
            fmt = "qif"
        else:
            raise Exception("unknown format for " + path)
    if fmt == "csv":
        rows = load_csv(text)
    elif fmt == "jsonl":
        rows = load_jsonl(text)
    else:
        rows = load_qif(text)
    for r in rows:
        if not r.get("category"):
            r["category"] = "uncategorized"
        r["amount"] = float(r["amount"])
    return rows


def group(rows, key):
    groups = {}
    for r in rows:
        g = groups.setdefault(r[key], [0, 0.0])
        g[0] += 1
        g[1] += r["amount"]
    return groups


def table(title, amount_title, groups):
    names = sorted(groups)
    w0 = max([len(title)] + [len(n) for n in names])
    amounts = [f"{groups[n][1]:.2f}" for n in names]
    w2 = max([len(amount_title)] + [len(a) for a in amounts])
    w1 = max([4] + [len(str(groups[n][0])) for n in names])
    lines = [title.ljust(w0) + "  " + "TXNS".rjust(w1) + "  " + amount_title.rjust(w2)]
    for n, a in zip(names, amounts, strict=True):
        lines.append(n.ljust(w0) + "  " + str(groups[n][0]).rjust(w1) + "  " + a.rjust(w2))
    return lines


def main():
    args = sys.argv[1:]
    if not args or args[0] != "summary" or len(args) < 2:
        print("usage: main.py summary FILE...", file=sys.stderr)
        sys.exit(2)
    files = []
    opts = {"--from": None, "--to": None, "--format": "text", "--input-format": None}
    i = 1
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            files.append(args[i])
            i += 1
    if opts["--format"] not in ("text", "json", "csv"):
        print("bad format", file=sys.stderr)
        sys.exit(2)
    rows = []
    for f in files:
        rows += load(f, opts["--input-format"])
    if opts["--from"]:
        rows = [r for r in rows if r["date"] >= opts["--from"]]
    if opts["--to"]:
        rows = [r for r in rows if r["date"] <= opts["--to"]]
    accounts = group(rows, "account")
    categories = group(rows, "category")
    if opts["--format"] == "json":
        print(json.dumps({
            "accounts": [{"name": n, "count": v[0], "balance": f"{v[1]:.2f}"}
                         for n, v in sorted(accounts.items())],
            "categories": [{"name": n, "count": v[0], "total": f"{v[1]:.2f}"}
                           for n, v in sorted(categories.items())],
        }))
    elif opts["--format"] == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["section", "name", "count", "amount"])
        for n, v in sorted(accounts.items()):
            w.writerow(["account", n, v[0], f"{v[1]:.2f}"])
        for n, v in sorted(categories.items()):
            w.writerow(["category", n, v[0], f"{v[1]:.2f}"])
        sys.stdout.write(out.getvalue())
    else:
        out = table("ACCOUNT", "BALANCE", accounts) + [""]
        out += table("CATEGORY", "TOTAL", categories)
        print("\n".join(out))


try:
    main()
except Exception as e:
    print("error: " + str(e), file=sys.stderr)
    sys.exit(2)
