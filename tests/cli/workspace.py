"""A folder holding one of everything the commands read, and the means to prove that a
command left it as it was: a seeded run store, a source tree, a git repository, a
paper, pairs, bench problems and a run folder, task files, a foreign SQLite file."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from slopmark.store import Run, insert_run, open_store

TESTS = Path(__file__).parents[1]
PAPER = TESTS / "paper" / "fixtures" / "structure" / "cross_nine_objects.tex"
PROBLEMS = TESTS / "code" / "bench" / "data"
TASKS = TESTS / "evals" / "data" / "instruction_small.yaml"
#: Files SQLite may leave beside a store it opened (holding no committed change here).
SIDE_FILES = ("-wal", "-shm", "-journal")


def clean_env() -> dict[str, str]:
    """This environment without a store, key or width that would leak in from outside."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SLOPMARK_", "OPENAI_"))}
    clean.pop("COLUMNS", None)
    return clean


def cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """The real CLI in a subprocess, in `clean_env` (and ``env``)."""
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=clean_env() | (env or {}),
        timeout=120,
    )


def seeded_run(model: str, index: int) -> Run:
    return Run(
        task_id=f"math.t{index}", domain="math", model=model, provider="openai-compat",
        harness_version="h1", mode="standard", task_set_version="ts1", source="original",
        status="ok", output=str(index), passed=index % 2 == 0, score=float(index % 2 == 0),
        template_id=f"t{index // 2}", latency_ms=10.0, cost_usd=0.001,
    )  # fmt: skip


def _git(repo: Path, *args: str) -> None:
    env = os.environ | {"GIT_AUTHOR_DATE": "2026-03-01T12:00:00", "GIT_COMMITTER_DATE":
                        "2026-03-01T12:00:00"}  # fmt: skip
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(["git", *identity, *args], cwd=repo, check=True, capture_output=True, env=env)


def build(root: Path) -> Path:
    """Fill ``root`` with the workspace and return it."""
    engine = open_store(f"sqlite:///{root / 'store.db'}")
    for model in ("m1", "m2"):
        for index in range(8):
            insert_run(engine, seeded_run(model, index))
    engine.dispose()
    (root / "tree").mkdir()
    (root / "tree" / "a.py").write_text("def f(x):\n    return x + 1\n")
    (root / "repo").mkdir()
    (root / "repo" / "a.py").write_text("def f(x):\n    return x\n")
    _git(root / "repo", "init", "-q")
    _git(root / "repo", "add", "a.py")
    _git(root / "repo", "commit", "-qm", "first")
    (root / "paper").mkdir()
    shutil.copy(PAPER, root / "paper" / "main.tex")
    pair = {"ai": str(root / "paper" / "main.tex"), "human": str(root / "paper" / "main.tex")}
    (root / "pairs.jsonl").write_text(json.dumps(pair) + "\n")
    shutil.copytree(PROBLEMS, root / "problems")
    (root / "run").mkdir()
    (root / "run" / "run.json").write_text('{"agent": "replay"}\n')
    shutil.copy(TASKS, root / "tasks.yaml")
    (root / "repos.txt").write_text("# a study of one repository\nrepo\n")
    (root / "suite.yaml").write_text(
        "models:\n  - {model: 'openai-compat:m', base_url: 'http://127.0.0.1:9/v1'}\n"
        "domains: [instruction]\ntasks: [tasks.yaml]\n"
    )
    (root / "answer.txt").write_text("Answer: 5\n")
    (root / "empty.txt").write_text("")
    (root / "file.txt").write_text("a file, not a folder\n")
    (root / "folder").mkdir()
    with sqlite3.connect(root / "foreign.db") as connection:
        connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, note TEXT)")
        connection.execute("INSERT INTO runs (note) VALUES ('not slopmark')")
    return root


def _dump(path: Path) -> str:
    """The logical content of a SQLite file, read without writing."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return "\n".join(connection.iterdump())
    finally:
        connection.close()


def snapshot(root: Path) -> dict[str, str]:
    """Every file and folder under ``root`` by content. A SQLite file counts by its bytes
    and by its logical content, so a change still held in a write-ahead log counts too;
    the log and shared-memory files themselves are left out."""
    found = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if name.endswith(SIDE_FILES):
            continue
        if path.is_dir():
            found[name] = "folder"
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if path.suffix == ".db":
            digest += " " + hashlib.sha256(_dump(path).encode()).hexdigest()
        found[name] = digest
    return found
