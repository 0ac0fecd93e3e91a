"""Bad input in every language: reported, measured where possible, never a crash or hang.

A file with syntax errors is measured (tree-sitter's error nodes are walked like any
other node) and its notes give the first error's place; undecodable bytes are replaced
and noted; a generated 20 MB file is reported with its size (and measured when the size
limit is raised); minified JavaScript on one 100,000-character line is measured.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import cli_json
from slopmark.code.measure.measure_tree import MeasureOptions, measure_tree
from slopmark.code.measure.report import FileMetrics, TreeReport

#: Per language: a file whose second function is cut off mid-way, and the CC of the
#: complete first function (which must still be measured).
BROKEN = {
    "broken.js": ("function ok(a) {\n  return a && 1;\n}\n\nfunction cut(b) {\n  if (b {\n", 2),
    "broken.ts": ("function ok(a: number) {\n  return a > 0 ? 1 : 0;\n}\nclass X { m( {\n", 2),
    "broken.tsx": ("const ok = (a: boolean) => (a ? <p/> : null);\nconst bad = <div>\n", 2),
    "broken.go": ("package p\n\nfunc ok(a bool) bool {\n\treturn a || !a\n}\n\nfunc cut( {\n", 2),
    "Broken.java": (
        "class B {\n  int ok(int a) {\n    if (a > 0) { return 1; }\n"
        "    return 0;\n  }\n  void cut( {\n}\n",
        2,
    ),  # fmt: skip
    "broken.rs": ("fn ok(a: Option<u8>) -> u8 {\n    a.unwrap_or(0)\n}\n\nfn cut( {\n", 1),
}


def measure(folder: Path, **options: object) -> TreeReport:
    return measure_tree(folder, MeasureOptions(**options))  # type: ignore[arg-type]


def only_file(report: TreeReport) -> FileMetrics:
    assert len(report.files) == 1, (report.files, report.skipped)
    return report.files[0]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_syntax_errors_are_located_and_the_rest_measured(tmp_path: Path, name: str) -> None:
    text, cc = BROKEN[name]
    (tmp_path / name).write_text(text, encoding="utf-8")
    found = only_file(measure(tmp_path))
    assert [n for n in found.notes if "syntax error at line" in n], found.notes
    assert "the rest of the file was measured" in found.notes[0]
    ok = [c for c in found.callables if c.qualname.endswith("ok")]
    assert [c.cc for c in ok] == [cc]


@pytest.mark.slow
def test_a_broken_file_is_reported_by_the_cli(tmp_path: Path) -> None:
    (tmp_path / "broken.go").write_text(BROKEN["broken.go"][0], encoding="utf-8")
    report = cli_json("code", "measure", str(tmp_path))
    (entry,) = report["files"]
    assert entry["language"] == "go" and entry["callables"][0]["qualname"] == "ok"
    assert entry["notes"][0].startswith("syntax error at line 7")


@pytest.mark.parametrize("name", ["latin1.js", "latin1.go", "Latin1.java", "latin1.rs"])
def test_undecodable_bytes_are_replaced_and_noted(tmp_path: Path, name: str) -> None:
    bodies = {
        ".js": b"function f(a) { return a ? '\xe9t\xe9' : ''; }\n",
        ".go": b'package p\n\nfunc f(a bool) string { if a { return "\xe9" }; return "" }\n',
        ".java": b'class L { String f(boolean a) { return a ? "\xe9" : ""; } }\n',
        ".rs": b'fn f(a: bool) -> &\'static str { if a { "\xe9" } else { "" } }\n',
    }
    (tmp_path / name).write_bytes(bodies[Path(name).suffix])
    found = only_file(measure(tmp_path))
    assert any("undecodable bytes" in note for note in found.notes), found.notes
    assert [c.cc for c in found.callables] == [2]


def generated_go(size: int) -> str:
    """A generated Go file of about ``size`` bytes: many small functions."""
    one = "func f{n}(a int) int {{\n\tif a > {n} {{\n\t\treturn a\n\t}}\n\treturn {n}\n}}\n\n"
    count = size // len(one.format(n=0)) + 1
    return "package gen\n\n" + "".join(one.format(n=n) for n in range(count))


@pytest.mark.slow
def test_a_20_mb_generated_file_is_reported_not_read(tmp_path: Path) -> None:
    (tmp_path / "gen.go").write_text(generated_go(20 * 2**20), encoding="utf-8")
    assert (tmp_path / "gen.go").stat().st_size >= 20 * 2**20
    (tmp_path / "small.go").write_text("package gen\n\nfunc g() {}\n", encoding="utf-8")
    report = cli_json("code", "measure", str(tmp_path))
    assert [f["path"] for f in report["files"]] == ["small.go"]
    (skipped,) = report["skipped"]
    assert skipped["path"] == "gen.go"
    assert skipped["reason"].endswith("MiB is over the 10 MiB limit (generated?)")


@pytest.mark.slow
def test_a_20_mb_generated_table_is_measured_when_allowed(tmp_path: Path) -> None:
    row = "\t" + ", ".join(str(n) for n in range(1000, 1100)) + ",\n"
    rows = 20 * 2**20 // len(row) + 1
    text = "package gen\n\nvar table = []int{\n" + row * rows + "}\n\n"
    text += (
        "func lookup(i int) int {\n\tif i < len(table) {\n\t\treturn table[i]\n\t}\n\treturn 0\n}\n"
    )
    (tmp_path / "table.go").write_text(text, encoding="utf-8")
    found = only_file(measure(tmp_path, max_file_bytes=32 * 2**20))
    assert found.sloc == rows + 9
    assert [(c.qualname, c.cc) for c in found.callables] == [("lookup", 2)]


def test_minified_javascript_on_one_long_line(tmp_path: Path) -> None:
    parts = [f"function f{n}(a){{return a&&a.x{n}?a.y:{n}}}" for n in range(2500)]
    line = ";".join(parts)
    assert len(line) >= 100_000 and "\n" not in line
    (tmp_path / "bundle.min.js").write_text(line + "\n", encoding="utf-8")
    found = only_file(measure(tmp_path))
    assert found.sloc == 1 and not found.notes
    assert len(found.callables) == 2500 and {c.cc for c in found.callables} == {3}
