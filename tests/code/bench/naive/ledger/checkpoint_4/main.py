"""Naive ledger, checkpoint 4: recursive conditions, no named ones; recurring counts months."""

from __future__ import annotations

import csv
import fnmatch
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


def check_cond(cond, r):
    if "all" in cond:
        return all(check_cond(c, r) for c in cond["all"])
    if "any" in cond:
        return any(check_cond(c, r) for c in cond["any"])
    if "not" in cond:
        return not check_cond(cond["not"], r)
    for field, value in cond.items():
        if field == "min_amount":
            if r["amount"] < float(value):
                return False
        elif field == "max_amount":
            if r["amount"] > float(value):
                return False
        elif not fnmatch.fnmatch(r.get(field, "").lower(), value.lower()):
            return False
    return True


def matches(rule, r):
    return check_cond(rule.get("when", {}), r)


def run_rules(rules, rows):
    alerts = []
    for rule in sorted(rules, key=lambda x: -x.get("priority", 0)):
        mine = [r for r in rows if matches(rule, r)]
        found = []
        if rule["kind"] == "limit":
            limit = float(rule["limit"])
            periods = {}
            for r in mine:
                key = r["date"][:7] if rule.get("period", "month") == "month" else r["date"][:4]
                periods[key] = periods.get(key, 0.0) - r["amount"]
            for p, spent in periods.items():
                if spent > limit:
                    msg = f"spent {spent:.2f} of {limit:.2f} (over by {spent - limit:.2f})"
                    found.append((p, msg))
        elif rule["kind"] == "large":
            for r in mine:
                if -r["amount"] >= float(rule["threshold"]):
                    msg = "large spend {:.2f} on {}".format(-r["amount"], r["account"])
                    if r.get("memo"):
                        msg += " (" + r["memo"] + ")"
                    found.append((r["date"], msg))
        elif rule["kind"] == "recurring":
            charges = {}
            for r in mine:
                if r["amount"] < 0:
                    memo = " ".join(r.get("memo", "").lower().split())
                    charges.setdefault((r["account"], memo, r["amount"]), set()).add(r["date"][:7])
            for (account, memo, amount), months in charges.items():
                if len(months) >= rule.get("min_months", 3):
                    msg = f"recurring {-amount:.2f} on {account}"
                    if memo:
                        msg += " (" + memo + ")"
                    msg += f" for {len(months)} months"
                    found.append((min(months) + ".." + max(months), msg))
        else:
            raise Exception("unknown kind " + str(rule["kind"]))
        for p, msg in sorted(found):
            alerts.append({"rule": rule["id"], "kind": rule["kind"],
                           "priority": rule.get("priority", 0), "period": p, "message": msg})
    return alerts


def print_alerts(alerts, fmt):
    if fmt == "json":
        print(json.dumps({"alerts": alerts}))
    elif fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["rule", "kind", "priority", "period", "message"])
        for a in alerts:
            w.writerow([a["rule"], a["kind"], a["priority"], a["period"], a["message"]])
        sys.stdout.write(out.getvalue())
    elif not alerts:
        print("no alerts")
    else:
        w0 = max([4] + [len(a["rule"]) for a in alerts])
        w1 = max([6] + [len(a["period"]) for a in alerts])
        print("RULE".ljust(w0) + "  " + "PERIOD".ljust(w1) + "  MESSAGE")
        for a in alerts:
            print(a["rule"].ljust(w0) + "  " + a["period"].ljust(w1) + "  " + a["message"])


def main():
    args = sys.argv[1:]
    if not args or args[0] not in ("summary", "check") or len(args) < 2:
        print("usage: main.py summary|check FILE...", file=sys.stderr)
        sys.exit(2)
    files = []
    opts = {"--from": None, "--to": None, "--format": "text", "--input-format": None,
            "--rules": None}
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
    if args[0] == "check":
        if not opts["--rules"]:
            print("check needs --rules", file=sys.stderr)
            sys.exit(2)
        with open(opts["--rules"]) as f:
            rules = json.load(f)["rules"]
        alerts = run_rules(rules, rows)
        print_alerts(alerts, opts["--format"])
        sys.exit(1 if alerts else 0)
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
