"""The bad-input contract of issue 12, item by item: the real CLI in a subprocess, real
SQLite files, a real fake model server and a real uvicorn server."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cli.workspace import PAPER, PROBLEMS, build, cli
from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer

pytestmark = pytest.mark.slow  # starts bash, python

openai_server = fake.openai_server

#: What a test of one line on stderr, and nothing else, looks for.
ONE_LINE = "slopmark: error: "


def one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    lines = done.stderr.splitlines()
    assert done.returncode == code, (done.returncode, done.stdout[-800:], done.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith(ONE_LINE), done.stderr[-2000:]
    return lines[0]


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("ws"))


# --- tracebacks become one line ----------------------------------------------------------

WRITERS = {
    "--sarif": ("code", "measure", "tree", "--sarif"),
    "--findings": ("paper", "measure", "paper", "--measures", "deterministic", "--findings"),
    "--out": ("tasks", "generate", "--domain", "math", "--out"),
    "--junit": ("board", "gate", "--model", "m1", "--domain", "math", "--min-pass-rate", "0",
                "--db", "store.db", "--junit"),
}  # fmt: skip
TARGETS = {
    "a folder": ("folder", "is a folder"),
    "a missing folder": ("no/such/x.out", "does not exist; create the folder first"),
    "a full device": ("/dev/full", "cannot write it: No space left on device"),
    "inside a file": ("file.txt/x.out", "is not a folder"),
}


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("option", list(WRITERS))
def test_an_output_file_that_cannot_be_written_is_one_line(
    ws: Path, option: str, target: str
) -> None:
    path, message = TARGETS[target]
    line = one_line(cli(*WRITERS[option], path, cwd=ws))
    assert f"{option} '{path}'" in line and message in line


def test_bench_run_out_on_a_file_is_one_line(ws: Path) -> None:
    args = ("code", "bench", "run", "--problems", "problems", "--agent", "replay")
    line = one_line(cli(*args, "--out", "file.txt", "--db", "store.db", cwd=ws))
    assert "--out 'file.txt'" in line and "is a file; give a folder" in line


@pytest.mark.parametrize("db", ["sqlite:///file.txt", "file.txt"])
def test_board_show_on_a_file_that_is_not_a_database_is_one_line(ws: Path, db: str) -> None:
    line = one_line(cli("board", "show", "--db", db, cwd=ws))
    assert "--db 'sqlite:///file.txt': cannot open the store: file is not a database" in line


@pytest.mark.parametrize(
    "flags",
    [
        ("--sigma", "1e300", "--margin", "1e-300"),
        ("--sigma", "1e200", "--margin", "1e-200", "--cluster-size", "1e300", "--icc", "1"),
        ("--detect", "1e-300", "--sigma-diff", "1e300"),
    ],
)
def test_sample_size_extremes_are_one_line(flags: tuple[str, ...]) -> None:
    assert "too large to compute" in one_line(cli("stats", "sample-size", *flags))


# --- a gate over nothing measured fails ----------------------------------------------------


@pytest.mark.parametrize(
    "files", [{}, {"broken.py": b"def f(:\n"}, {"bad.py": b"x = '\xff'\n"}], ids=str
)
def test_a_gate_over_nothing_measured_fails(tmp_path: Path, files: dict[str, bytes]) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    for name, data in files.items():
        (tree / name).write_bytes(data)
    done = cli("code", "measure", str(tree), "--fail-over", "erosion=0.1")
    line = one_line(done, code=1)
    assert "nothing was measured" in line and f"{len(files)} skipped" in line


def test_a_gate_on_an_undefined_measure_fails(tmp_path: Path) -> None:
    (tmp_path / "script.py").write_text("print('no callables here')\n")
    line = one_line(cli("code", "measure", str(tmp_path), "--fail-over", "erosion=0.5"), 1)
    assert "erosion is undefined (no callables measured)" in line


# --- plain paths as stores, and the variable named when it is the source -------------------


def test_a_plain_path_is_a_sqlite_store_in_db_and_the_variable(ws: Path, tmp_path: Path) -> None:
    by_flag = cli("board", "show", "--json", "--db", str(ws / "store.db"))
    by_variable = cli("board", "show", "--json", env={"SLOPMARK_DB": str(ws / "store.db")})
    assert by_flag.returncode == by_variable.returncode == 0, by_flag.stderr + by_variable.stderr
    assert json.loads(by_flag.stdout) == json.loads(by_variable.stdout)
    assert {row["model"] for row in json.loads(by_flag.stdout)["boards"][0]["rows"]} == {"m1", "m2"}
    relative = cli("board", "show", "--json", cwd=ws, env={"SLOPMARK_DB": "store.db"})
    assert relative.returncode == 0 and json.loads(relative.stdout) == json.loads(by_flag.stdout)


def test_an_error_about_the_store_names_the_variable_it_came_from(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "store.db"
    line = one_line(cli("board", "show", env={"SLOPMARK_DB": str(missing)}))
    assert line.startswith(f"{ONE_LINE}$SLOPMARK_DB 'sqlite:///{missing}'"), line
    assert "--db" not in line


def test_the_sqlite_hint_only_where_it_applies(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "store.db"
    line = one_line(cli("eval", "paste", "--task", "math.ages.0", "--db", str(missing), stdin="5"))
    assert f"the folder {missing.parent} does not exist: create it first" in line
    line = one_line(cli("board", "show", "--db", str(missing)))  # a read creates nothing
    assert f"no store at {missing}" in line and "folder" not in line
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    postgres = f"postgresql+psycopg://u@127.0.0.1:{port}/db"
    line = one_line(cli("board", "show", "--db", postgres))
    assert "cannot open the store" in line and "folder" not in line and "SQLite" not in line


# --- a read command never writes to a store it does not recognise -------------------------


@pytest.mark.parametrize(
    "command",
    [("board", "show"), ("board", "export", "--format", "json"), ("board", "adequacy")],
)
def test_a_foreign_sqlite_file_is_refused_and_left_byte_for_byte(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, note TEXT)")
    before = hashlib.sha256(foreign.read_bytes()).hexdigest()
    line = one_line(cli(*command, "--db", str(foreign)))
    assert "not a slopmark store (it has other tables: runs)" in line
    assert hashlib.sha256(foreign.read_bytes()).hexdigest() == before
    with sqlite3.connect(foreign) as connection:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
    assert tables == {"runs"}  # no alembic_version written into it


# --- usage errors are one line ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("eval", "run", "--model", "openai-compat:m", "--domain", "math", "--concurrency", "0"),
         "eval run: Invalid value for '--concurrency'"),
        (("code", "history", ".", "--commits", "-3"), "(given '-3')"),
        (("code", "measure"), "code measure: Missing argument"),
        (("board", "export", "--format", "xml"), "'xml' is not one of"),
        (("code", "rules", "--no-such-option"), "No such option: --no-such-option"),
        (("no-such-command",), "No such command 'no-such-command'"),
    ],
)  # fmt: skip
def test_a_usage_error_is_one_line_not_a_box(args: tuple[str, ...], fragment: str) -> None:
    line = one_line(cli(*args))
    assert fragment in line and "╭" not in line


# --- conflicting or ignored options are refused -------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("code", "history", "repo", "--commits", "3", "--sample", "5"), "give one"),
        (("code", "history", "repo", "--commits", "3", "--seed", "1"), "nothing is sampled"),
        (("code", "measure", "tree", "--json", "--top", "5"), "only the tables use it"),
        (("paper", "views", "paper", "--prose", "--structure"), "give one"),
        (("stats", "sample-size", "--sigma", ".2", "--margin", ".03", "--icc", ".2"),
         "needs --cluster-size"),
        (("paper", "measure", "paper", "--measures", ""), "name at least one measure"),
        (("board", "show", "--model", "", "--db", "store.db"), "--model '': is empty"),
        (("eval", "paste", "--task", "math.ages.0", "--model", "", "--output-file",
          "answer.txt", "--db", "store.db"), "--model '': is empty"),
        (("eval", "paste", "--task", "math.ages.0", "--db", "store.db"),
         "the answer on stdin is empty"),
        (("board", "export", "--format", "json", "--tasks", "all", "--db", "store.db"),
         "only a leaderboard export uses it"),
    ],
)  # fmt: skip
def test_a_conflicting_or_ignored_option_is_refused(
    ws: Path, args: tuple[str, ...], fragment: str
) -> None:
    assert fragment in one_line(cli(*args, cwd=ws))


# --- a closed pipe is not a failure -------------------------------------------------------


@pytest.mark.parametrize("args", [("code", "rules"), ("tasks", "list", "--json")])
def test_a_reader_that_goes_away_is_not_a_failure(args: tuple[str, ...]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "slopmark", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| head -1` does, before a byte is written
    assert process.wait(timeout=120) in (0, 141)
    assert process.stderr.read() == b""
    process.stderr.close()


def test_head_of_the_rules_exits_as_unix_tools_do() -> None:
    script = f"set -o pipefail; {sys.executable} -m slopmark code rules | head -1"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 141) and done.stderr == ""
    assert len(done.stdout.splitlines()) == 1


# --- paper bench: errors on stderr, empty input refused -----------------------------------


def test_paper_bench_on_an_empty_pairs_file_exits_2(tmp_path: Path) -> None:
    pairs = tmp_path / "PAIRS.jsonl"
    pairs.write_text("\n")
    assert "no usable pair in it" in one_line(cli("paper", "bench", str(pairs)))


def test_paper_bench_reports_what_it_left_out_on_stderr(tmp_path: Path) -> None:
    shutil.copy(PAPER, tmp_path / "a.tex")
    lines = [{"ai": "a.tex", "human": "a.tex"}, {"ai": "missing.tex", "human": "a.tex"}]
    pairs = tmp_path / "PAIRS.jsonl"
    pairs.write_text("".join(json.dumps(line) + "\n" for line in lines) + "not json\n")
    done = cli("paper", "bench", str(pairs), "--measures", "deterministic")
    assert done.returncode == 2
    assert "left out" not in done.stdout and "Pair benchmark" in done.stdout
    errors = done.stderr.splitlines()
    assert len(errors) == 2 and all(e.startswith(ONE_LINE) for e in errors), done.stderr
    assert any("missing.tex" in e for e in errors) and any(":3:" in e for e in errors)


# --- board export offers both kinds in both formats ---------------------------------------


def test_board_export_runs_and_leaderboard_as_json_and_csv(ws: Path) -> None:
    base = ("board", "export", "--db", "store.db", "--format")
    runs_csv = cli(*base, "csv", "--what", "runs", cwd=ws)
    boards_json = cli(*base, "json", "--what", "leaderboard", cwd=ws)
    runs_json = cli(*base, "json", cwd=ws)
    boards_csv = cli(*base, "csv", cwd=ws)
    for done in (runs_csv, boards_json, runs_json, boards_csv):
        assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(runs_csv.stdout)))
    records = json.loads(runs_json.stdout)["runs"]
    assert len(rows) == len(records) == 16
    assert [row["task_id"] for row in rows] == [record["task_id"] for record in records]
    assert rows[0]["created_at"] == records[0]["created_at"]
    boards = json.loads(boards_json.stdout)
    assert boards["format"] == "slopmark.leaderboards/1"
    models = {row["model"] for board in boards["boards"] for row in board["rows"]}
    assert models == {row["model"] for row in csv.DictReader(io.StringIO(boards_csv.stdout))}


# --- the mass column says what mass is ----------------------------------------------------


@pytest.mark.parametrize(
    ("term", "formula"), [("sqrt", "CC × √SLOC"), ("linear", "CC × SLOC"), ("none", "CC)")]
)
def test_the_mass_column_is_labelled_by_the_size_term(ws: Path, term: str, formula: str) -> None:
    done = cli("code", "measure", "tree", "--size-term", term, cwd=ws)
    assert done.returncode == 0, done.stderr
    title = next(line for line in done.stdout.splitlines() if "top callables by mass" in line)
    assert f"({formula}" in title and (term == "sqrt" or "√" not in title)


# --- invalid UTF-8 is skipped, as Python would not run it ---------------------------------


def test_a_file_python_cannot_decode_is_skipped_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_bytes(b"def f():\n    return '\xff'\n")
    (tmp_path / "cookie.py").write_bytes(b"# coding: no-such-codec\nx = 1\n")
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\ndef g():\n    return '\xff'\n")
    # valid UTF-8, but line 2 declares ASCII, which the accent is not
    ascii_cookie = "#!/usr/bin/env python\n# coding: ascii\nname = 'é'\n".encode()
    (tmp_path / "ascii.py").write_bytes(ascii_cookie)
    done = cli("code", "measure", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert skipped["bad.py"] == "not valid utf-8 (byte 0xff at offset 21); Python would not run it"
    assert "unknown encoding: no-such-codec" in skipped["cookie.py"]
    assert skipped["ascii.py"].startswith("not valid ascii (byte 0xc3 at offset 46)")
    assert [f["path"] for f in report["files"]] == ["latin.py"]  # declared, so valid


# --- the README names agents as the registry does -----------------------------------------


def test_the_readme_names_every_agent_as_the_registry_does() -> None:
    listed = cli("code", "bench", "agents")
    assert listed.returncode == 0
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    for name in names:
        assert f"`{name}`" in readme, name
        if "-" in name:
            assert f"`{name.replace('-', '_')}`" not in readme, name


# --- tables at 80 columns -----------------------------------------------------------------


def _no_value_cut(text: str) -> None:
    assert "…" not in text, text
    assert all(len(line) <= 80 for line in text.splitlines()), text


def test_history_in_a_pipe_keeps_whole_dates(tmp_path: Path) -> None:
    """A commit without callables has an undefined erosion, "undefined (n=0)": the
    widest cell, which used to squeeze the dates to "2026-03-…"."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    env = {"GIT_AUTHOR_DATE": "2026-03-01T12:00:00", "GIT_COMMITTER_DATE": "2026-03-01T12:00:00"}
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    sources = ["VALUE = 1\n", "def f(x):\n    return x\n" * 40]
    for number, source in enumerate(sources):
        (tmp_path / f"m{number}.py").write_text(source)
        subprocess.run([*git, "add", "."], cwd=tmp_path, check=True)
        subprocess.run([*git, "commit", "-qm", f"c{number}"], cwd=tmp_path, check=True,
                       env=os.environ | env)  # fmt: skip
    done = cli("code", "history", str(tmp_path), "--commits", "2")
    assert done.returncode == 0, done.stderr
    _no_value_cut(done.stdout)
    assert done.stdout.count("2026-03-01") == 2 and "undefined" in done.stdout


def test_a_wide_board_in_a_narrow_terminal_keeps_every_value(ws: Path) -> None:
    done = cli("board", "show", "--db", "store.db", cwd=ws, env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_bench_run_with_a_relative_out_reads_whole_at_80_columns() -> None:
    # A short folder: the run folder, resolved, is one line at 80 columns (a pytest-xdist
    # worker's tmp_path alone is longer than that).
    with tempfile.TemporaryDirectory(prefix="sm-") as name:
        root = Path(name)
        shutil.copytree(PROBLEMS, root / "problems")
        args = ("code", "bench", "run", "--problems", "problems", "--agent", "replay",
                "--sandbox", "bwrap", "--out", "runs/first", "--db", "store.db")  # fmt: skip
        done = cli(*args, cwd=root)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert (root / "runs" / "first" / "run.json").is_file()
        assert str(root / "runs" / "first") in done.stdout  # the folder, resolved
    _no_value_cut(done.stdout)
    for header in ("erosion", "regression", "wall s", "wordcount"):
        assert header in done.stdout


# --- eval run: an unreachable endpoint stops at once; progress lines off a terminal -------


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_eval_run_stops_at_once_when_nothing_can_be_reached(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    args = ("eval", "run", "--model", "openai-compat:m", "--domain", "math", "--base-url", url)
    done = cli(*args, "--db", str(db), "--retries", "1")
    retrying, line = done.stderr.splitlines()  # the retry is said at once, then one error line
    assert retrying.startswith(f"slopmark: cannot reach {url}: ") and "attempt 1 of 2" in retrying
    assert done.returncode == 2 and line.startswith(ONE_LINE)
    assert f"cannot reach {url}" in line and "the suite stopped with no run stored" in line
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM runs").fetchone() == (0,)


def test_eval_run_prints_progress_lines_when_stderr_is_not_a_terminal(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    args = ("eval", "run", "--model", "openai-compat:fake", "--domain", "math", "--limit", "20",
            "--base-url", openai_server.base_url, "--db", str(tmp_path / "runs.db"))  # fmt: skip
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    *lines, store = done.stderr.splitlines()
    assert store == f"slopmark: store: {tmp_path / 'runs.db'} (--db)"
    assert 2 <= len(lines) <= 11, lines
    assert all(line.startswith("math × fake: ") for line in lines)
    assert lines[-1].startswith("math × fake: 20/20 done")
