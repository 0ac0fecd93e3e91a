"""Fixtures of the sweep tests: generated git repositories, a private PostgreSQL schema,
the real CLI in a subprocess, and reports with their timings taken out."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fakes.openai_server import openai_server  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("SLOPMARK_TEST_PG_URL")
#: keys whose values are timings or places, which differ run to run by nature
TIMING_KEYS = frozenset({
    "started", "seconds", "wall_s", "duration_s", "agent_wall_s", "agent_s", "tests_s",
    "metrics_s", "total_s", "wall_per_checkpoint_s", "timings", "latency_ms",
    "latency_first_byte_ms", "mean_latency_ms", "created_at", "sweep", "run_dir", "folder", "node",
})  # fmt: skip


def cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """The real CLI; no store or key leaks in from the environment."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLOPMARK_", "OPENAI_"))}
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        capture_output=True, text=True, env={**base, **(env or {})}, timeout=timeout,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def cli_started(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """The real CLI started in its own process group (so a test can kill it all)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLOPMARK_", "OPENAI_"))}
    return subprocess.Popen(
        [sys.executable, "-m", "slopmark", *args], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**base, **(env or {})},
        start_new_session=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def runs_in(url: str, **equal: Any) -> list[Any]:
    """The runs a store holds (its engine closed again: no connection left to the collector)."""
    from slopmark.store import list_runs, open_store

    engine = open_store(url)
    try:
        return list_runs(engine, **equal)
    finally:
        engine.dispose()


def without_timings(value: Any) -> Any:
    """``value`` with every timing (and place) key dropped, recursively."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _function(rng: random.Random, name: str, branches: int) -> str:
    arms = (f"    if x == {k}:\n        return {k * rng.randint(1, 9)}\n" for k in range(branches))
    body = "".join(arms)
    return f"def {name}(x):\n{body}    return -1\n"


def make_repo(repo: Path, commits: int, seed: int) -> None:
    """A repository whose functions grow (some past CC 10) and get copied now and then."""
    rng = random.Random(seed)
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    functions: list[str] = []
    for index in range(commits):
        branches = 11 if index % 3 == 2 else rng.randint(1, 4 + index)  # CC 12 every third
        functions.append(_function(rng, f"f{index}", branches))
        if index % 4 == 3:
            functions.append(functions[rng.randrange(len(functions))].replace("def f", "def g", 1))
        (repo / "pkg").mkdir(exist_ok=True)
        for part in range(3):
            text = "\n\n".join(functions[part::3])
            (repo / "pkg" / f"m{part}.py").write_text(text + "\n", encoding="utf-8")
        _git(repo, "add", "-A")
        date = f"2021-01-{1 + index % 28:02d}T12:00:00"
        _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", f"c{index}",
             "--date", date)  # fmt: skip


def make_repos(root: Path, count: int, commits: int) -> Path:
    """``count`` repositories under ``root`` and a REPOS.txt naming them; the file."""
    root.mkdir(parents=True, exist_ok=True)
    for index in range(count):
        make_repo(root / f"repo{index}", commits + index, index)
    listing = root / "REPOS.txt"
    listing.write_text(
        "# generated repositories\n" + "".join(f"repo{i}\n" for i in range(count)),
        encoding="utf-8",
    )
    return listing


@pytest.fixture(scope="session")
def six_repos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six small generated repositories (8 to 13 commits): the study of the tests."""
    return make_repos(tmp_path_factory.mktemp("six") / "repos", 6, 8)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL store URL in a schema of its own, dropped afterwards."""
    if not PG_URL:
        pytest.skip("no PostgreSQL: set SLOPMARK_TEST_PG_URL (.ci/run starts one)")
    from sqlalchemy import create_engine, text

    schema = f"sweep_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in PG_URL else "?"
    yield f"{PG_URL}{separator}options=-csearch_path%3D{schema}"
    with admin.begin() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()
