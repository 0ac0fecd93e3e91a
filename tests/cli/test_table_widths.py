"""Every command that prints a table keeps the README's promise: in a pipe its lines fit
80 columns (or ``$COLUMNS``), and no value is cut to "…".

Each command runs as the real CLI in a subprocess with stdout a pipe, without
``COLUMNS`` (80 columns) and with ``COLUMNS=60`` and ``120``, over inputs
made wide on purpose: long model names, long file paths and function names.
Commands that need a model server or a finished bench run (``eval suite``,
``code bench report|compare``, ``code study report``, ``paper revise``) print
through the same `slopmark.cli.tables.print_table` and are not run here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cli.workspace import build, cli
from slopmark.store import insert_run, open_store

pytestmark = pytest.mark.slow

WIDTHS = [(None, 80), ("60", 60), ("120", 120)]
LONG_MODEL = "provider-with-a-long-name:an-even-longer-model-name-of-some-size-v2"
DEEP = "src/flask/helpers_for_the_request_context_and_more.py"
SHALLOW = "src/flask/app.py"


def _branchy(name: str, branches: int) -> str:
    body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(branches))
    return f"def {name}(x):\n{body}    return -1\n"


def _git(repo: Path, *args: str) -> None:
    env = os.environ | {"GIT_AUTHOR_DATE": "2026-03-01T12:00:00",
                        "GIT_COMMITTER_DATE": "2026-03-01T12:00:00"}  # fmt: skip
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(["git", *identity, *args], cwd=repo, check=True, capture_output=True, env=env)


def _repo(root: Path) -> Path:
    """Two commits: the second adds one complex function to a short-named file and three
    (with a rule hit) to a long-named one, and touches a file that adds nothing."""
    repo = root / "diffrepo"
    (repo / "src" / "flask").mkdir(parents=True)
    (repo / SHALLOW).write_text("def app(x):\n    return x\n")
    (repo / "src" / "flask" / "aaa.py").write_text("VALUE = 1\n")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    (repo / SHALLOW).write_text(_branchy("dispatch_the_request_to_its_view", 14))
    deep = [_branchy(f"handle_every_kind_of_case_number_{n}", 12 + n) for n in range(3)]
    (repo / DEEP).write_text("\n\n".join(deep) + "\n\ndef f(y):\n    return y != None\n")
    (repo / "src" / "flask" / "aaa.py").write_text("VALUE = 2\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "second")
    return repo


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The CLI tests' workspace, plus a model with a long name on the board, a mixed-language
    tree with long names and a repository whose last commit adds slop to long paths."""
    root = build(tmp_path_factory.mktemp("widths"))
    engine = open_store(f"sqlite:///{root / 'store.db'}")
    from cli.workspace import seeded_run

    for index in range(8):
        insert_run(engine, seeded_run(LONG_MODEL, index))
    insert_run(engine, seeded_run("solo", 0))  # hidden: one run, "1 run" and not "1 runs"
    engine.dispose()
    tree = root / "wide"
    (tree / "a_package_with_a_rather_long_name" / "and_a_subpackage").mkdir(parents=True)
    deep = tree / "a_package_with_a_rather_long_name" / "and_a_subpackage" / "module_name.py"
    deep.write_text(_branchy("a_function_with_a_name_long_enough_to_matter", 12))
    (tree / "widget.js").write_text("function f(x) { if (x) { return 1; } return 2; }\n")
    _repo(root)
    return root


COMMANDS = {
    "board show": ["board", "show", "--db", "store.db"],
    "board adequacy": ["board", "adequacy", "--db", "store.db"],
    "tasks list": ["tasks", "list"],
    "code measure": ["code", "measure", "wide", "--no-cache"],
    "code diff": ["code", "diff", "-C", "diffrepo", "HEAD~1", "HEAD", "--no-cache"],
    "code history": ["code", "history", "repo", "--commits", "1", "--no-cache"],
    "code rules": ["code", "rules"],
    "code bench list": ["code", "bench", "list", "--problems", "problems"],
    "paper measure": ["paper", "measure", "paper/main.tex"],
    "paper bench": ["paper", "bench", "pairs.jsonl"],
}


def _fits(text: str, width: int) -> None:
    assert "…" not in text, text
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, "\n".join(too_wide)


@pytest.mark.parametrize("columns,width", WIDTHS, ids=["pipe", "COLUMNS=60", "COLUMNS=120"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_tables_fit_the_width_whole(ws: Path, name: str, columns: str | None, width: int) -> None:
    done = cli(*COMMANDS[name], cwd=ws, env={"COLUMNS": columns} if columns else None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    _fits(done.stdout, width)
    if name == "board show":  # narrower than the name itself, it is folded, never cut
        assert LONG_MODEL in done.stdout if width >= 80 else "ze-v2" in done.stdout
    if name == "board show":
        assert "solo (1 run)" in " ".join(done.stdout.split()) and "1 runs" not in done.stdout
    if name == "paper bench":  # one pair: "1 usable pair", never "1 usable pairs"
        words = " ".join(done.stdout.split())
        assert "1 usable pair;" in words and "1 AI and 1 human paper (aggregate)" in words
    if name == "code measure":
        assert "a_function_with_a_name_long_enough_to_matter" in done.stdout


@pytest.mark.parametrize("columns", [None, "120"])  # narrower, a long name is folded
def test_code_diff_names_files_whole_in_the_order_of_what_they_added(
    ws: Path, columns: str | None
) -> None:
    done = cli(*COMMANDS["code diff"], cwd=ws, env={"COLUMNS": columns} if columns else None)
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split("changed files", 1)[1]
    order = [path for path in (DEEP, SHALLOW, "src/flask/aaa.py") if path in listed]
    assert order == [DEEP, SHALLOW, "src/flask/aaa.py"]
    assert listed.index(DEEP) < listed.index(SHALLOW) < listed.index("src/flask/aaa.py")


def test_help_says_how_code_diff_orders_files_and_h_is_help(ws: Path) -> None:
    for args in (["-h"], ["board", "-h"], ["board", "show", "-h"], ["code", "diff", "-h"]):
        short, long = cli(*args), cli(*args[:-1], "--help")
        assert short.returncode == 0, short.stderr
        assert short.stdout == long.stdout
    assert "by what they added" in " ".join(cli("code", "diff", "-h").stdout.split())
    code_help = " ".join(cli("code", "-h").stdout.split())
    assert "Python trees" not in code_help and "Rust" in code_help
