"""Naive jobgraph, checkpoint 1: happy path only."""

import json
import sys


def load(path):
    with open(path) as f:
        text = f.read()
    jobs = {}
    if path.endswith(".json"):
        for j in json.loads(text)["jobs"]:
            jobs[j["id"]] = list(j.get("deps", []))
        return jobs
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line[1:-1].strip()
            jobs[current] = []
        else:
            key, value = line.split("=", 1)
            if key.strip() == "deps" and value.strip():
                jobs[current] = [d.strip() for d in value.split(",")]
    return jobs


def order(jobs):
    done = []
    while len(done) < len(jobs):
        ready = [j for j in sorted(jobs) if j not in done and all(d in done for d in jobs[j])]
        if not ready:
            left = [j for j in sorted(jobs) if j not in done]
            print("error: dependency cycle: " + " -> ".join(left + [left[0]]), file=sys.stderr)
            sys.exit(1)
        done.append(ready[0])
    return done


def main():
    args = sys.argv[1:]
    if not args or args[0] != "order":
        print("usage: main.py order FILE", file=sys.stderr)
        sys.exit(2)
    try:
        jobs = load(args[1])
    except Exception as e:
        print("error: " + str(e), file=sys.stderr)
        sys.exit(2)
    result = order(jobs)
    if "--levels" in args:
        level = {}
        for j in result:
            level[j] = max([level[d] + 1 for d in jobs[j]] or [0])
        for n in range(max(level.values()) + 1 if level else 0):
            print(" ".join(sorted(j for j in level if level[j] == n)))
    else:
        for j in result:
            print(j)


main()
