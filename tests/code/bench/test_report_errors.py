"""A malformed run.json or result.json: `code bench report` (with and without --json,
--plot) and `compare` say so in one line on stderr naming the file, and exit 2."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.clirun import run_cli
from tests.code.bench.test_compare import make_run, result

pytestmark = pytest.mark.slow

RUN_JSON = [
    ("{not json", "run.json: not valid JSON (Expecting property name enclosed in double quotes "
     "at line 1, column 2); restore the run.json that `bench run` wrote"),
    ('["replay"]', "run.json: holds a JSON list, not an object"),
    ('{"agent": 3, "model": "m"}', "run.json: field 'agent' is 3, not a string or null"),
]  # fmt: skip
COMMANDS = [["report"], ["report", "--json"], ["report", "--plot"], ["compare", "GOOD"]]


def good_run(root: Path, name: str) -> Path:
    return make_run(
        root, name, "replay", [result("p", 0, 2, True, 0.1), result("p", 1, 2, False, 0.2)]
    )


def one_error_line(done: subprocess.CompletedProcess[str], *parts: str) -> None:
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("slopmark: error: "), lines
    assert all(part in lines[0] for part in parts), lines[0]


@pytest.mark.parametrize(("text", "message"), RUN_JSON)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_malformed_run_json_is_one_line_naming_it(
    tmp_path: Path, text: str, message: str, command: list[str]
) -> None:
    bad = good_run(tmp_path, "bad")
    (bad / "run.json").write_text(text, encoding="utf-8")
    args = [str(good_run(tmp_path, "good")) if a == "GOOD" else a for a in command]
    done = run_cli("code", "bench", args[0], str(bad), *args[1:])
    one_error_line(done, f"{bad / 'run.json'}: ", message.removeprefix("run.json: "))
    assert not (bad / "plots").exists()


@pytest.mark.parametrize(
    ("edit", "what"),
    [
        (lambda raw: "{" + json.dumps(raw)[:40], "not valid JSON"),
        (lambda raw: json.dumps({k: v for k, v in raw.items() if k != "tests"}),
         "not a checkpoint result (KeyError: 'tests')"),
        (lambda raw: json.dumps({**raw, "quality": {"erosion": 0.1}}),
         "not a checkpoint result (TypeError"),
        (lambda raw: "null", "not a checkpoint result (AttributeError"),
    ],
    ids=["truncated", "no tests", "quality lacks fields", "null"],
)  # fmt: skip
@pytest.mark.parametrize("command", [["report", "--plot"], ["compare", "GOOD"]], ids=" ".join)
def test_a_malformed_result_json_is_one_line_naming_it(
    tmp_path: Path, edit: Callable[[dict[str, Any]], str], what: str, command: list[str]
) -> None:
    bad = good_run(tmp_path, "bad")
    path = bad / "p" / "checkpoint_2" / "result.json"
    path.write_text(edit(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")
    args = [str(good_run(tmp_path, "good")) if a == "GOOD" else a for a in command]
    done = run_cli("code", "bench", args[0], str(bad), *args[1:])
    one_error_line(done, f"{path}: {what}", "restore it, or delete it to run the checkpoint again")


def test_a_folder_without_run_json_is_named(tmp_path: Path) -> None:
    done = run_cli("code", "bench", "report", str(tmp_path), "--plot")
    one_error_line(done, f"{tmp_path}: not a bench run folder (no run.json)")
