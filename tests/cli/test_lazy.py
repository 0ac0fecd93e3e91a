"""The CLI imports only the command group it runs (`slopmark.cli.lazy`).

`slopmark code diff` runs in pre-commit hooks, so its start-up must not pay for the
server, the paper measures, the evals or the store. Each check runs a fresh
interpreter and reads its ``sys.modules``: a new top-level import of a heavy group
(or of its dependencies) in the CLI's start-up path fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clirun import run_cli
from slopmark.cli.main import RootGroup

pytestmark = pytest.mark.slow  # starts python

#: Modules the CLI's start-up and `code diff` must not load (packages: any module under).
HEAVY = (
    "slopmark.server",
    "slopmark.paper",
    "slopmark.evals",
    "slopmark.board",
    "slopmark.store",
    "slopmark.llm",
    "slopmark.code.bench",
    "slopmark.code.study",
    "slopmark.cli.board",
    "slopmark.cli.paper",
    "slopmark.cli.evals",
    "slopmark.cli.bench",
    "sqlalchemy",
    "fastapi",
    "openai",
    "numpy",
    "sympy",
    "jsonschema",
)

#: Prints the modules loaded after running the CLI with the given arguments.
PROBE = """
import json, sys
from slopmark.cli.main import main
sys.argv = ["slopmark", *sys.argv[1:]]
try:
    if len(sys.argv) > 1:
        main()
finally:
    sys.stdout.flush()
    print("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""


def loaded(*args: str, cwd: Path | None = None) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=cwd
    )
    assert "Traceback" not in done.stderr, done.stderr
    line = done.stdout.rsplit("MODULES ", 1)[1]
    return set(json.loads(line))


def heavy(modules: set[str], names: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in names))


def test_importing_the_cli_loads_no_command_group() -> None:
    modules = loaded()
    assert not heavy(modules, (*HEAVY, "slopmark.cli.code", "rich", "yaml", "pydantic"))
    assert "typer" in modules  # the probe ran the real import


def test_a_warm_json_code_diff_loads_no_other_group_nor_yaml_nor_rich(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def f(x):\n    return x\n", encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    (repo / "a.py").write_text("def f(x):\n    if x:\n        return 1\n    return x\n")
    assert run_cli("code", "diff", "-C", str(repo)).returncode == 0  # fills the cache
    modules = loaded("code", "diff", "-C", str(repo), "--json")
    assert "slopmark.code.measure.measure_diff" in modules  # the diff really ran
    assert not heavy(modules, (*HEAVY, "yaml", "rich"))  # JSON needs no terminal output


def test_every_group_is_listed_and_loads_on_demand() -> None:
    done = run_cli("--help")
    assert done.returncode == 0, done.stderr
    listed = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("│ ")]
    assert [name for name in listed if name in RootGroup.lazy] == list(RootGroup.lazy)
    for name in RootGroup.lazy:
        help_done = run_cli(name, "--help")
        assert help_done.returncode == 0 and "Usage: slopmark " + name in help_done.stdout


def test_looking_up_one_group_loads_that_group_only() -> None:
    modules = loaded("stats", "--help")
    assert "slopmark.cli.stats" in modules
    assert not heavy(modules, ("slopmark.cli.code", "slopmark.cli.board", "slopmark.cli.paper"))


def test_completion_finds_the_commands_of_lazy_groups() -> None:
    from typer._click.shell_completion import ShellComplete
    from typer.main import get_command

    from slopmark.cli.main import app

    class Probe(ShellComplete):
        """Click's completion logic without a shell's wire format."""

        def source_vars(self) -> dict[str, str]:
            return {}

        def get_completion_args(self) -> tuple[list[str], str]:
            return [], ""

        def format_completion(self, item: object) -> str:
            return str(item)

    probe = Probe(get_command(app), {}, "slopmark", "_SLOPMARK_COMPLETE")
    assert [c.value for c in probe.get_completions([], "c")] == ["code"]
    code = [c.value for c in probe.get_completions(["code"], "")]
    assert {"diff", "measure", "history", "rules", "bench", "study"} <= set(code)
    assert [c.value for c in probe.get_completions(["code", "diff"], "--lang")] == ["--language"]
    assert "run" in [c.value for c in probe.get_completions(["code", "bench"], "")]
