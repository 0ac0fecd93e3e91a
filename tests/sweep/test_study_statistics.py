"""``code study report``'s paper statistics on a fixture study of generated repositories,
each held to a computation from the report's own per-commit numbers with plain Python
(`statistics`, `fractions`): share that rose (Wilson), median relative growth, slope
quantiles over sample and normalised position, HEAD mean ± sd, the mean trajectory with
its 95% t interval, the birth-effect flag and shares, all per group of the REPOS file."""

from __future__ import annotations

import json
import math
import random
import statistics
import subprocess
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from .conftest import cli

pytestmark = pytest.mark.slow  # starts git and python

#: two-sided 95% critical values of Student's t by degrees of freedom (a printed table)
T95 = {1: 12.7062047, 2: 4.30265273, 3: 3.18244631, 4: 2.77644511, 5: 2.57058184,
       6: 2.44691185, 7: 2.36462425, 8: 2.30600414, 9: 2.26215716}  # fmt: skip
Z95 = statistics.NormalDist().inv_cdf(0.975)
BIRTH_SLOC, BIRTH_FILES = 500, 3
METRICS = ("erosion", "verbosity")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _function(name: str, branches: int, salt: int) -> str:
    arms = "".join(f"    if x == {k}:\n        return {k * salt + 1}\n" for k in range(branches))
    return f"def {name}(x):\n{arms}    return -1\n"


def grow_repo(
    repo: Path, seed: int, start: tuple[int, int, bool], commits: int, odds: float
) -> None:
    """A repository of ``start`` = (modules, functions each, a complex one first) that gains,
    per commit, a function of CC 12 (with probability ``odds``) or three simple ones, and
    now and then a copy of an earlier function."""
    rng = random.Random(seed)
    modules, each, complex_first = start
    code = [[_function(f"f{m}_{j}", 3, rng.randint(2, 99)) for j in range(each)]
            for m in range(modules)]  # fmt: skip
    if complex_first:
        code[0].append(_function("c0", 11, 7))
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    for index in range(commits):
        if index:
            spot = code[rng.randrange(modules)]
            if rng.random() < odds:
                spot.append(_function(f"c{index}", 11, rng.randint(2, 99)))
            else:
                spot += [_function(f"s{index}_{k}", 2, rng.randint(2, 99)) for k in range(3)]
            if rng.random() < 0.4:
                spot.append(rng.choice(spot).replace("def ", "def copy_", 1))
        (repo / "pkg").mkdir(exist_ok=True)
        for number, functions in enumerate(code):
            (repo / "pkg" / f"m{number}.py").write_text("\n\n".join(functions) + "\n")
        _git(repo, "add", "-A")
        _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", f"c{index}",
             "--date", f"2022-02-{1 + index:02d}T12:00:00")  # fmt: skip


#: name, seed, (modules, functions each, complex first), commits, odds of a complex one, group
REPOS = (
    ("big-rising", 1, (8, 10, True), 7, 0.7, "tier1"),
    ("big-falling", 2, (8, 10, True), 6, 0.0, "tier1"),
    ("small-born", 3, (1, 2, False), 6, 0.5, "tier1"),
    ("big-clean-start", 4, (9, 9, False), 8, 0.5, "tier2"),
    ("two-files", 5, (2, 2, True), 7, 0.4, "tier2"),
    ("big-mixed", 6, (8, 10, True), 9, 0.6, "tier2"),
    ("ungrouped", 7, (8, 10, True), 6, 0.3, None),
    ("too-short", 8, (1, 1, False), 3, 0.5, None),
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The fixture study measured by the real CLI, and its report (JSON, text, SVG)."""
    root = tmp_path_factory.mktemp("stats")
    lines = ["# a study with groups", "missing   group=tier1  # fails: no such path"]
    for name, seed, start, commits, odds, group in REPOS:
        grow_repo(root / name, seed, start, commits, odds)
        lines.append(name if group is None else f"{name}\tgroup={group}")
    (root / "REPOS.txt").write_text("\n".join(lines) + "\n")
    db, out = f"sqlite:///{root / 's.db'}", root / "study"
    ran = cli("code", "study", str(root / "REPOS.txt"), "--db", db, "--out", str(out),
              "--jobs", "2", "--json")  # fmt: skip
    assert ran.returncode == 1, ran.stderr  # the missing repository failed
    done = cli("code", "study", "report", str(out), "--json")
    assert done.returncode == 0, done.stderr
    text = cli("code", "study", "report", str(out), "--plot", str(root / "groups.svg"))
    assert text.returncode == 0, text.stderr
    return {
        **json.loads(done.stdout),
        "text": text.stdout,
        "svg": (root / "groups.svg").read_text(),
    }


# -- the expected numbers, from the per-commit values with plain Python -----------------


def defined(commits: Sequence[dict[str, Any]], metric: str) -> list[float]:
    return [c[metric] for c in commits if c[metric] is not None]


def counts(repo: dict[str, Any]) -> bool:
    points = [c for c in repo["commits"] if c["erosion"] is not None or c["verbosity"] is not None]
    return repo["status"] == "ok" and len(points) >= 5


def born(repo: dict[str, Any]) -> bool:
    first = next(
        c for c in repo["commits"] if c["erosion"] is not None or c["verbosity"] is not None
    )
    return first["sloc"] < BIRTH_SLOC or first["files"] < BIRTH_FILES


def wilson(k: int, n: int) -> tuple[float, float]:
    p, z2 = k / n, Z95**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def share(outcomes: list[bool]) -> dict[str, Any]:
    k, n = sum(outcomes), len(outcomes)
    low, high = wilson(k, n) if n else (None, None)
    return {"repos": k, "n": n, "share": k / n if n else None, "low": low, "high": high}


def quantiles(values: list[float]) -> dict[str, Any]:
    """q10 … q90 by `statistics.quantiles`' inclusive method (R's type 7)."""
    if len(values) == 1:
        return {"n": 1, **{f"q{q}": values[0] for q in (10, 25, 50, 75, 90)}}
    cuts = statistics.quantiles(values, n=20, method="inclusive")
    return {"n": len(values), "q10": cuts[1], "q25": cuts[4], "q50": cuts[9], "q75": cuts[14],
            "q90": cuts[17]}  # fmt: skip


def ols(xs: list[float], ys: list[float]) -> float:
    return statistics.linear_regression(xs, ys).slope


def mean_ci(values: list[float]) -> dict[str, Any]:
    if len(values) < 2:
        mean = values[0] if values else None
        return {"n": len(values), "mean": mean, "sd": None, "low": None, "high": None}
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    half = T95[len(values) - 1] * sd / math.sqrt(len(values))
    return {"n": len(values), "mean": mean, "sd": sd, "low": mean - half, "high": mean + half}


def bin_means(values: list[float | None]) -> dict[int, float]:
    """Per tenth of normalised position i/(n-1) ([0, .1) … [.9, 1]), the mean defined value."""
    found: dict[int, list[float]] = {}
    for index, value in enumerate(values):
        if value is not None:
            x = Fraction(index, len(values) - 1)
            spot = next(b for b in range(10) if x < Fraction(b + 1, 10) or b == 9)
            found.setdefault(spot, []).append(value)
    return {spot: statistics.fmean(v) for spot, v in found.items()}


def expected(repos: list[dict[str, Any]], metric: str) -> dict[str, Any]:
    series = [[c[metric] for c in r["commits"]] for r in repos]
    pairs = [(d[0], d[-1]) for r in repos if len(d := defined(r["commits"], metric)) >= 2]
    ratios = [(last - first) / first for first, last in pairs if first != 0]
    fits = [([i for i, v in enumerate(s) if v is not None], [v for v in s if v is not None], len(s))
            for s in series]  # fmt: skip
    placed = [bin_means(s) for s in series]
    return {
        "rose": share([last > first for first, last in pairs]),
        "rose_without_birth": share(
            [d[-1] > d[0] for r in repos if not born(r) for d in [defined(r["commits"], metric)]]
        ),  # fmt: skip
        "growth": {
            "n": len(ratios),
            "zero_first": len(pairs) - len(ratios),
            "median": statistics.median(ratios) if ratios else None,
        },  # fmt: skip
        "slope": quantiles([ols(xs, ys) for xs, ys, _ in fits]),
        "slope_progress": quantiles([ols([x / (n - 1) for x in xs], ys) for xs, ys, n in fits]),
        "head_mean": mean_ci([defined(r["commits"], metric)[-1] for r in repos]),
        "mean_trajectory": [mean_ci([p[b] for p in placed if b in p]) for b in range(10)],
    }


def assert_close(found: Any, wanted: Any, where: str) -> None:
    """Every number of ``wanted`` equals ``found``'s (to 1e-9 relative), recursively."""
    if isinstance(wanted, dict):
        for key, value in wanted.items():
            assert_close(found[key], value, f"{where}.{key}")
    elif isinstance(wanted, list):
        assert len(found) == len(wanted), where
        for index, (mine, theirs) in enumerate(zip(found, wanted, strict=True)):
            assert_close(mine, theirs, f"{where}[{index}]")
    elif wanted is None or isinstance(wanted, bool):
        assert found == wanted, where
    else:
        assert found == pytest.approx(wanted, rel=1e-7, abs=1e-12), where


# -- the tests ------------------------------------------------------------------------


def test_the_fixture_has_what_the_statistics_must_handle(report: dict[str, Any]) -> None:
    used = [r for r in report["repositories"] if counts(r)]
    assert len(used) == 7 and report["repos"]["used"] == 7  # too-short and missing left out
    firsts = [defined(r["commits"], "erosion")[0] for r in used]
    assert 0 < firsts.count(0.0) < len(used)  # some start with erosion 0: no relative growth
    rose = [defined(r["commits"], "erosion")[-1] > f for r, f in zip(used, firsts, strict=True)]
    assert 0 < sum(rose) < len(rose)
    assert 0 < sum(born(r) for r in used) < len(used)


def test_every_statistic_equals_an_independent_computation(report: dict[str, Any]) -> None:
    used = [r for r in report["repositories"] if counts(r)]
    for metric in METRICS:
        assert_close(report["metrics"][metric], expected(used, metric), metric)


def test_each_group_has_every_statistic_over_its_repositories(report: dict[str, Any]) -> None:
    groups = {name: group for name, *_, group in REPOS}
    by_row = {r["repo"]: r for r in report["repositories"]}
    assert [g["group"] for g in report["groups"]] == ["tier1", "tier2", None]
    for group in report["groups"]:
        members = [r for r in by_row.values() if counts(r)
                   and groups[Path(r["repo"]).name] == group["group"]]  # fmt: skip
        assert group["used"] == len(members)
        assert group["birth_flagged"] == sum(born(r) for r in members)
        for metric in METRICS:
            assert_close(group["metrics"][metric], expected(members, metric),
                         f"{group['group']}.{metric}")  # fmt: skip
    missing = [r for r in by_row.values() if r["repo"].endswith("/missing")]
    assert [(r["status"], r["group"]) for r in missing] == [("failed", "tier1")]


def test_the_birth_effect_is_flagged_per_repository(report: dict[str, Any]) -> None:
    assert report["birth"] == {"sloc": BIRTH_SLOC, "files": BIRTH_FILES}
    flagged = {Path(r["repo"]).name for r in report["repositories"] if r["birth_effect"]}
    assert flagged == {"small-born", "two-files", "too-short"}
    assert report["repos"]["birth_flagged"] == 2  # of the repositories that count
    assert "slope" in report["definitions"] and "Wilson" in report["definitions"]["rose"]


def test_the_text_report_and_the_plot_show_the_groups(report: dict[str, Any]) -> None:
    text = report["text"]
    assert "group tier1: 3 repositories, 1 with the birth effect" in text
    assert "group (no group): 1 repositories" in text
    assert "95% Wilson" in text and "median growth" in text and "HEAD mean" in text
    svg = report["svg"]
    assert 'id="mean-0-0"' in svg and 'id="ci-1-2"' in svg and "tier2 (n=3)" in svg


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("repo tier=1", "then at most group=NAME"),
        ("repo group=a/b", "group 'a/b': use 1 to 40 letters"),
        ("repo group=a group=b", "then at most group=NAME"),
    ],
)
def test_a_bad_group_is_refused_in_one_line(tmp_path: Path, line: str, message: str) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"ok group=t1\n{line}\n")
    done = cli("code", "study", str(listing), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and f"REPOS.txt:2: {line!r}" in done.stderr
    assert message in done.stderr
    assert not (tmp_path / "s.db").exists()


def test_groups_added_later_group_a_finished_study_without_measuring_again(tmp_path: Path) -> None:
    from .conftest import make_repo

    for name, seed in (("a", 1), ("b", 2)):
        make_repo(tmp_path / name, 6, seed)
    listing, db = tmp_path / "REPOS.txt", f"sqlite:///{tmp_path / 's.db'}"
    listing.write_text("a\nb\n")
    argv = ("code", "study", str(listing), "--db", db, "--out", str(tmp_path / "o"), "--json")
    assert cli(*argv).returncode == 0
    before = json.loads(cli("code", "study", "report", str(tmp_path / "o"), "--json").stdout)
    assert before["groups"] == [] and {r["group"] for r in before["repositories"]} == {None}
    listing.write_text("a  group=old\nb  group=new\n")
    again = cli(*argv)
    assert again.returncode == 0 and json.loads(again.stdout)["sweep"]["units"] == 0
    after = json.loads(cli("code", "study", "report", str(tmp_path / "o"), "--json").stdout)
    assert [(g["group"], g["used"]) for g in after["groups"]] == [("new", 1), ("old", 1)]
    assert after["metrics"] == before["metrics"]  # grouping changes no number
