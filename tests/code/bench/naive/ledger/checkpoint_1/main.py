"""Naive ledger, checkpoint 1: float sums, loose parsing, tracebacks instead of errors."""

from __future__ import annotations

import csv
import sys


def load(path):
    rows = []
    with open(path) as f:
        reader = csv.reader(f)
        header = [h.strip().lower() for h in next(reader)]
        for row in reader:
            if not row or not "".join(row).strip():
                continue
            rec = dict(zip(header, [c.strip() for c in row], strict=False))
            if not rec.get("category"):
                rec["category"] = "uncategorized"
            rec["amount"] = float(rec["amount"])
            rows.append(rec)
    return rows


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
        print("usage: main.py summary FILE", file=sys.stderr)
        sys.exit(2)
    path = args[1]
    start = end = None
    i = 2
    while i < len(args):
        if args[i] == "--from":
            start = args[i + 1]
        elif args[i] == "--to":
            end = args[i + 1]
        else:
            print("unknown option " + args[i], file=sys.stderr)
            sys.exit(2)
        i += 2
    rows = load(path)
    if start:
        rows = [r for r in rows if r["date"] >= start]
    if end:
        rows = [r for r in rows if r["date"] <= end]
    accounts = {}
    categories = {}
    for r in rows:
        a = accounts.setdefault(r["account"], [0, 0.0])
        a[0] += 1
        a[1] += r["amount"]
        c = categories.setdefault(r["category"], [0, 0.0])
        c[0] += 1
        c[1] += r["amount"]
    out = table("ACCOUNT", "BALANCE", accounts) + [""] + table("CATEGORY", "TOTAL", categories)
    print("\n".join(out))


main()
