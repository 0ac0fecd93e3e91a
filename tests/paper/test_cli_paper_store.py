"""``paper measure --store`` through the real CLI: the stored paper id, the label, and
the options that need --store (one clear line and exit 2, the store untouched)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from clirun import run_cli

pytestmark = pytest.mark.slow  # starts python

NINE = Path(__file__).parent / "fixtures" / "structure" / "cross_nine_objects.tex"


def _count(db: Path, table: str) -> int:
    with sqlite3.connect(db) as connection:
        (n,) = connection.execute(f"SELECT count(*) FROM {table}").fetchone()
    return int(n)


def test_store_prints_the_id_and_keeps_the_findings_file_instances(tmp_path: Path) -> None:
    db, out = tmp_path / "s.db", tmp_path / "F.json"
    first = run_cli("paper", "measure", str(NINE), "--measures", "deterministic", "--store",
                    "--db", str(db), "--findings", str(out))  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert "stored as paper 1 (slopmark serve: /papers/1)" in first.stdout
    again = run_cli("paper", "measure", str(NINE), "--json", "--store", "--db", str(db),
                    "--label", "human")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["stored_id"] == 2
    written = json.loads(out.read_text())
    instances = sum(len(m["instances"]) for m in written["measures"])
    assert _count(db, "paper_findings") == 2 * instances > 0
    with sqlite3.connect(db) as connection:
        labels = connection.execute("SELECT id, label FROM papers ORDER BY id").fetchall()
        measures = connection.execute(
            "SELECT measure FROM paper_measures WHERE paper_id = 1 ORDER BY position"
        ).fetchall()
    assert labels == [(1, None), (2, "human")]
    assert [m for (m,) in measures] == [m["measure"] for m in written["measures"]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--label", "human"), "--label 'human': only with --store"),
        (("--db", "x.db"), "--db 'x.db': only with --store"),
        (("--store", "--label", "robot"), "--label 'robot': must be one of human, ai"),
        (("--store", "--executor", "local", "--jobs", "1", str(NINE)), "one PATH"),
    ],
)
def test_store_options_refuse_bad_input_in_one_line(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    done = run_cli("paper", "measure", str(NINE), *args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []  # no store was made
