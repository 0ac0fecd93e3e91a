"""Naive jobgraph, checkpoint 3: happy path only."""

import json
import sys


def load(path):
    with open(path) as f:
        text = f.read()
    jobs = {}
    if path.endswith(".json"):
        for j in json.loads(text)["jobs"]:
            jobs[j["id"]] = {
                "deps": list(j.get("deps", [])),
                "duration": j.get("duration", 1),
                "priority": j.get("priority", 0),
                "outcomes": j.get("outcomes", []),
                "retries": j.get("retries", 0),
                "backoff": j.get("backoff", 0),
            }
        return jobs
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line[1:-1].strip()
            jobs[current] = {"deps": [], "duration": 1, "priority": 0,
                             "outcomes": [], "retries": 0, "backoff": 0}
        else:
            key, value = line.split("=", 1)
            key = key.strip()
            value = value.strip()
            if key == "deps" and value:
                jobs[current]["deps"] = [d.strip() for d in value.split(",")]
            elif key in ("duration", "priority", "retries", "backoff"):
                jobs[current][key] = int(value)
            elif key == "outcomes" and value:
                jobs[current][key] = [o.strip() for o in value.split(",")]
    return jobs


def order(jobs):
    done = []
    while len(done) < len(jobs):
        ready = [j for j in sorted(jobs)
                 if j not in done and all(d in done for d in jobs[j]["deps"])]
        if not ready:
            left = [j for j in sorted(jobs) if j not in done]
            print("error: dependency cycle: " + " -> ".join(left + [left[0]]), file=sys.stderr)
            sys.exit(1)
        done.append(ready[0])
    return done


def simulate(jobs, workers):
    order(jobs)
    t = 0
    running = {}
    done = {}
    status = {}
    attempts = dict.fromkeys(jobs, 0)
    retry = {}
    first = {}
    free = list(range(1, workers + 1))
    lines = []
    while True:
        failed_now = []
        for j in sorted(running):
            if running[j][1] == t:
                s, e, w = running.pop(j)
                done[j] = (first[j], e, w)
                free.append(w)
                free.sort()
                outs = jobs[j]["outcomes"]
                n = attempts[j]
                outcome = outs[min(n, len(outs)) - 1] if outs else "ok"
                if outcome == "ok":
                    status[j] = "ok"
                    lines.append(f"t={t} end {j} worker={w}")
                elif n <= jobs[j]["retries"]:
                    retry[j] = t + jobs[j]["backoff"] * 2 ** (n - 1)
                    lines.append(f"t={t} fail {j} worker={w} retry_at={retry[j]}")
                else:
                    status[j] = "failed"
                    lines.append(f"t={t} fail {j} worker={w}")
                    failed_now.append(j)
        for j in sorted(jobs):
            if j not in status and any(d in failed_now for d in jobs[j]["deps"]):
                status[j] = "skipped"
                lines.append(f"t={t} skip {j}")
        ready = [j for j in jobs if j not in running and j not in status
                 and retry.get(j, 0) <= t
                 and all(status.get(d) == "ok" for d in jobs[j]["deps"])]
        ready.sort(key=lambda j: (-jobs[j]["priority"], j))
        for j in ready:
            if not free:
                break
            w = free.pop(0)
            attempts[j] += 1
            first.setdefault(j, t)
            running[j] = (t, t + jobs[j]["duration"], w)
            extra = f" attempt={attempts[j]}" if attempts[j] > 1 else ""
            lines.append(f"t={t} start {j} worker={w}{extra}")
        times = [r[1] for r in running.values()] + [r for r in retry.values() if r > t]
        if not times:
            break
        t = min(times)
    makespan = max([e for (s, e, w) in done.values()] or [0])
    return lines, done, makespan, status, attempts


def main():
    args = sys.argv[1:]
    if not args or args[0] not in ("order", "run"):
        print("usage: main.py order|run FILE", file=sys.stderr)
        sys.exit(2)
    try:
        jobs = load(args[1])
    except Exception as e:
        print("error: " + str(e), file=sys.stderr)
        sys.exit(2)
    if args[0] == "run":
        workers = int(args[args.index("--workers") + 1]) if "--workers" in args else 1
        lines, done, t, status, attempts = simulate(jobs, workers)
        if "--json" in args:
            out = {}
            for j in jobs:
                s, e, w = done.get(j, (None, None, None))
                out[j] = {"status": status.get(j, "skipped"), "attempts": attempts[j],
                          "start": s, "end": e, "worker": w}
            print(json.dumps({"makespan": t, "jobs": out}))
        else:
            lines.append(f"makespan={t}")
            failed = sorted(j for j in status if status[j] == "failed")
            skipped = sorted(j for j in status if status[j] == "skipped")
            if failed:
                lines.append("failed: " + " ".join(failed))
            if skipped:
                lines.append("skipped: " + " ".join(skipped))
            print("\n".join(lines))
        sys.exit(1 if any(s != "ok" for s in status.values()) else 0)
    result = order(jobs)
    if "--levels" in args:
        level = {}
        for j in result:
            level[j] = max([level[d] + 1 for d in jobs[j]["deps"]] or [0])
        for n in range(max(level.values()) + 1 if level else 0):
            print(" ".join(sorted(j for j in level if level[j] == n)))
    else:
        for j in result:
            print(j)


main()
