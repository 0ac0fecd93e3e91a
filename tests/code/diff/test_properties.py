"""Invariants over random edit sequences: cached and uncached `measure` reports are
byte-identical, and `diff A B` totals are those of measure(A) and measure(B)."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slopmark.cli.code_report import to_json
from slopmark.code.measure.cache.store import ResultCache
from slopmark.code.measure.compare import totals
from slopmark.code.measure.measure_diff import DiffRequest, diff_sides
from slopmark.code.measure.measure_tree import MeasureOptions, measure_tree

from .repos import branchy, commit, new_repo

BLOCK = (
    "    for row in rows:\n        if row > limit:\n            total += row\n"
    "        else:\n            total -= 1\n    return total\n"
)
Files = dict[str, list[str]]


def start() -> Files:
    return {
        "pkg/a.py": [branchy("alpha", 4), branchy("beta", 11)],
        "pkg/b.py": ["def gamma(rows, limit):\n    total = 0\n" + BLOCK],
        "c.py": ["def delta(x):\n    return x\n"],
    }


def _edit(files: Files, op: str, rng: random.Random) -> None:
    name = rng.choice(sorted(files))
    units = files[name]
    fresh = f"f{rng.randrange(10**6)}"
    if op == "add" or not units:
        units.append(branchy(fresh, rng.randint(2, 16)))
    elif op == "raise":
        index = rng.randrange(len(units))
        units[index] = branchy(units[index].split("(")[0][4:], rng.randint(2, 16))
    elif op == "copy":
        units.append(f"def {fresh}(rows, limit):\n    total = 1\n" + BLOCK)
    elif op == "rule":
        units.append(f"def {fresh}(value):\n    return value == None\n")
    elif op == "rename":
        files[f"moved/{fresh}.py"] = files.pop(name)
    elif op == "move":
        target = rng.choice(sorted(files))
        files[target].append(units.pop(rng.randrange(len(units))))
    elif op == "delete":
        units.pop(rng.randrange(len(units)))


def text(files: Files) -> dict[str, str]:
    return {name: "\n\n".join(units) + "\n" for name, units in files.items()}


def write_tree(root: Path, files: Files) -> Path:
    for name, content in text(files).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content)
    return root


def report_json(path: Path, cache: ResultCache | None) -> str:
    return json.dumps(to_json(measure_tree(path, MeasureOptions(jobs=1, cache=cache))))


OPS = st.sampled_from(["add", "raise", "copy", "rule", "rename", "move", "delete"])


@pytest.mark.slow  # a dozen trees measured and diffed: seconds
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(OPS, min_size=1, max_size=6), seed=st.integers(0, 2**16))
def test_cache_is_exact_and_diff_totals_are_measure_differences(
    edits: list[str], seed: int
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        cache = ResultCache(root / "cache")
        before = start()
        after = {name: list(units) for name, units in before.items()}
        for op in edits:
            _edit(after, op, rng)
        repo = new_repo(root / "repo", text(before))
        old = commit(repo, {}, "nothing")
        for stale in repo.glob("**/*.py"):
            stale.unlink()
        new = commit(repo, text(after), "edits")
        trees = write_tree(root / "a", before), write_tree(root / "b", after)
        for tree in trees:
            cold = report_json(tree, cache)
            assert report_json(tree, cache) == cold == report_json(tree, None)
        request, cached = DiffRequest(repo, old, new), MeasureOptions(jobs=1, cache=cache)
        report = diff_sides(request, cached)
        cache.flush()
        again = diff_sides(request, cached)  # the base tree's summary now comes from the cache
        assert (again.totals, again.added, again.removed) == (
            report.totals,
            report.added,
            report.removed,
        )
        measured = [totals(measure_tree(t, MeasureOptions(jobs=1))) for t in trees]
        assert {k: v[0] for k, v in report.totals.items()} == measured[0]
        assert {k: v[1] for k, v in report.totals.items()} == measured[1]
        folders = diff_sides(
            DiffRequest(root, str(trees[0]), str(trees[1])), MeasureOptions(jobs=1)
        )
        assert folders.totals == report.totals
        assert [c.kind for c in folders.added] == [c.kind for c in report.added]
        cache.close()
