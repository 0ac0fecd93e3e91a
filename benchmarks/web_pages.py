"""Page speed of every web page on a store of 1M eval runs, 50k bench checkpoints, 1k
studies, 10k papers and 200 code reports (issues 32 and 33: p95 under 300 ms).

The store is SQLite, built once through the real schema (`slopmark.store.open_store`)
and cached in benchmarks/.cache/. The eval runs are board_scale.py's, the bench
checkpoints bench_pages.py's. The studies are synthetic (20 repositories × 30 commits
each, the first study 400 repositories). The code reports and papers are copies of real
ones: `slopmark code measure|history --store` of this repository and `slopmark paper
measure --store` of two test fixtures write a template store, whose rows are copied
under new ids. A real ``slopmark serve`` answers the requests (a subprocess on
127.0.0.1); each page is fetched ``--runs`` times round-robin after one untimed round
(kept as ``first``), and reported by its median and p95 against the 300 ms target. The
runs browser's deep page (page 1000 of a filter) is checked first to be the page its
"Older" link reaches from page 999. A
miss prints ``MISSED``; the exit status is non-zero only when the benchmark itself
could not run.

    .venv/bin/python benchmarks/web_pages.py [--runs N] [--json OUT] [--smoke]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from bench_pages import FULL as FULL_BENCH
from bench_pages import SMOKE as SMOKE_BENCH
from bench_pages import checkpoints, free_port, p95, pages_of, time_pages, wait_until_up
from board_scale import SMOKE as SMOKE_RUNS
from board_scale import TEMPLATE_SIZE, Size, insert_runs
from sqlalchemy import Connection, Engine, Table, insert, select

from slopmark.code.study.records import StudySettings
from slopmark.store import open_store
from slopmark.store.schema import (
    bench_checkpoints,
    code_report_callables,
    code_report_clone_members,
    code_report_clones,
    code_report_commits,
    code_report_hits,
    code_report_languages,
    code_report_rules,
    code_reports,
    paper_findings,
    paper_measures,
    papers,
    studies,
    study_commits,
    study_repos,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = HERE / ".cache"
BIN = Path(sys.executable).parent
TARGET_MS = 300.0
SEED = 20261206
BATCH = 20_000
REPORT_CHILDREN = (code_report_languages, code_report_callables, code_report_rules,
                   code_report_hits, code_report_clones, code_report_clone_members,
                   code_report_commits)  # fmt: skip
PAPER_FIXTURES = (("figure_exposition/method_figure", "ai"), ("latex/multi", "human"))


def log(message: str) -> None:
    print(f"[web_pages] {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Scale:
    """What the store holds."""

    runs: Size
    bench: tuple[int, int, int, int]
    studies: int
    repos: int
    #: repositories of the first study
    big_repos: int
    commits: int
    papers: int
    code_reports: int
    #: what the template code reports measure: a folder, and the commits of the history
    measured: str
    history: int

    @property
    def store(self) -> Path:
        shape = (self.runs.total, *self.bench, self.studies, self.papers, self.code_reports)
        return CACHE / f"web_pages-{'x'.join(map(str, shape))}.db"


FULL = Scale(Size(), FULL_BENCH, 1_000, 20, 400, 30, 10_000, 200, "src/slopmark", 30)
SMOKE = Scale(SMOKE_RUNS, SMOKE_BENCH, 3, 2, 4, 5, 6, 4, "src/slopmark/board", 3)


# --- the template store: real reports and papers written by the CLI ------------------


def slopmark(*argv: str) -> None:
    done = subprocess.run([str(BIN / "slopmark"), *argv], capture_output=True, cwd=ROOT)
    if done.returncode != 0:
        last = (done.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
        raise SystemExit(f"slopmark {' '.join(argv)} exited {done.returncode}: {last}")


def template_store(scale: Scale) -> Path:
    """A scratch store holding one measure report, one history report and two papers."""
    path = CACHE / "web_pages-template.db"
    path.unlink(missing_ok=True)
    db = ("--store", "--db", f"sqlite:///{path}")
    slopmark("code", "measure", scale.measured, *db)
    slopmark("code", "history", ".", "--commits", str(scale.history), *db)
    for fixture, label in PAPER_FIXTURES:
        folder = str(ROOT / "tests" / "paper" / "fixtures" / fixture)
        slopmark("paper", "measure", folder, "--label", label, *db)
    return path


def rows_of(connection: Connection, table: Table) -> list[dict[str, Any]]:
    return [dict(row) for row in connection.execute(select(table)).mappings()]


def by_owner(rows: list[dict[str, Any]], key: str) -> dict[int, list[dict[str, Any]]]:
    owned: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        owned[row[key]].append({name: value for name, value in row.items() if name != "id"})
    return owned


def insert_batches(connection: Connection, table: Table, rows: Iterator[dict[str, Any]]) -> None:
    while batch := [row for _, row in zip(range(BATCH), rows, strict=False)]:
        connection.execute(insert(table), batch)


def copy_reports(connection: Connection, template: Connection, count: int) -> None:
    """``count`` code reports, the template's measure and history reports in turn."""
    sources = [row["id"] for row in rows_of(template, code_reports)]
    for table in (code_reports, *REPORT_CHILDREN):
        key = "id" if table is code_reports else "report_id"
        owned = by_owner(rows_of(template, table), key)
        for number in range(1, count + 1):
            source = sources[(number - 1) % len(sources)]
            insert_batches(connection, table, ({**row, key: number} for row in owned[source]))


def copy_papers(connection: Connection, template: Connection, count: int) -> None:
    """``count`` papers, the template's in turn, each under its own name and a drawn score."""
    rng, heads = random.Random(SEED), rows_of(template, papers)
    owned = {table: by_owner(rows_of(template, table), "paper_id")
             for table in (paper_measures, paper_findings)}  # fmt: skip
    rows: list[dict[str, Any]] = []
    children: dict[Table, list[dict[str, Any]]] = defaultdict(list)
    for number in range(1, count + 1):
        head = heads[(number - 1) % len(heads)]
        label = (head["label"], None)[number % 5 == 0]
        score = round(rng.random(), 3) if head["aggregate"] is not None else None
        rows.append({**head, "id": number, "paper": f"papers/paper-{number:05d}/main.tex",
                     "label": label, "aggregate": score})  # fmt: skip
        for table, sources in owned.items():
            extra = {"paper_id": number} | ({"label": label} if table is paper_measures else {})
            children[table] += [{**row, **extra} for row in sources[head["id"]]]
    insert_batches(connection, papers, iter(rows))
    for table, found in children.items():
        insert_batches(connection, table, iter(found))


# --- the studies ----------------------------------------------------------------------


def study_id(number: int) -> str:
    return f"bench-repos-{number:04d}"


def _commits(rng: random.Random, study: str, repo: str, count: int) -> list[dict[str, Any]]:
    start, erosion, sloc = datetime(2022, 1, 1, tzinfo=UTC), rng.uniform(0.1, 0.5), 2_000
    points = []
    for position in range(count):
        when = start + timedelta(days=position * rng.randrange(5, 30))
        erosion = min(1.0, max(0.0, erosion + rng.gauss(0.002, 0.01)))
        sloc += rng.randrange(-50, 400)
        points.append({
            "study_id": study, "repo": repo, "position": position,
            "sha": f"{rng.getrandbits(160):040x}", "committed_at": when.isoformat(),
            "subject": f"commit {position} of {repo.rsplit('/', 1)[-1]}", "files": sloc // 150,
            "sloc": sloc, "callables": sloc // 12, "complex_callables": sloc // 400,
            "erosion": round(erosion, 5), "verbosity": round(rng.uniform(0.05, 0.2), 5),
        })  # fmt: skip
    return points


def _repo(rng: random.Random, study: str, line: int, commits: int) -> dict[str, Any]:
    repo = f"https://github.com/bench-org/project-{line:04d}"
    now = datetime.now(UTC)
    if rng.random() < 0.03:
        empty = dict.fromkeys(study_repos.c.keys())
        del empty["id"]
        return empty | {"study_id": study, "repo": repo, "line": line, "status": "failed",
                        "error": "git clone: repository not found", "created_at": now}  # fmt: skip
    slopes = (rng.gauss(0.0005, 0.002), rng.gauss(0.0, 0.001))
    return {
        "study_id": study, "repo": repo, "line": line, "status": "ok", "head": f"{line:040x}",
        "candidates": commits * 4, "blobs_measured": commits * 60,
        "erosion_slope": slopes[0], "verbosity_slope": slopes[1],
        "erosion_rose": slopes[0] > 0, "verbosity_rose": slopes[1] > 0,
        "node": "bench-node", "seconds": rng.uniform(5, 120), "created_at": now, "error": None,
    }  # fmt: skip


def study_rows(scale: Scale) -> Iterator[tuple[Table, dict[str, Any]]]:
    """Every row of the studies: (table, row)."""
    rng, settings = random.Random(SEED), asdict(StudySettings(sample=scale.commits))
    for number in range(scale.studies):
        study, repos = study_id(number), scale.big_repos if number == 0 else scale.repos
        yield studies, {"study_id": study, "repos_file": f"/data/{study}.txt",
                        "settings": settings, "created_at": datetime.now(UTC),
                        "repos_total": repos}  # fmt: skip
        for line in range(1, repos + 1):
            repo = _repo(rng, study, line, scale.commits)
            yield study_repos, repo
            if repo["status"] == "ok":
                for point in _commits(rng, study, repo["repo"], scale.commits):
                    yield study_commits, point


def insert_studies(connection: Connection, scale: Scale) -> None:
    pending: dict[Table, list[dict[str, Any]]] = defaultdict(list)
    for table, row in study_rows(scale):
        pending[table].append(row)
        if len(pending[table]) >= BATCH:
            connection.execute(insert(table), pending.pop(table))
    for table, rows in pending.items():
        connection.execute(insert(table), rows)


# --- the store --------------------------------------------------------------------------


def fill(engine: Engine, scale: Scale, template: Engine) -> None:
    """Everything but the eval runs, in one transaction."""
    with engine.begin() as connection, template.connect() as source:
        insert_batches(connection, bench_checkpoints, checkpoints(scale.bench))
        log("bench checkpoints written")
        insert_studies(connection, scale)
        log("studies written")
        copy_reports(connection, source, scale.code_reports)
        copy_papers(connection, source, scale.papers)
        log("code reports and papers written")


def build_store(scale: Scale) -> Path:
    """The cached store of ``scale``, built when absent (a partial build is started over)."""
    path = scale.store
    if path.is_file():
        log(f"using the cached store {path}")
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    start, partial = time.perf_counter(), path.with_suffix(".partial")
    for leftover in CACHE.glob(partial.name + "*"):
        leftover.unlink()
    template = open_store(f"sqlite:///{template_store(scale)}")
    log("template reports and papers written")
    engine = open_store(f"sqlite:///{partial}")
    fill(engine, scale, template)
    engine.dispose()
    template.dispose()
    connection = sqlite3.connect(partial)
    insert_runs(connection, scale.runs)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    partial.rename(path)
    log(f"built {path} in {time.perf_counter() - start:.0f} s")
    return path


# --- the pages --------------------------------------------------------------------------


def first_value(path: Path, query: str) -> Any:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(query).fetchone()[0]
    finally:
        connection.close()


def evals_pages(scale: Scale) -> list[str]:
    last = scale.runs.total
    return ["/", "/?domain=math", "/?domain=json&source=seed&tasks=all", "/chart",
            "/chart?domain=calibration", "/console", "/console?domain=math", "/runs/1",
            f"/runs/{last}"]  # fmt: skip


#: the runs browser's filtered list timed at page 1 and at page `DEEP_PAGE`, and its SQL
RUNS_FILTER, RUNS_WHERE = "domain=math&errored=0", "domain = 'math' AND status != 'error'"
#: a leaderboard's link to one model's failed runs (its board group in full)
BOARD_LINK = "model={}&domain=math&harness=1.0&task_set=2026.1&mode=api&passed=0"
DEEP_PAGE, PAGE_SIZE = 1000, 50


def keyset_page(store: Path, number: int) -> str:
    """Page ``number`` of `RUNS_FILTER` as the browser's "Older" links reach it: below the
    last run of the page before (found here with OFFSET, once; the server never skips)."""
    last_before = (number - 1) * PAGE_SIZE - 1
    query = f"SELECT id FROM runs WHERE {RUNS_WHERE} ORDER BY id DESC LIMIT 1 OFFSET {last_before}"
    return f"/runs?{RUNS_FILTER}&before={first_value(store, query)}&page={number}"


def runs_pages(store: Path, scale: Scale) -> list[str]:
    """The runs browser: every run, filtered lists at page 1 and `DEEP_PAGE`, a model's
    failed runs as the leaderboard links them, a run within that filter, a comparison."""
    model = f"bench-model-{min(7, scale.runs.models - 1):02d}"
    link = BOARD_LINK.format(model)
    where = f"model = '{model}' AND domain = 'math'"
    middle = scale.runs.tasks // 2
    query = f"SELECT id FROM runs WHERE {where} ORDER BY id LIMIT 1 OFFSET {middle}"
    run = first_value(store, query)
    pages = first_value(store, f"SELECT count(*) FROM runs WHERE {RUNS_WHERE}") // PAGE_SIZE
    deep = [keyset_page(store, min(DEEP_PAGE, pages))] if pages >= 2 else []  # not in --smoke
    return ["/runs", "/runs?domain=math&passed=0", f"/runs?{RUNS_FILTER}", *deep,
            f"/runs?{link}", f"/runs/{run}?{link}",
            "/compare?a=bench-model-00&b=bench-model-01&domain=math"]  # fmt: skip


def check_keyset(url: str, store: Path, deep: str) -> None:
    """The timed deep page is the one the "Older" link of the page before leads to."""
    number = int(deep.rsplit("=", 1)[1])
    with httpx.Client(base_url=url, timeout=120) as client:
        before = client.get(keyset_page(store, number - 1)).text
    found = re.search(r'<a href="([^"]+)" rel="next">', before)
    if found is None or html.unescape(found.group(1)) != deep:
        raise SystemExit(f"page {number - 1}'s Older link is not {deep}: {found}")
    log(f"page {number} is the one page {number - 1}'s Older link leads to")
def matrix_pages(scale: Scale) -> list[str]:
    """The math matrix (every model a column): page 1, a page half-way (its cursor), the
    filters, two picked models, the significance filter and the JSON twin (issue 33)."""
    template = f"math.t{scale.runs.tasks // 2 // TEMPLATE_SIZE:04d}"
    middle = quote(json.dumps([template, f"{template}.v{TEMPLATE_SIZE - 1}"]))
    pair = "model=bench-model-00&model=bench-model-01"
    return ["/matrix?domain=math", f"/matrix?domain=math&after={middle}",
            "/matrix?domain=math&differ=1", "/matrix?domain=json&failures=1",
            f"/matrix?domain=math&differ=1&{pair}",
            "/matrix?domain=math&significant=1&a=bench-model-00&b=bench-model-01",
            "/api/matrix?domain=math&differ=1"]  # fmt: skip


def study_pages(scale: Scale) -> list[str]:
    big, usual = study_id(0), study_id(scale.studies // 2)
    return ["/studies", "/studies?page=2", f"/studies/{big}", f"/studies/{usual}",
            f"/studies/{usual}?min_commits=20", f"/studies/{big}/1",
            f"/studies/{usual}/{scale.repos}"]  # fmt: skip


def code_pages(store: Path, scale: Scale) -> list[str]:
    measure, history = scale.code_reports - 1, scale.code_reports
    rule = first_value(store, f"SELECT rule FROM code_report_rules WHERE report_id = {measure}")
    rank = first_value(store, f"SELECT rank FROM code_report_clones WHERE report_id = {measure}")
    sha = first_value(store, f"SELECT sha FROM code_report_commits WHERE report_id = {history}")
    return ["/code", f"/code?before={scale.code_reports // 2}", f"/code/{measure}",
            f"/code/{history}", f"/code/{measure}/rules/{quote(rule)}",
            f"/code/{measure}/clones/{rank}", f"/code/{history}/commits/{sha}"]  # fmt: skip


def paper_pages(store: Path, scale: Scale) -> list[str]:
    last = scale.papers
    measure = first_value(store, f"SELECT measure FROM paper_findings WHERE paper_id = {last}")
    return ["/papers", "/papers?label=ai", f"/papers?before={last // 2}", f"/papers/{last}",
            f"/papers/{last}?measure={measure}", f"/papers/{last - 1}"]  # fmt: skip


def all_pages(store: Path, scale: Scale) -> dict[str, str]:
    """Every timed URL and its group."""
    groups = {"evals": evals_pages(scale), "runs": runs_pages(store, scale),
              "matrix": matrix_pages(scale),
              "bench": list(pages_of(scale.bench)),
              "studies": study_pages(scale), "code": code_pages(store, scale),
              "papers": paper_pages(store, scale)}  # fmt: skip
    return {page: group for group, found in groups.items() for page in found}


def fetch_once(url: str, pages: dict[str, str]) -> dict[str, float]:
    """The first (untimed-round) fetch of each page, in ms: caches cold."""
    first = {}
    with httpx.Client(base_url=url, timeout=120) as client:
        for page in pages:
            start = time.perf_counter()
            response = client.get(page)
            first[page] = 1000 * (time.perf_counter() - start)
            if response.status_code != 200:
                raise SystemExit(f"{page}: HTTP {response.status_code}")
    return first


def serve_and_time(store: Path, pages: dict[str, str], runs: int) -> dict[str, Any]:
    open_store(f"sqlite:///{store}").dispose()  # migrated before the server starts
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [str(BIN / "slopmark"), "serve", "--db", f"sqlite:///{store}", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_up(url, server)
        for deep in (page for page in pages if "&before=" in page):
            check_keyset(url, store, deep)
        first = fetch_once(url, pages)
        times = time_pages(url, tuple(pages), runs)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return {page: {"group": group, "first_ms": first[page], "median_ms": statistics.median(ms),
                   "p95_ms": p95(ms), "met": p95(ms) <= TARGET_MS, "runs": ms}
            for page, group in pages.items() for ms in (times[page],)}  # fmt: skip


def print_report(context: dict[str, Any], results: dict[str, Any]) -> None:
    print(
        f"web page speed, {context['date']}: {context['cores']} cores, load average "
        f"{context['load_before']} before and {context['load_after']} after; "
        f"{context['runs']} timed fetch(es) a page after one untimed round ('first')"
    )
    print(f"store: {context['store']} ({context['store_mb']:.0f} MB); target p95 ≤ "
          f"{TARGET_MS:.0f} ms\n")  # fmt: skip
    print(f"{'group':8} {'page':52} {'first':>8} {'median':>8} {'p95':>8}")
    for page, found in results.items():
        verdict = "ok" if found["met"] else "MISSED"
        print(f"{found['group']:8} {page[:52]:52} {found['first_ms']:8.1f} "
              f"{found['median_ms']:8.1f} {found['p95_ms']:8.1f}  {verdict}")  # fmt: skip


def load() -> str:
    """The load averages over 1, 5 and 15 minutes (from /proc/loadavg)."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed fetches of each page (20)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also save every time as JSON")
    parser.add_argument("--smoke", action="store_true", help="a tiny store, built in seconds")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    scale = SMOKE if args.smoke else FULL
    store = build_store(scale)
    context: dict[str, Any] = {"date": date.today().isoformat(), "cores": os.cpu_count(),
                               "load_before": load(), "runs": args.runs}  # fmt: skip
    results = serve_and_time(store, all_pages(store, scale), args.runs)
    context |= {"load_after": load(), "store": store.name, "store_mb": store.stat().st_size / 1e6}
    print_report(context, results)
    if args.json:
        found = {**context, "target_ms": TARGET_MS, "pages": results}
        args.json.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
