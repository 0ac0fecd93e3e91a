"""Naive jobgraph, checkpoint 2: happy path only."""

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
            }
        return jobs
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line[1:-1].strip()
            jobs[current] = {"deps": [], "duration": 1, "priority": 0}
        else:
            key, value = line.split("=", 1)
            key = key.strip()
            value = value.strip()
            if key == "deps" and value:
                jobs[current]["deps"] = [d.strip() for d in value.split(",")]
            elif key in ("duration", "priority"):
                jobs[current][key] = int(value)
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
    free = list(range(1, workers + 1))
    lines = []
    while True:
        for j in sorted(running):
            if running[j][1] == t:
                done[j] = running.pop(j)
                free.append(done[j][2])
                free.sort()
                lines.append(f"t={t} end {j} worker={done[j][2]}")
        ready = [j for j in jobs if j not in running and j not in done
                 and all(d in done for d in jobs[j]["deps"])]
        ready.sort(key=lambda j: (-jobs[j]["priority"], j))
        for j in ready:
            if not free:
                break
            w = free.pop(0)
            running[j] = (t, t + jobs[j]["duration"], w)
            lines.append(f"t={t} start {j} worker={w}")
        if not running:
            break
        t = min(r[1] for r in running.values())
    return lines, done, t


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
        lines, done, t = simulate(jobs, workers)
        if "--json" in args:
            out = {j: {"start": s, "end": e, "worker": w} for j, (s, e, w) in done.items()}
            print(json.dumps({"makespan": t, "jobs": out}))
        else:
            print("\n".join(lines + [f"makespan={t}"]))
        return
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
