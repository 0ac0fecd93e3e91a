"""The content cache heals and keeps to its own file: a corrupt database is started anew
(once, with one note), a symlinked cache file is never followed, and a SQLite database
that is not a slopmark cache is never written."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from slopmark.code.measure.cache.store import APPLICATION_ID, FILE_NAME, TABLES, ResultCache

pytestmark = pytest.mark.slow  # starts python

FILES = {
    f"pkg/m{i}.py": "".join(
        f"def f{i}_{j}(x):\n    if x == {j}:\n        return {j}\n    return None\n\n"
        for j in range(40)
    )
    for i in range(30)
}


def measure(cache: Path, tree: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SLOPMARK_CACHE=str(cache))
    command = [sys.executable, "-m", "slopmark", "code", "measure", str(tree), "--json", *extra]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


def one_note(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a successful run wrote on stderr."""
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stderr.splitlines()
    return line


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def foreign_database(path: Path, application_id: int = 0, table: str = "notes") -> Path:
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"CREATE TABLE {table} (key BLOB PRIMARY KEY, value BLOB)")
        db.execute(f"INSERT INTO {table} VALUES (x'01', x'02')")
        db.execute(f"PRAGMA application_id = {application_id}")
        db.commit()
    return path


@pytest.fixture
def tree(make_tree) -> Path:
    return make_tree(FILES)


def test_a_corrupt_cache_is_started_anew_once(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    expected = measure(cache, tree, "--no-cache").stdout
    assert measure(cache, tree).stdout == expected
    database = cache / FILE_NAME
    size = database.stat().st_size
    assert size > 16 * 4096
    with database.open("r+b") as handle:  # every page after the schema's is garbage
        handle.seek(4096)
        handle.write(b"\xa5" * (size - 4096))
    healed = measure(cache, tree)
    assert healed.stdout == expected
    assert one_note(healed).endswith("deleted it and started a new cache")
    again = measure(cache, tree)
    assert (again.stdout, again.stderr) == (expected, "")
    with closing(sqlite3.connect(database)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM results").fetchone()[0] == len(FILES)


@pytest.mark.parametrize("name", [FILE_NAME, f"{FILE_NAME}-wal"])
def test_a_symlinked_cache_file_is_never_followed(tree: Path, tmp_path: Path, name: str) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    victim = foreign_database(tmp_path / "theirs.sqlite3")
    before = digest(victim)
    (cache / name).symlink_to(victim)
    expected = measure(tmp_path / "other", tree, "--no-cache").stdout
    done = measure(cache, tree)
    assert done.stdout == expected
    assert one_note(done).startswith(f"slopmark: note: cache off ({cache / name} is a symlink")
    assert digest(victim) == before
    assert (cache / name).is_symlink()


@pytest.mark.parametrize(("application_id", "table"), [(0, "notes"), (42, "results")])
def test_a_database_that_is_not_ours_is_left_untouched(
    tmp_path: Path, application_id: int, table: str
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    theirs = foreign_database(cache / FILE_NAME, application_id, table)
    before = digest(theirs)
    opened = ResultCache(cache)
    opened.put_blob("0" * 40, b"d" * 32)
    opened.close()
    assert opened.off is not None and "not slopmark's cache" in opened.off
    assert f"application_id {application_id}" in opened.off and table in opened.off
    assert digest(theirs) == before
    assert sorted(p.name for p in cache.iterdir()) == [FILE_NAME]


def test_a_cache_written_before_its_id_is_adopted(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    with closing(sqlite3.connect(cache / FILE_NAME)) as db:
        db.execute("CREATE TABLE blobs (oid TEXT PRIMARY KEY, digest BLOB NOT NULL)")
        db.execute("INSERT INTO blobs VALUES ('a', x'01')")
        db.commit()
    opened = ResultCache(cache)
    assert opened.off is None and opened.blob_digests(["a"]) == {"a": b"\x01"}
    opened.close()
    with closing(sqlite3.connect(cache / FILE_NAME)) as db:
        assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert names >= TABLES
