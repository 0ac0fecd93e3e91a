"""The content cache: exact results, corrupt entries, a read-only or full folder, two runs
at once, the stat index."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from slopmark.code.measure.cache.files import Analyzer, Version
from slopmark.code.measure.cache.store import FILE_NAME, ResultCache, unseal
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.rules import load_catalog

from .repos import branchy

pytestmark = pytest.mark.slow  # starts bwrap, python

FILES = {
    f"pkg/m{i}.py": branchy(f"f{i}", 3 + i % 12) + "\n\nclass K:\n    def get(self, x):\n"
    "        if x == None:\n            return 1\n        return 2\n"
    for i in range(12)
}


def cli(cache: Path, *args: str, wrap: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SLOPMARK_CACHE=str(cache))
    command = [*(wrap or []), sys.executable, "-m", "slopmark", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture
def tree(make_tree) -> Path:
    return make_tree(FILES)


def test_warm_cold_and_uncached_reports_are_byte_identical(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = cli(cache, "code", "measure", str(tree), "--json")
    warm = cli(cache, "code", "measure", str(tree), "--json")
    bare = cli(cache, "code", "measure", str(tree), "--json", "--no-cache")
    assert cold.returncode == warm.returncode == bare.returncode == 0, cold.stderr
    assert cold.stdout == warm.stdout == bare.stdout
    assert cold.stderr == warm.stderr == ""
    with sqlite3.connect(cache / FILE_NAME) as db:
        assert db.execute("SELECT count(*) FROM results").fetchone()[0] == len(FILES)


def _analyzer(cache: ResultCache) -> Analyzer:
    return Analyzer(load_catalog(()), jobs=1, cache=cache)


def test_warm_run_analyses_nothing_and_history_shares_entries(tree: Path, tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "c")
    versions = [Version(p, location=str(tree / p)) for p in FILES]
    first = _analyzer(cache)
    cold = first.analyze(versions)
    assert first.analysed == len(FILES)
    second = _analyzer(cache)
    again = second.analyze([Version(p, location=str(tree / p)) for p in FILES])
    assert second.analysed == 0 and again == cold
    as_bytes = _analyzer(cache)
    renamed = [Version(f"other/{p}", data=(tree / p).read_bytes()) for p in FILES]
    relabelled = as_bytes.analyze(renamed)
    assert as_bytes.analysed == 0
    assert [a.path for a in relabelled] == [f"other/{p}" for p in FILES]
    assert all(h.path.startswith("other/") for a in relabelled for h in a.hits)  # type: ignore[union-attr]


def test_corrupt_entries_are_ignored_and_rewritten(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    expected = cli(cache, "code", "measure", str(tree), "--json").stdout
    with sqlite3.connect(cache / FILE_NAME) as db:
        db.execute("UPDATE results SET value = substr(value, 1, length(value) - 3)")
        db.execute("UPDATE results SET value = X'00' WHERE substr(key, 1, 1) < X'80'")
        db.execute("UPDATE reports SET value = substr(value, 1, length(value) - 3)")
    again = cli(cache, "code", "measure", str(tree), "--json")
    assert again.returncode == 0 and again.stdout == expected and again.stderr == ""
    with sqlite3.connect(cache / FILE_NAME) as db:
        for table in ("results", "reports"):
            values = [v for (v,) in db.execute(f"SELECT value FROM {table}")]
            assert values and all(unseal(v) is not None for v in values)


def test_the_whole_report_is_reused_only_for_the_same_contents(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cli(cache, "code", "measure", str(tree), "--json")
    with sqlite3.connect(cache / FILE_NAME) as db:
        db.execute("UPDATE results SET value = X'00'")  # only the tree report is left
    warm = cli(cache, "code", "measure", str(tree), "--json")
    with sqlite3.connect(cache / FILE_NAME) as db:
        assert {v for (v,) in db.execute("SELECT value FROM results")} == {b"\0"}
        db.execute("DELETE FROM reports")
    assert cli(cache, "code", "measure", str(tree), "--json").stdout == warm.stdout
    edited = tree / "pkg/m0.py"
    edited.write_text(edited.read_text() + "\nx = 1\n")
    changed = cli(cache, "code", "measure", str(tree), "--json")
    reports = "SELECT count(*) FROM reports"
    with sqlite3.connect(cache / FILE_NAME) as db:
        assert db.execute(reports).fetchone()[0] == 2  # the base and its report, no other
    again = cli(cache, "code", "measure", str(tree), "--json")
    bare = cli(cache, "code", "measure", str(tree), "--json", "--no-cache")
    assert warm.returncode == changed.returncode == again.returncode == 0, changed.stderr
    assert changed.stdout == again.stdout == bare.stdout != warm.stdout
    with sqlite3.connect(cache / FILE_NAME) as db:
        assert db.execute(reports).fetchone()[0] == 3  # kept once measured unchanged


def test_a_file_that_is_no_database_is_replaced(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / FILE_NAME).write_bytes(b"this is not sqlite" * 100)
    expected = cli(cache, "code", "measure", str(tree), "--json", "--no-cache").stdout
    done = cli(cache, "code", "measure", str(tree), "--json")
    assert done.returncode == 0 and done.stdout == expected
    assert done.stderr.count("\n") == 1 and "started a new cache" in done.stderr
    assert cli(cache, "code", "measure", str(tree), "--json").stderr == ""


def _bwrap() -> str:
    found = shutil.which("bwrap")
    if found is None:
        pytest.fail("bubblewrap (bwrap) is required: apt-get install bubblewrap")
    return found


@pytest.mark.parametrize("how", ["read-only", "full"])
def test_a_cache_folder_that_cannot_be_written_turns_the_cache_off(
    tree: Path, tmp_path: Path, how: str
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    if how == "read-only":
        wrap = [_bwrap(), "--dev-bind", "/", "/", "--ro-bind", str(cache), str(cache)]
    else:
        wrap = [_bwrap(), "--dev-bind", "/", "/", "--size", "8192", "--tmpfs", str(cache)]
    expected = cli(tmp_path / "other", "code", "measure", str(tree), "--json", "--no-cache")
    done = cli(cache, "code", "measure", str(tree), "--json", wrap=wrap)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("slopmark: note: cache off (")
    assert "Traceback" not in done.stderr


def test_two_runs_at_once_share_the_cache(make_tree, tmp_path: Path) -> None:
    many = {f"m{i}.py": branchy(f"g{i}", 2 + i % 9) for i in range(80)}
    tree = make_tree(many)
    cache = tmp_path / "cache"
    env = dict(os.environ, SLOPMARK_CACHE=str(cache))
    command = [sys.executable, "-m", "slopmark", "code", "measure", str(tree), "--json"]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            for _ in range(2)]  # fmt: skip
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert outputs[0][0] == outputs[1][0] and outputs[0][1] == outputs[1][1] == b""
    with sqlite3.connect(cache / FILE_NAME) as db:
        assert db.execute("SELECT count(*) FROM results").fetchone()[0] == len(many)


def test_stat_index_trusts_only_settled_files(tree: Path, tmp_path: Path) -> None:
    old = 1_600_000_000
    for path in FILES:
        os.utime(tree / path, (old, old))
    cache = ResultCache(tmp_path / "c")
    versions = [Version(p, location=str(tree / p)) for p in FILES]
    _analyzer(cache).analyze(versions)
    known = cache.stat_digests([os.path.abspath(tree / p) for p in FILES])
    assert len(known) == len(FILES)
    target = tree / "pkg/m0.py"
    text = target.read_text()
    target.write_text(text.replace("return -scale", "return +scale"))  # same size
    os.utime(target, (old, old))  # same mtime: the ctime still tells
    fresh = _analyzer(cache)
    fresh.analyze([Version(p, location=str(tree / p)) for p in FILES])
    assert fresh.analysed == 1  # only the edited file is read and analysed again


EXTRA_RULE = """\
id: extra-print
language: python
severity: warning
message: "{message}"
metadata:
  category: misc
rule:
  pattern: print($$$A)
"""


def test_the_parsed_catalog_is_cached_and_follows_its_sources(tmp_path: Path) -> None:
    from slopmark.code.measure.cache.rules import cached_catalog
    from slopmark.errors import BadInput

    extra = tmp_path / "rules"
    extra.mkdir()
    (extra / "p.yml").write_text(EXTRA_RULE.format(message="first"))
    cache = ResultCache(tmp_path / "c")
    cold = cached_catalog(cache, [extra])
    cache.flush()
    assert cached_catalog(cache, [extra]) == cold == load_catalog([extra])
    with sqlite3.connect(cache.path) as db:
        db.execute("UPDATE catalogs SET value = x'00'")  # a corrupt entry is parsed again
    assert cached_catalog(cache, [extra]) == cold
    (extra / "p.yml").write_text(EXTRA_RULE.format(message="second"))
    edited = {r.id: r for r in cached_catalog(cache, [extra])}
    assert edited["extra-print"].message == "second"
    (extra / "p.yml").write_text("id: [unclosed\n")
    for _ in range(2):  # a bad rule is never stored: it is reported every time
        with pytest.raises(BadInput, match="p.yml"):
            cached_catalog(cache, [extra])
        cache.flush()
    cache.close()


def test_an_entry_depends_only_on_the_rules_of_its_language(tree: Path, tmp_path: Path) -> None:
    """`measure` compiles only the rules of the languages present, `diff` all of them:
    a Python file's entry is the same for both."""
    catalog = load_catalog(())
    cache = ResultCache(tmp_path / "c")
    python_rules = [r for r in catalog if r.language == "python"]
    assert len(python_rules) < len(catalog)
    Analyzer(python_rules, jobs=1, cache=cache).analyze(
        [Version(p, location=str(tree / p)) for p in FILES]
    )
    everything = _analyzer(cache)
    everything.analyze([Version(p, location=str(tree / p)) for p in FILES])
    assert everything.analysed == 0
    fewer = Analyzer(python_rules[1:], jobs=1, cache=cache)
    fewer.analyze([Version(p, location=str(tree / p)) for p in FILES])
    assert fewer.analysed == len(FILES)  # another Python rule set: other entries


def test_a_skipped_content_is_cached_with_its_reason(make_tree, tmp_path: Path) -> None:
    tree = make_tree({"ok.py": "def f():\n    return 1\n", "bad.py": "def f(:\n    return\n"})
    cache = ResultCache(tmp_path / "c")
    versions = [Version(p, location=str(tree / p)) for p in ("ok.py", "bad.py")]
    cold = _analyzer(cache).analyze(versions)
    cache.flush()
    warm = _analyzer(cache)
    again = warm.analyze([Version(p, location=str(tree / p)) for p in ("ok.py", "bad.py")])
    assert warm.analysed == 0
    assert again == cold and isinstance(again[1], Skipped) and "syntax error" in again[1].reason
    cache.close()
