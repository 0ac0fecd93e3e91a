"""A report made from the last full pooling after a few files changed is the report a
pooling of every file makes: clone groups gained and lost, files added, removed and
skipped, in each case equal to an uncached measurement."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from slopmark.code.measure.cache.store import FILE_NAME, ResultCache
from slopmark.code.measure.measure_tree import MeasureOptions, measure_tree
from slopmark.code.measure.report import TreeReport

from .repos import branchy

#: A loop seen once in the first tree (in m3): a single form until another file copies it.
LOOP = "def walk(items):\n    while items:\n        item = items.pop()\n        print(item)\n"
GET = (
    "\n\nclass K:\n    def get(self, x):\n        if x == None:\n            return 1\n"
    "        return 2\n"
)
FILES = {f"pkg/m{i}.py": branchy(f"f{i}", 3 + i % 5) + GET for i in range(10)}
FILES["pkg/m3.py"] += "\n\n" + LOOP


def measured(tree: Path, cache: Path | None) -> TreeReport:
    opened = ResultCache(cache) if cache is not None else None
    try:
        return measure_tree(tree, MeasureOptions(cache=opened, jobs=1))
    finally:
        if opened is not None:
            opened.close()


def stored(cache: Path) -> int:
    """Entries of the reports table: a full pooling adds its report (and renews its base),
    a report made from the base adds none unless no file had to be analysed for it."""
    with sqlite3.connect(cache / FILE_NAME) as db:
        return int(db.execute("SELECT count(*) FROM reports").fetchone()[0])


def test_reports_made_from_the_base_equal_full_poolings(make_tree, tmp_path: Path) -> None:
    tree, cache = make_tree(FILES), tmp_path / "cache"
    assert measured(tree, cache) == measured(tree, None)
    assert stored(cache) == 2  # the report and its base
    m0, m3 = tree / "pkg/m0.py", tree / "pkg/m3.py"
    edits = [
        lambda: m0.write_text(m0.read_text() + "\n\n" + LOOP.replace("walk", "walk2")),  # m3 gains
        lambda: m0.write_text(FILES["pkg/m0.py"] + "\n\nx = 1\n"),  # m3's loop single again
        lambda: (tree / "pkg/m5.py").unlink(),  # a member of K's group leaves
        lambda: (tree / "pkg/new.py").write_text(GET + "\n\n" + LOOP),  # new members
        lambda: (tree / "pkg/bad.py").write_bytes(b"\xff\xfe not utf-8 \x00"),  # skipped
        lambda: m3.write_text(branchy("f3", 6)),  # a group's member changes form
    ]
    for step, edit in enumerate(edits, start=1):
        edit()
        made = measured(tree, cache)
        assert made == measured(tree, None), f"step {step}"
        # a removal analyses nothing: that report is kept (the tree is measured as it is)
        assert stored(cache) == (2 if step < 3 else 3), f"step {step}: not made from the base"
    assert any(len(g.members) == 2 for g in made.clone_groups)
    assert made.skipped and made.clone_lines > 0


def test_many_changed_files_are_pooled_again_and_the_base_renewed(
    make_tree, tmp_path: Path
) -> None:
    files = {f"m{i}.py": branchy(f"f{i}", 2 + i % 3) for i in range(12)}
    tree, cache = make_tree(files), tmp_path / "cache"
    measured(tree, cache)
    for name in files:
        (tree / name).write_text(files[name] + "\n\ny = 2\n")
    assert measured(tree, cache) == measured(tree, None)
    assert stored(cache) == 3  # both reports and the one base of their context
