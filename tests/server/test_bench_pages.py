"""The /bench pages and their JSON twins over a real SQLite store filled through
`ledger.store_result` (real uvicorn on 127.0.0.1): every number is recomputed here
from the checkpoint results themselves, with the benchmark's own definitions."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from statistics import fmean
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from sqlalchemy import create_engine, insert

from slopmark.board.benchband import human_band
from slopmark.board.stats import pass_rate_interval
from slopmark.code.bench.ledger import Origin, store_result, to_run
from slopmark.code.bench.results import AgentRecord, CaseOutcome, CheckpointResult, Quality
from slopmark.code.bench.scoring import phase
from slopmark.server import create_app
from slopmark.server.benchchart import nice_top
from slopmark.server.benchreads import chain
from slopmark.store import open_store
from slopmark.store.runs import _values
from slopmark.store.schema import runs, studies, study_commits

EVIL = "t::test_<script>alert(1)</script>"
#: run folder → (prompt, {problem: statuses of its checkpoints in order})
RUNS = {
    "runA": ("just-solve", {
        "p": ["scored", "scored", "agent_failed", "scored", "scored"],
        "q": ["scored", "env_error", "scored"],
        "r": ["scored", "scored", "scored", "scored"],
    }),
    "runB": ("anti-slop", {"p": ["scored", "scored", "scored"]}),
}  # fmt: skip


def result(problem: str, index: int, statuses: list[str], seed: int) -> CheckpointResult:
    """A checkpoint whose failures, quality and cost vary with ``index`` and ``seed``."""
    status = statuses[index]
    failing = (index + seed) % 3 == 1
    tests = (
        CaseOutcome("t::test_core", "core", "passed"),
        CaseOutcome(EVIL, "functionality", "failed" if failing else "passed"),
        *([CaseOutcome("t::test_old", "regression", "failed" if seed % 2 else "passed")]
          if index else []),
    )  # fmt: skip
    quality = Quality(0.05 * index + 0.01 * seed, 0.02 * index + 0.03, 100 + index, 2, 9,
                      index % 2, 4, 10, 1, 12, 3, None if index == 0 else 90)  # fmt: skip
    return CheckpointResult(
        problem=problem, problem_version=1, checkpoint=f"checkpoint_{index + 1}",
        order=index + 1, index=index, count=len(statuses), status=status,  # type: ignore[arg-type]
        agent=AgentRecord("ok", 1.0, cost_usd=0.001 * (seed + 1) * (index + 1)),
        tests=tests if status == "scored" else (), quality=quality,
        timings={"total_s": 10.0 + index},
    )  # fmt: skip


def all_results() -> dict[str, list[CheckpointResult]]:
    found: dict[str, list[CheckpointResult]] = {}
    for seed, (run, (_prompt, problems)) in enumerate(RUNS.items()):
        found[run] = [
            result(problem, index, statuses, seed)
            for problem, statuses in problems.items()
            for index in range(len(statuses))
        ]
    return found


def fill(root: Path) -> str:
    url = f"sqlite:///{root / 'runs.db'}"
    engine = open_store(url)
    for run, results in all_results().items():
        for item in results:
            (root / run / item.problem / item.checkpoint).mkdir(parents=True)
            origin = Origin(run, "problems")
            prompt = RUNS[run][0]
            assert store_result(engine, root / run, item, "replay", "m-1", prompt, origin)
    engine.dispose()
    return url


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]) -> str:
    return serve_app(create_app(fill(tmp_path_factory.mktemp("bench")), None))


def get_json(url: str, path: str, **params: str) -> Any:
    response = httpx.get(url + path, params=params, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def expected_row(results: list[CheckpointResult]) -> dict[str, Any]:
    counted = [r for r in results if not r.errored]
    clusters = [r.problem for r in counted]
    phases: dict[str, list[float]] = {}
    for item in counted:
        assert item.quality is not None and item.quality.erosion is not None
        phases.setdefault(phase(item.index, item.count), []).append(item.quality.erosion)
    return {
        "counted": len(counted), "errored": len(results) - len(counted),
        "rates": {v: pass_rate_interval([getattr(r, v) for r in counted], clusters)
                  for v in ("strict", "isolated", "core")},
        "erosion": {name: fmean(values) for name, values in phases.items()},
        "cost": fmean(r.agent.cost_usd for r in counted if r.agent and r.agent.cost_usd),
    }  # fmt: skip


def test_the_json_twin_holds_every_rate_phase_mean_and_cost(url: str) -> None:
    tables = get_json(url, "/api/bench")["tables"]
    assert [t["problem_set"] for t in tables] == ["problems"]
    rows = {row["key"]["prompt"]: row for row in tables[0]["rows"]}
    for run, results in all_results().items():
        row, expected = rows[RUNS[run][0]], expected_row(results)
        assert (row["counted"], row["errored"]) == (expected["counted"], expected["errored"])
        for verdict, interval in expected["rates"].items():
            got = row["rates"][verdict]
            assert (got["estimate"], got["low"], got["high"]) == pytest.approx(
                (interval.estimate, interval.low, interval.high)
            )
        erosion = {name: mean["value"] for name, mean in row["erosion"].items()}
        assert erosion == pytest.approx(expected["erosion"])
        assert row["means"]["cost_usd"]["value"] == pytest.approx(expected["cost"])
    assert rows["just-solve"]["provisional"] is False  # 11 counted checkpoints
    assert rows["anti-slop"]["provisional"] is True


def test_the_page_shows_the_json_twins_numbers_and_sorts_by_the_query(url: str) -> None:
    page = httpx.get(url + "/bench", params={"sort": "cost", "order": "asc"}, timeout=30).text
    labels = re.findall(r'<td class="model">([^<]*)', page)
    assert [html.unescape(label).strip() for label in labels] == [
        "replay · m-1 · just-solve", "replay · m-1 · anti-slop",
    ]  # fmt: skip
    rows = get_json(url, "/api/bench", sort="cost", order="asc")["tables"][0]["rows"]
    for row in rows:
        strict = row["rates"]["strict"]
        assert f"{100 * strict['estimate']:.1f} [" in page
    assert 'aria-sort="ascending"' in page and "sort=cost&amp;order=desc" in page
    assert page.count('<g class="series s') == 2 * 2 + 2  # two lines per quality chart, 2 points
    assert "No repository study is stored" in page


@pytest.mark.parametrize(
    ("params", "message"),
    [({"sort": "speed"}, "sort &#39;speed&#39;: must be one of"),
     ({"order": "up"}, "order &#39;up&#39;: must be one of desc, asc")],
)  # fmt: skip
def test_a_bad_sort_is_a_clear_400_page(url: str, params: dict[str, str], message: str) -> None:
    response = httpx.get(url + "/bench", params=params, timeout=30)
    assert response.status_code == 400 and message in response.text


def test_the_chain_page_lists_failing_ids_escaped_and_links_each_run(url: str) -> None:
    response = httpx.get(url + "/bench/runA/p", timeout=30)
    assert response.status_code == 200
    page = response.text
    assert "<script>alert" not in page and html.escape(EVIL, quote=False) in page
    chain = get_json(url, "/api/bench/runA/p")["checkpoints"]
    assert [c["phase"] for c in chain] == ["Start", "Early", "Mid", "Late", "Final"]
    assert chain[1]["failing"]["functionality"] == [EVIL]  # (1 + 0) % 3 == 1
    assert chain[2]["status"] == "agent_failed" and chain[2]["strict"] is False
    for item in chain:
        assert httpx.get(f"{url}/runs/{item['run_id']}", timeout=30).status_code == 200
    assert "runA/p/checkpoint_1/agent/" in page


def test_an_unknown_chain_is_a_404_page_and_a_404_json(url: str) -> None:
    page = httpx.get(url + "/bench/runZ/p", timeout=30)
    assert page.status_code == 404 and "no bench chain of problem &#39;p&#39; in run" in page.text
    assert httpx.get(url + "/api/bench/runA/zz", timeout=30).status_code == 404


def test_every_link_on_the_pages_leads_to_a_working_page(url: str) -> None:
    """The links the bench pages render (the header's belong to base.html)."""
    seen: set[str] = set()
    for start in ("/bench", "/bench/runA/q"):
        page = httpx.get(url + start, timeout=30).text
        main = page[page.index("<main>") :]
        seen |= {html.unescape(h) for h in re.findall(r'href="(/[^"]*)"', main)}
    for link in sorted(seen):
        assert httpx.get(url + link, timeout=30).status_code == 200, link


def test_a_stored_study_draws_the_human_band(tmp_path: Path, serve_app: Callable[..., str]) -> None:
    db = fill(tmp_path)
    engine = create_engine(db)
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(insert(studies).values(
            study_id="s1", repos_file="repos.txt", settings={}, created_at=now))  # fmt: skip
        connection.execute(insert(study_commits), [
            {"study_id": "s1", "repo": repo, "position": i, "sha": f"{i}", "committed_at": "",
             "subject": "", "files": 1, "sloc": 1, "callables": 1, "complex_callables": 0,
             "erosion": 0.1 * (i + 1) + shift, "verbosity": 0.01}
            for repo, shift in (("a", 0.0), ("b", 0.1)) for i in range(5)
        ])  # fmt: skip
    engine.dispose()
    page = httpx.get(serve_app(create_app(db, None)) + "/bench", timeout=30).text
    assert "Human repositories (median, IQR): Start 0.150 [0.125, 0.175] of 2" in page
    assert "study <code>s1</code>" in page and '<g class="band">' in page


def test_human_band_takes_each_repositorys_phase_means() -> None:
    points = [("a", i, 0.1 * i, None) for i in range(5)] + [("b", 0, 1.0, None)]
    band = {b.phase: b for b in human_band(points, "erosion")}
    assert band["Start"].repos == 2 and band["Start"].median == pytest.approx(0.5)
    assert band["Final"].repos == 1 and band["Final"].median == pytest.approx(0.4)
    assert human_band(points, "verbosity") == ()


@pytest.mark.parametrize(("high", "top"), [(0.0, 1.0), (0.132, 0.15), (0.9, 1.0), (3.2, 4.0)])
def test_axes_end_on_a_round_number_at_or_above_the_data(high: float, top: float) -> None:
    assert nice_top(high)[0] == pytest.approx(top)


def test_checkpoints_stored_before_their_origin_are_copied_by_the_migration(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    store_dir = Path(open_store.__code__.co_filename).parent
    config = Config(str(store_dir / "alembic.ini"))
    config.set_main_option("script_location", str(store_dir / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
        for item in all_results()["runA"]:
            old = to_run(item, "replay", "m-1", "just-solve")  # no origin: as stored before
            connection.execute(insert(runs).values(_values(old) | {"attempt": 1}))
    engine.dispose()
    found = chain(open_store(url), "stored-1", "p")  # migration 0005 ran on open
    assert found is not None
    assert [row["phase"] for row in found.checkpoints] == ["Start", "Early", "Mid", "Late", "Final"]
    assert [row["position"] for row in found.checkpoints] == [0, 1, 2, 3, 4]
    assert [row["problem_set"] for row in found.checkpoints] == ["stored"] * 5


def test_an_empty_store_says_how_to_fill_the_board(
    tmp_path: Path, serve_app: Callable[[FastAPI], str]
) -> None:
    url = serve_app(create_app(f"sqlite:///{tmp_path / 'empty.db'}", None))
    page = httpx.get(url + "/bench", timeout=30)
    assert page.status_code == 200 and "No bench checkpoint is stored yet" in page.text


def test_a_checkpoint_stored_again_keeps_only_its_latest_verdict(tmp_path: Path) -> None:
    """An errored checkpoint run again (``--retry-errors``) replaces its bench row."""
    engine = open_store(f"sqlite:///{tmp_path / 'runs.db'}")
    statuses = ["env_error"]
    errored, scored = result("p", 0, statuses, 0), result("p", 0, ["scored"], 0)
    folder = tmp_path / "runA" / "p" / "checkpoint_1"
    folder.mkdir(parents=True)
    origin = Origin("runA", "problems")
    assert store_result(engine, tmp_path / "runA", errored, "replay", None, "just-solve", origin)
    (folder / "stored").unlink()  # the retry stores the checkpoint again
    assert store_result(engine, tmp_path / "runA", scored, "replay", None, "just-solve", origin)
    found = chain(engine, "runA", "p")
    assert found is not None and len(found.checkpoints) == 1
    row = found.checkpoints[0]
    assert (row["status"], row["errored"], row["strict"]) == ("scored", False, scored.strict)


def test_a_checkpoint_stored_after_a_kept_page_shows_on_the_next_one(
    tmp_path: Path, serve_app: Callable[[FastAPI], str]
) -> None:
    """/bench keeps its sums while the store is unchanged; a checkpoint stored by another
    connection (as `code bench run` beside the server would) shows at once."""
    url = serve_app(create_app(fill(tmp_path), None))
    before = get_json(url, "/api/bench")
    assert get_json(url, "/api/bench") == before  # answered from the kept sums
    engine = open_store(f"sqlite:///{tmp_path / 'runs.db'}")
    extra = result("q", 0, ["scored"], 0)
    (tmp_path / "runC" / "q" / extra.checkpoint).mkdir(parents=True)
    origin = Origin("runC", "problems")
    assert store_result(engine, tmp_path / "runC", extra, "replay", "m-1", "fresh", origin)
    engine.dispose()
    rows = get_json(url, "/api/bench")["tables"][0]["rows"]
    assert len(rows) == len(before["tables"][0]["rows"]) + 1
    assert "fresh" in json.dumps([row["key"] for row in rows])
