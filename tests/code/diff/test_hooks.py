"""The pre-commit hook for real (`pre-commit try-repo`) and the GitHub Action's shell
steps under a fake GitHub environment (acceptance 3)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .repos import branchy, git, new_repo, write

pytestmark = pytest.mark.slow  # starts bash, pre-commit

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent


def _environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    env["GIT_AUTHOR_NAME"] = env["GIT_COMMITTER_NAME"] = "t"
    env["GIT_AUTHOR_EMAIL"] = env["GIT_COMMITTER_EMAIL"] = "t@t"
    return env


def _try_repo(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(BIN / "pre-commit"), "try-repo", str(ROOT), "slopmark-diff", *args]
    return _run([*command, "--color", "never"], repo, env)


def _run(command: list[str], repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)


def _readme_local_hook() -> str:
    """The README's `repo: local` pre-commit config, as a user would paste it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL)
    return next(block for block in blocks if "- repo: local" in block)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    return new_repo(tmp_path / "scratch", {"app.py": "def main():\n    return 0\n"})


def test_pre_commit_hook_fails_on_slop_and_passes_clean(scratch: Path, tmp_path: Path) -> None:
    if not (BIN / "pre-commit").exists():
        pytest.fail("pre-commit is not installed: pip install -e '.[dev]'")
    env = _environment(tmp_path)
    write(scratch, {"app.py": "def main():\n    return 0\n\n\n" + branchy("dispatch", 14)})
    git(scratch, "add", "app.py")
    failed = _try_repo(scratch, env)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "new-complex: `dispatch` (app.py:5, CC 14)" in failed.stdout

    git(scratch, "reset", "-q", "--hard")
    clean = "def main():\n    return 0\n\n\ndef version():\n    return '1.0'\n"
    write(scratch, {"app.py": clean})
    git(scratch, "add", "app.py")
    passed = _try_repo(scratch, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_try_repo_at_a_commit_of_the_checkout(scratch: Path, tmp_path: Path) -> None:
    """The remote form's `rev:` resolved: the hook as committed at HEAD (no working tree)."""
    write(scratch, {"app.py": "def main():\n    return 0\n\n\n" + branchy("dispatch", 12)})
    git(scratch, "add", "app.py")
    failed = _try_repo(scratch, _environment(tmp_path), "--ref", "HEAD")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "new-complex: `dispatch` (app.py:5, CC 12)" in failed.stdout


def test_readme_local_hook_gates_a_commit(scratch: Path, tmp_path: Path) -> None:
    """The README's `repo: local` config, installed as the git hook: a commit adding a
    complex function is refused, a clean one goes through."""
    env = _environment(tmp_path)
    write(scratch, {".pre-commit-config.yaml": _readme_local_hook()})
    git(scratch, "add", ".pre-commit-config.yaml")
    installed = _run([str(BIN / "pre-commit"), "install"], scratch, env)
    assert installed.returncode == 0, installed.stderr
    write(scratch, {"app.py": "def main():\n    return 0\n\n\n" + branchy("route", 13)})
    git(scratch, "add", "app.py")
    refused = _run(["git", "commit", "-qm", "slop"], scratch, env)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "new-complex: `route` (app.py:5, CC 13)" in refused.stdout + refused.stderr
    write(scratch, {"app.py": "def main():\n    return 1\n"})
    git(scratch, "add", "app.py")
    done = _run(["git", "commit", "-qm", "clean"], scratch, env)
    assert done.returncode == 0, done.stdout + done.stderr


def _expression(text: str, context: dict[str, str]) -> str:
    """``${{ a.b }}`` expressions replaced by the fake context (unknown ones: empty)."""
    return re.sub(r"\$\{\{\s*([^}]+?)\s*\}\}", lambda m: context.get(m.group(1), ""), text)


def test_action_steps_write_sarif_and_summary(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "pr", {"lib.py": "def main():\n    return 0\n"})
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, {"lib.py": "def main():\n    return 0\n\n\n" + branchy("route", 13)})
    git(repo, "commit", "-qam", "pull request")
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    context = {
        "inputs.install": "false",
        "inputs.base": base,
        "inputs.head": "HEAD",
        "inputs.fail-on": "new-complex",
        "inputs.max-increase": "erosion=0.5",
        "inputs.sarif": "out.sarif",
        "github.server_url": "https://github.example",
        "github.repository": "octo/pr",
        "github.sha": "abc123",
    }
    env = _environment(tmp_path) | {
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_ACTIONS": "true",
        "RUNNER_TEMP": str(runner_temp),
    }
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    statuses = []
    for step in action["runs"]["steps"]:
        if "run" not in step:
            continue  # `uses:` steps (the SARIF upload) need GitHub itself
        assert step["shell"] == "bash"
        assert "${{" not in step["run"], "inputs must reach scripts through env"
        context["steps.diff.outputs.exit-code"] = _outputs(output).get("exit-code", "")
        step_env = {k: _expression(str(v), context) for k, v in step.get("env", {}).items()}
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]], cwd=repo, env=env | step_env,
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        statuses.append(done.returncode)
    assert statuses == [0, 0, 1]  # install skipped, diff ran (its status kept), gate failed
    outputs = _outputs(output)
    assert outputs == {"exit-code": "1", "sarif": "out.sarif"}
    sarif = (repo / "out.sarif").read_text()
    assert '"complex-callable"' in sarif and "route" in sarif
    text = summary.read_text()
    assert "### slopmark" in text
    assert "[lib.py:5](https://github.example/octo/pr/blob/abc123/lib.py#L5)" in text


def _outputs(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def test_hook_manifest_runs_on_staged_python() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "slopmark-diff")
    assert hook["entry"].startswith("slopmark code diff --staged")
    assert hook["language"] == "system" and hook["pass_filenames"] is False
    assert shutil.which("git")
