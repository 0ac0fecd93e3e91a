"""Naive jobgraph, checkpoint 5: happy path only."""

import json
import os
import subprocess
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
                "cmd": j.get("cmd"),
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
                             "outcomes": [], "retries": 0, "backoff": 0, "cmd": None}
        else:
            key, value = line.split("=", 1)
            key = key.strip()
            value = value.strip()
            if key == "deps" and value:
                jobs[current]["deps"] = [d.strip() for d in value.split(",")]
            elif key in ("duration", "priority", "retries", "backoff"):
                jobs[current][key] = int(value)
            elif key == "cmd":
                jobs[current]["cmd"] = value
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


def simulate(jobs, workers, saved=None, stop=None):
    order(jobs)
    t = saved["clock"] if saved else 0
    running = {}
    done = {}
    status = dict(saved["status"]) if saved else {}
    attempts = dict.fromkeys(jobs, 0)
    retry = {}
    first = {}
    free = list(range(1, workers + 1))
    lines = []
    while True:
        if stop is not None and t > stop:
            t = stop
            break
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
        if stop is not None and t == stop and len(status) < len(jobs):
            break
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
    for j in sorted(running):
        lines.append(f"t={t} interrupt {j} worker={running[j][2]}")
    makespan = max([e for (s, e, w) in done.values()] or [saved["makespan"] if saved else 0])
    stopped = len(status) < len(jobs)
    return lines, done, makespan, status, attempts, stopped, t


def execute(jobs, args):
    out = args[args.index("--out") + 1] if "--out" in args else "jobgraph-out"
    state = args[args.index("--state") + 1] if "--state" in args else None
    os.makedirs(out, exist_ok=True)
    cached = []
    if "--resume" in args:
        with open(state) as f:
            cached = json.load(f)["done"]
    results = {}
    for j in order(jobs):
        if j in cached:
            results[j] = {"status": "cached", "attempts": 0, "exit_code": None}
            continue
        if any(results[d]["status"] not in ("ok", "cached") for d in jobs[j]["deps"]):
            results[j] = {"status": "skipped", "attempts": 0, "exit_code": None}
            continue
        if not jobs[j]["cmd"]:
            results[j] = {"status": "ok", "attempts": 0, "exit_code": None}
            continue
        for attempt in range(1, jobs[j]["retries"] + 2):
            env = dict(os.environ, JOBGRAPH_JOB=j, JOBGRAPH_ATTEMPT=str(attempt))
            with open(f"{out}/{j}.out", "w") as o, open(f"{out}/{j}.err", "w") as e:
                code = subprocess.call(jobs[j]["cmd"], shell=True, stdout=o, stderr=e, env=env)
            if code == 0:
                break
        status = "ok" if code == 0 else "failed"
        results[j] = {"status": status, "attempts": attempt, "exit_code": code}
    if state:
        done = [j for j in results if results[j]["status"] in ("ok", "cached")]
        with open(state, "w") as f:
            json.dump({"done": done}, f)
    with open(f"{out}/report.json", "w") as f:
        json.dump({"workers": 1, "jobs": results}, f)
    counts = {"ok": 0, "failed": 0, "skipped": 0, "cached": 0}
    for j in sorted(results):
        r = results[j]
        counts[r["status"]] += 1
        if r["attempts"]:
            print(f"{j} {r['status']} attempts={r['attempts']} exit={r['exit_code']}")
        else:
            print(f"{j} {r['status']}")
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    sys.exit(1 if counts["failed"] or counts["skipped"] else 0)


def main():
    args = sys.argv[1:]
    if args and args[0] == "status":
        with open(args[1]) as f:
            saved = json.load(f)
        if saved["stopped"]:
            print(f"stopped at t={saved['clock']}")
        else:
            print(f"finished makespan={saved['makespan']}")
        for j in sorted(saved["jobs"]):
            print(f"{j} {saved['status'].get(j, 'pending')} attempts={saved['attempts'][j]}")
        return
    if not args or args[0] not in ("order", "run", "exec"):
        print("usage: main.py order|run FILE", file=sys.stderr)
        sys.exit(2)
    try:
        jobs = load(args[1])
    except Exception as e:
        print("error: " + str(e), file=sys.stderr)
        sys.exit(2)
    if args[0] == "exec":
        execute(jobs, args)
    if args[0] == "run":
        workers = int(args[args.index("--workers") + 1]) if "--workers" in args else 1
        state = args[args.index("--state") + 1] if "--state" in args else None
        stop = int(args[args.index("--stop-after") + 1]) if "--stop-after" in args else None
        saved = None
        if "--resume" in args:
            with open(state) as f:
                saved = json.load(f)
        lines, done, t, status, attempts, stopped, clock = simulate(jobs, workers, saved, stop)
        if saved:
            lines.insert(0, f"resumed at t={saved['clock']}")
            for j in saved["attempts"]:
                attempts[j] += saved["attempts"][j]
        if state:
            with open(state, "w") as f:
                json.dump({"clock": clock if stopped else t, "makespan": t, "status": status,
                           "stopped": stopped, "attempts": attempts, "jobs": list(jobs)}, f)
        if stopped:
            print("\n".join(lines + [f"stopped at t={clock}"]))
            sys.exit(3)
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
