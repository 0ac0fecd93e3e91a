"""Batch paste: ``eval paste --jsonl FILE`` scores and stores every good line, reports each
bad one as ``FILE:LINE: why`` and goes on. The reading is tested directly, the command
as the real CLI in a subprocess on a real SQLite file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from evals.conftest import slopmark
from slopmark.evals.batch import PasteLine, Refused, Targets, read_lines, store_batch, tally
from slopmark.evals.pool import load_pool
from slopmark.store import list_runs, open_store

GOOD = {"task": "math.ages.0", "model": "m1", "answer": "Answer: 5"}
WRONG = {"task": "math.ages.0", "model": "m2", "answer": "Answer: 7"}
#: line → (text, a fragment of why it is refused)
BAD = {
    3: ("not json", "not JSON"),
    5: (
        json.dumps({"task": "math.agez.0", "model": "m1", "answer": "5"}),
        "unknown task 'math.agez.0'; did you mean 'math.ages.0'?",
    ),  # fmt: skip
    6: (json.dumps({"task": "math.ages.0", "answer": "5"}), "missing 'model'"),
    7: (json.dumps(GOOD | {"answer": " "}), "'answer' must be a non-empty string"),
    8: ("[1, 2]", "not a JSON object but list"),
    9: (json.dumps(GOOD | {"model": 3}), "'model' must be a non-empty string"),
}


def batch_text() -> str:
    lines = {1: json.dumps(GOOD), 2: json.dumps(WRONG), 4: ""} | {n: t for n, (t, _) in BAD.items()}
    lines[10] = json.dumps(GOOD | {"model": "m3", "answer": "The answer is 5.\nAnswer: 5"})
    return "\n".join(lines[n] for n in sorted(lines)) + "\n"


def test_each_line_is_read_alone_and_blank_lines_keep_the_numbering() -> None:
    read = list(read_lines(batch_text()))
    assert [r.line for r in read] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    refused = {r.line: r.error for r in read if isinstance(r, Refused)}
    assert refused.keys() == BAD.keys() - {5}  # an unknown task is found against the pool
    for number, error in refused.items():
        assert BAD[number][1] in error, (number, error)
    assert read[0] == PasteLine(1, "math.ages.0", "m1", "Answer: 5")


def test_a_line_joins_the_series_a_single_paste_would(tmp_path: Path) -> None:
    from slopmark.evals.session import paste_target

    pool = load_pool("math")
    line = PasteLine(1, "math.ages.0", "m1", "5")
    assert Targets(pool).target(line) == paste_target(pool, "math.ages.0", "m1")


def test_store_batch_stores_the_good_lines_in_order(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'runs.db'}")
    outcomes = store_batch(engine, batch_text(), load_pool("math"))
    counts = tally(outcomes)
    assert (counts.stored, counts.passed, counts.failed, counts.refused) == (3, 2, 1, 6)
    assert counts.line() == "3 stored (2 passed, 1 failed, 0 errored), 6 refused"
    runs = list_runs(engine)
    assert [(r.model, r.passed, r.paste) for r in runs] == [
        ("m1", True, True), ("m2", False, True), ("m3", True, True)
    ]  # fmt: skip


@pytest.mark.slow  # starts the CLI
def test_the_cli_reports_each_bad_line_and_keeps_the_rest(tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(batch_text(), encoding="utf-8")
    db = tmp_path / "runs.db"
    done = slopmark("eval", "paste", "--jsonl", str(answers), "--db", str(db))
    assert done.returncode == 2, done.stderr
    *refused, store = done.stderr.splitlines()
    assert [line.split(": ", 1)[0] for line in refused] == [f"{answers}:{n}" for n in BAD]
    for line, (_, fragment) in zip(refused, BAD.values(), strict=True):
        assert fragment in line, line
    assert store == f"slopmark: store: {db} (--db)"
    out = done.stdout.splitlines()
    assert out[0].startswith(f"{answers}:1: PASS math.ages.0 (m1): score 1.000, run 1")
    assert out[1].startswith(f"{answers}:2: FAIL math.ages.0 (m2)")
    assert out[-1] == "3 stored (2 passed, 1 failed, 0 errored), 6 refused"
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT model, passed, paste FROM runs ORDER BY id").fetchall()
    assert rows == [("m1", 1, 1), ("m2", 0, 1), ("m3", 1, 1)]


@pytest.mark.slow  # starts the CLI
def test_a_clean_batch_from_stdin_exits_0_and_its_json_has_every_line(tmp_path: Path) -> None:
    text = "\n".join(json.dumps(record) for record in (GOOD, WRONG))
    db = tmp_path / "runs.db"
    done = slopmark("eval", "paste", "--jsonl", "-", "--db", str(db), "--json", stdin=text)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["file"] == "<stdin>"
    assert report["summary"] == {"stored": 2, "passed": 1, "failed": 1, "errored": 0, "refused": 0}
    assert [(line["line"], line["run"]["model"]) for line in report["lines"]] == [
        (1, "m1"), (2, "m2")
    ]  # fmt: skip
