"""Regenerate the reference data of `tests/code/test_fidelity.py` with the paper's tool.

Needs scb-check==0.1.0 (SlopCodeBench's reference checker) on Python 3.12;
it is not a dependency of slopmark and the test suite never runs this script.
Only the numbers the tool prints are stored; none of its code is copied.

    /path/to/py312/bin/python tests/code/fidelity/make_reference.py fixture
        -> tests/code/fidelity/reference_fixture.json
    /path/to/py312/bin/python tests/code/fidelity/make_reference.py flask /src/flask-3.1.3
        -> tests/code/fidelity/flask_3_1_3.json (per-callable rows and the paper's Table 2)

`fixture` records, for tests/code/fidelity/reference_fixture/, every callable as
(file, line, name, cc, sloc) from `scb_check.analysis`, the clone blocks, and
the totals `scb-check check DIR --report` prints (total_loc, clone_loc,
erosion).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from scb_check.analysis import clones, loc, parse, symbols

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "reference_fixture"
TOOL = "scb-check 0.1.0"
#: SlopCodeBench, Table 2: flask 3.1.3 as measured by the authors.
FLASK_TABLE_2 = {"erosion": 0.209, "verbosity": 0.111}
COLUMNS = ["file", "name", "line", "cc", "sloc"]


def parsed_files(root: Path) -> list[tuple[Path, str, Any]]:
    files = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        files.append((path, source, parse.parse_source(source)))
    return files


def callables(root: Path) -> list[dict[str, Any]]:
    rows = []
    for path, source, tree in parsed_files(root):
        sloc_lines = loc.sloc_line_numbers(source, tree)
        for symbol in symbols.extract_functions(path, tree, sloc_lines):
            rows.append(
                {
                    "file": path.relative_to(root).as_posix(),
                    "line": symbol.start[0],
                    "name": symbol.name,
                    "cc": symbol.cyc_complexity,
                    "sloc": symbol.sloc,
                }
            )
    return sorted(rows, key=lambda row: (row["file"], row["line"]))


def clone_blocks(root: Path) -> list[dict[str, Any]]:
    found = clones.detect_clones(tuple(parsed_files(root)))
    rows = [
        {
            "file": block.file.relative_to(root).as_posix(),
            "start": block.start_line,
            "end": block.end_line,
            "group": block.group_hash,
        }
        for block in found
    ]
    return sorted(rows, key=lambda row: (row["file"], row["start"]))


def totals(root: Path) -> dict[str, Any]:
    tool = Path(sys.executable).with_name("scb-check")
    done = subprocess.run(
        [str(tool), "check", str(root), "--report"], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    return {key: report[key] for key in ("total_loc", "clone_loc", "erosion")}


def fixture_reference() -> dict[str, Any]:
    return {
        "tool": TOOL,
        "callables": callables(FIXTURE),
        "clones": clone_blocks(FIXTURE),
        "totals": totals(FIXTURE),
    }


def flask_reference(source: Path) -> dict[str, Any]:
    prefix = source.name
    rows = [
        [f"{prefix}/{row['file']}", row["name"], row["line"], row["cc"], row["sloc"]]
        for row in callables(source)
    ]
    return {"tool": TOOL, "table_2": FLASK_TABLE_2, "columns": COLUMNS, "callables": rows}


def write(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON with one list item per line, for reviewable diffs."""
    fields = []
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
            items = ",\n".join(f"  {json.dumps(item)}" for item in value)
            fields.append(f"{json.dumps(key)}: [\n{items}\n ]")
        else:
            fields.append(f"{json.dumps(key)}: {json.dumps(value)}")
    path.write_text("{\n " + ",\n ".join(fields) + "\n}\n", encoding="utf-8")
    print(f"wrote {path}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["fixture"]:
        write(HERE / "reference_fixture.json", fixture_reference())
    elif argv[:1] == ["flask"] and len(argv) == 2:
        write(HERE / "flask_3_1_3.json", flask_reference(Path(argv[1])))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
