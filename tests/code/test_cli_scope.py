"""`--language` and `--scope` through the real CLI, and discovery by each ecosystem's rules
(issue 34, items 3 and 4): what is measured equals measuring a copy holding only those
files, every report says what was chosen and what it left out, and real registry sources
(a Go module with ``go mod vendor``, commons-io's sources jar) are read as their own
tools read them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from clirun import cli_json, run_cli

pytestmark = pytest.mark.slow  # starts python, git, go and mvn

NUMBERS = ("files_measured", "sloc", "callables", "erosion", "verbosity", "rule_lines",
           "clone_lines", "complex_callables")  # fmt: skip
PYTHON = '''
def parse(text, strict=False):
    if not text:
        return None
    if strict and text.startswith("#"):
        raise ValueError(text)
    for line in text.splitlines():
        if line.strip() == "":
            continue
        elif line.startswith("-"):
            return line
    return text
'''
RUST = """
pub fn classify(n: i64) -> &'static str {
    if n < 0 { "negative" } else if n == 0 { "zero" } else if n < 10 { "small" } else { "big" }
}
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def python_rust_tree(root: Path) -> dict[str, str]:
    """A generated Python + Rust project with tests, docs and examples of both."""
    return {
        "pkg/core.py": PYTHON,
        "pkg/more.py": PYTHON.replace("parse", "parse_more") + "\nX = 1\n",
        "tests/test_core.py": "def test_parse():\n    assert parse('') is None\n",
        "docs/conf.py": "project = 'x'\n" + PYTHON.replace("parse", "doc_parse"),
        "examples/demo.py": "print('demo')\n",
        "src/lib.rs": RUST,
        "tests/it.rs": "#[test]\nfn it() { assert!(true); }\n",
        "benches/speed.rs": RUST.replace("classify", "bench"),
    }


def _numbers(report: dict[str, Any]) -> dict[str, Any]:
    return {name: report[name] for name in NUMBERS}


def test_language_python_equals_a_copy_without_the_rust_files(tmp_path: Path) -> None:
    files = python_rust_tree(tmp_path)
    tree = _write(tmp_path / "mixed", files)
    only = _write(tmp_path / "python", {k: v for k, v in files.items() if k.endswith(".py")})
    chosen = cli_json("code", "measure", str(tree), "--language", "python", "--no-cache")
    copy = cli_json("code", "measure", str(only), "--no-cache")
    assert _numbers(chosen) == _numbers(copy)
    assert chosen["measured"] == {
        "languages": ["python"],
        "scopes": ["source", "tests", "examples", "docs"],
        "files_by_scope": {"source": 2, "tests": 1, "examples": 1, "docs": 1},
        "excluded": {"by_language": {"rust": 3}, "by_scope": {}},
    }
    assert [row["language"] for row in chosen["languages"]] == ["python"]


def test_scope_source_equals_a_copy_of_the_library_code(tmp_path: Path) -> None:
    files = python_rust_tree(tmp_path)
    tree = _write(tmp_path / "mixed", files)
    library = _write(tmp_path / "lib", {k: files[k] for k in ("pkg/core.py", "pkg/more.py",
                                                              "src/lib.rs")})  # fmt: skip
    chosen = cli_json("code", "measure", str(tree), "--scope", "source", "--no-cache")
    assert _numbers(chosen) == _numbers(cli_json("code", "measure", str(library), "--no-cache"))
    assert chosen["measured"]["files_by_scope"] == {"source": 3}
    assert chosen["measured"]["excluded"] == {
        "by_language": {}, "by_scope": {"tests": 3, "examples": 1, "docs": 1},
    }  # fmt: skip
    both = cli_json("code", "measure", str(tree), "--scope", "tests", "--scope", "docs")
    assert sorted(f["path"] for f in both["files"]) == [
        "benches/speed.rs", "docs/conf.py", "tests/it.rs", "tests/test_core.py",
    ]  # fmt: skip
    text = run_cli("code", "measure", str(tree), "--scope", "source", "--language", "python")
    assert text.returncode == 0, text.stderr
    assert "python, scope source (source 2); left out: 3 rust, 1 tests, 1 examples, 1 docs" in (
        " ".join(text.stdout.split())
    )


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=True)  # fmt: skip
    return done.stdout


def _repo(root: Path, files: dict[str, str]) -> Path:
    _write(root, files)
    _git(root, "init", "-q", "-b", "main")
    for key, value in (("user.email", "t@example.com"), ("user.name", "t")):
        _git(root, "config", key, value)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "all")
    return root


def test_history_and_diff_take_language_and_scope(tmp_path: Path) -> None:
    files = python_rust_tree(tmp_path)
    repo = _repo(tmp_path / "repo", files)
    history = cli_json("code", "history", str(repo), "--language", "python", "--scope", "source")
    assert (history["languages"], history["scopes"]) == (["python"], ["source"])
    head = history["commits"][-1]
    measured = cli_json("code", "measure", str(repo), "--language", "python", "--scope", "source")
    assert (head["files"], head["sloc"], head["erosion"], head["verbosity"]) == (
        measured["files_measured"], measured["sloc"], measured["erosion"], measured["verbosity"]
    )
    assert head["files_by_scope"] == {"source": 2}
    assert head["excluded"] == {
        "by_language": {"rust": 3}, "by_scope": {"tests": 1, "examples": 1, "docs": 1},
    }  # fmt: skip
    (repo / "tests" / "test_core.py").write_text(PYTHON, encoding="utf-8")
    (repo / "pkg" / "core.py").write_text(PYTHON + "\nY = 2\n", encoding="utf-8")
    diff = cli_json("code", "diff", "-C", str(repo), "--scope", "tests", "--language", "python")
    assert (diff["languages"], diff["scopes"]) == (["python"], ["tests"])
    assert [f["path"] for f in diff["files"]] == ["tests/test_core.py"]
    assert diff["measured"]["head"]["excluded"]["by_scope"] == {
        "source": 2, "examples": 1, "docs": 1,
    }  # fmt: skip
    text = run_cli("code", "diff", "-C", str(repo), "--scope", "tests", "--language", "python")
    assert text.returncode == 0, text.stderr
    assert "measured: python, scope tests (tests 1); left out: 3 rust, 2 source" in text.stdout


def test_study_measures_only_the_chosen_language_and_scope(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo", python_rust_tree(tmp_path))
    repos = tmp_path / "REPOS.txt"
    repos.write_text(f"{repo}\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    out = tmp_path / "study"
    done = run_cli("code", "study", str(repos), "--language", "python", "--scope", "source",
                   "--db", db, "--out", str(out), "--executor", "local", "--jobs", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = cli_json("code", "study", "report", str(out), "--db", db, "--min-commits", "1")
    assert report["measured"] == {
        "languages": ["python"], "scopes": ["source"],
        "excluded_at_head": {"by_language": {"rust": 3},
                             "by_scope": {"tests": 1, "examples": 1, "docs": 1}},
    }  # fmt: skip
    assert report["repositories"][0]["excluded_at_head"] == (
        report["measured"]["excluded_at_head"]
    )
    point = report["repositories"][0]["commits"][-1]
    measured = cli_json("code", "measure", str(repo), "--language", "python", "--scope", "source")
    assert (point["files"], point["sloc"], point["erosion"]) == (
        measured["files_measured"], measured["sloc"], measured["erosion"]
    )


def _commit(repo: Path, files: dict[str, str], message: str) -> str:
    _write(repo, files)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD").strip()


def test_a_python_study_of_a_python_and_rust_repository_is_measure_at_every_point(
    tmp_path: Path,
) -> None:
    """Each sampled commit of ``study --language python`` equals ``measure --language
    python`` of that commit's own tree (``git archive``), and HEAD is the last point."""
    repo = _repo(tmp_path / "repo", python_rust_tree(tmp_path))
    shas = [_git(repo, "rev-parse", "HEAD").strip()]
    for n in range(1, 4):
        shas.append(_commit(repo, {
            f"pkg/step{n}.py": PYTHON.replace("parse", f"parse{n}") * n,
            f"src/step{n}.rs": RUST.replace("classify", f"classify{n}") * n,
        }, f"step {n}"))  # fmt: skip
    repos = tmp_path / "REPOS.txt"
    repos.write_text(f"{repo}\n", encoding="utf-8")
    db, out = f"sqlite:///{tmp_path / 'runs.db'}", tmp_path / "study"
    done = run_cli("code", "study", str(repos), "--language", "python", "--db", db,
                   "--out", str(out), "--executor", "local", "--jobs", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = cli_json("code", "study", "report", str(out), "--db", db, "--min-commits", "1")
    points = report["repositories"][0]["commits"]
    assert [point["sha"] for point in points] == shas  # every commit, HEAD last
    for point in points:
        tree = _archive(repo, point["sha"], tmp_path / "archive" / point["sha"])
        measured = cli_json("code", "measure", str(tree), "--language", "python", "--no-cache",
                            "--rules-set", "paper")  # a study's default set
        assert (point["files"], point["sloc"], point["erosion"], point["verbosity"]) == (
            measured["files_measured"], measured["sloc"], measured["erosion"],
            measured["verbosity"],
        ), point["sha"]  # fmt: skip


def _archive(repo: Path, sha: str, target: Path) -> Path:
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(repo), "archive", sha], capture_output=True,
                             check=True)  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def test_a_study_reports_each_scope_side_by_side(tmp_path: Path) -> None:
    """Every commit keeps its numbers per scope, each equal to ``measure --scope S`` of that
    commit's tree; ``study report`` gives the statistics per scope beside the whole tree's
    (one repository: its HEAD mean is its HEAD value, growth (last − first)/first)."""
    repo = _repo(tmp_path / "repo", python_rust_tree(tmp_path))
    for n in (1, 2):
        _commit(repo, {f"tests/test_more{n}.py": PYTHON.replace("parse", f"check{n}") * n,
                       f"pkg/grow{n}.py": PYTHON.replace("parse", f"grow{n}")}, f"grow {n}")
    repos = tmp_path / "REPOS.txt"
    repos.write_text(f"{repo}\n", encoding="utf-8")
    db, out = f"sqlite:///{tmp_path / 'runs.db'}", tmp_path / "study"
    done = run_cli("code", "study", str(repos), "--db", db, "--out", str(out),
                   "--executor", "local", "--jobs", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = cli_json("code", "study", "report", str(out), "--db", db, "--min-commits", "1")
    commits = report["repositories"][0]["commits"]
    for point in commits:
        tree = _archive(repo, point["sha"], tmp_path / "archive" / point["sha"])
        for scope, numbers in point["by_scope"].items():
            measured = cli_json("code", "measure", str(tree), "--scope", scope, "--no-cache",
                                "--rules-set", "paper")  # a study's default set
            assert numbers == {"files": measured["files_measured"], "sloc": measured["sloc"],
                               "erosion": measured["erosion"],
                               "verbosity": measured["verbosity"]}, (point["sha"], scope)
    assert set(report["scopes"]) == {"source", "tests", "examples", "docs"}
    for scope, found in report["scopes"].items():
        first, last = commits[0]["by_scope"][scope], commits[-1]["by_scope"][scope]
        verbosity = found["metrics"]["verbosity"]
        assert found["used"] == 1 and verbosity["head_mean"]["mean"] == last["verbosity"]
        if first["verbosity"]:
            growth = (last["verbosity"] - first["verbosity"]) / first["verbosity"]
            assert verbosity["growth"]["median"] == pytest.approx(growth)
    text = run_cli("code", "study", "report", str(out), "--db", db, "--min-commits", "1")
    assert text.returncode == 0, text.stderr
    assert "per scope" in text.stdout and "verbosity HEAD mean" in text.stdout


def test_gitignore_build_output_and_virtual_environments_are_skipped_with_reasons(
    tmp_path: Path,
) -> None:
    tree = _write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'p'\n",
        ".gitignore": "generated/\n*_pb2.py\n",
        "pkg/core.py": PYTHON,
        "pkg/api_pb2.py": PYTHON,
        "generated/models.py": PYTHON,
        "build/lib/pkg/core.py": PYTHON,
        "pkg/build/steps.py": PYTHON,  # a package named build: source
        "env/tool.py": PYTHON,  # a folder named env without pyvenv.cfg: source
        ".venv/pyvenv.cfg": "home = /usr\n",
        ".venv/lib/site.py": PYTHON,
        "web/node_modules/left-pad/index.js": "module.exports = 1;\n",
    })  # fmt: skip
    report = cli_json("code", "measure", str(tree))
    assert sorted(f["path"] for f in report["files"]) == [
        "env/tool.py", "pkg/build/steps.py", "pkg/core.py",
    ]  # fmt: skip
    assert {s["path"]: s["reason"] for s in report["skipped"]} == {
        "generated/": "ignored by .gitignore (generated/)",
        "pkg/api_pb2.py": "ignored by .gitignore (*_pb2.py)",
        "build/": "build output (beside pyproject.toml)",
        ".venv/": "virtual environment (pyvenv.cfg)",
        "web/node_modules/": "installed packages (npm)",
    }


def _go_module(tmp_path: Path) -> Path:
    """golang.org/x/lint from the Go module proxy (real source with ``testdata/`` of Go
    files), its imports vendored by ``go mod vendor``, and a ``_scratch`` folder added."""
    if shutil.which("go") is None:
        pytest.skip("the go tool is not installed")
    module = "golang.org/x/lint@v0.0.0-20210508222113-6edffad5e616"
    env = {**os.environ, "GOFLAGS": "-mod=mod"}
    done = subprocess.run(["go", "mod", "download", "-json", module], capture_output=True,
                          text=True, env=env, timeout=300)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"the Go module proxy is not reachable: {done.stderr.strip()[:200]}")
    tree = tmp_path / "lint"
    shutil.copytree(json.loads(done.stdout)["Dir"], tree)
    for folder, _, names in os.walk(tree):  # the module cache is read-only
        os.chmod(folder, 0o755)
        for name in names:
            os.chmod(os.path.join(folder, name), 0o644)
    vendored = subprocess.run(["go", "mod", "vendor"], cwd=tree, capture_output=True, text=True,
                              env=env, timeout=300)  # fmt: skip
    if vendored.returncode != 0:
        pytest.skip(f"go mod vendor could not fetch: {vendored.stderr.strip()[:200]}")
    _write(tree, {"_scratch/old.go": "package old\n\nfunc Old() int { return 1 }\n"})
    return tree


def _go_files(tree: Path) -> set[str]:
    """The .go files the go tool builds or tests under ``tree`` (``go list ./...``)."""
    fields = ["GoFiles", "CgoFiles", "TestGoFiles", "XTestGoFiles", "IgnoredGoFiles"]
    template = "{{.Dir}}" + "".join(f"{{{{range .{f}}}}}|{{{{.}}}}{{{{end}}}}" for f in fields)
    done = subprocess.run(["go", "list", "-e", "-find", "-f", template, "./..."], cwd=tree,
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "GOFLAGS": "-mod=vendor"})  # fmt: skip
    found = set()
    for line in done.stdout.splitlines():
        folder, *names = line.split("|")
        rel = Path(folder).relative_to(tree).as_posix()
        found.update(name if rel == "." else f"{rel}/{name}" for name in names)
    return found


def test_a_go_module_is_read_as_the_go_tool_reads_it(tmp_path: Path) -> None:
    tree = _go_module(tmp_path)
    report = cli_json("code", "measure", str(tree), "--language", "go", "--no-cache")
    measured = {f["path"] for f in report["files"]}
    assert measured == _go_files(tree)
    assert measured == {"lint.go", "lint_test.go", "golint/golint.go", "golint/import.go",
                        "golint/importcomment.go"}  # fmt: skip
    reasons = {s["path"]: s["reason"] for s in report["skipped"]}
    vendor = [p for p in reasons if p.startswith("vendor/")]
    testdata = [p for p in reasons if p.startswith("testdata/")]
    assert len(vendor) >= 10 and len(testdata) >= 30
    assert {reasons[p] for p in vendor} == {"Go: the go tool ignores vendor/ (go help packages)"}
    assert {reasons[p] for p in testdata} == {
        "Go: the go tool ignores testdata/ (go help packages)"
    }
    assert reasons["_scratch/old.go"] == (
        "Go: the go tool ignores folders starting with '_' (go help packages)"
    )
    _repo(tree, {})
    history = cli_json("code", "history", str(tree), "--language", "go")
    head = history["commits"][-1]
    assert head["files"] == len(measured)
    assert {s["path"]: s["reason"] for s in head["skipped"]} == reasons


def _commons_io_sources() -> Path:
    """commons-io 2.16.1's sources jar from Maven Central (through mvn's local repository)."""
    if shutil.which("mvn") is None:
        pytest.skip("mvn is not installed")
    jar = Path.home() / ".m2/repository/commons-io/commons-io/2.16.1/commons-io-2.16.1-sources.jar"
    if not jar.is_file():
        command = ["mvn", "-q", "-B", "dependency:get", "-Dtransitive=false",
                   "-Dartifact=commons-io:commons-io:2.16.1:jar:sources"]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not jar.is_file():
            pytest.skip(f"Maven Central is not reachable: {done.stdout.strip()[-200:]}")
    return jar


def test_a_java_package_named_build_is_measured(tmp_path: Path) -> None:
    """commons-io laid out as its Maven project (its own pom.xml beside src/main/java):
    the package org.apache.commons.io.build is measured, target/ beside pom.xml is not."""
    jar = _commons_io_sources()
    project = tmp_path / "commons-io"
    shutil.unpack_archive(jar, tmp_path / "jar", "zip")
    pom = tmp_path / "jar/META-INF/maven/commons-io/commons-io/pom.xml"
    (project / "src/main").mkdir(parents=True)
    shutil.copy(pom, project / "pom.xml")
    shutil.copytree(tmp_path / "jar/org", project / "src/main/java/org")
    _write(project, {"target/generated-sources/Gen.java": "class Gen { void g() {} }\n"})
    report = cli_json("code", "measure", str(project), "--no-cache")
    build = "src/main/java/org/apache/commons/io/build/"
    in_build = [f for f in report["files"] if f["path"].startswith(build)]
    assert len(in_build) == 5
    assert sum(len(f["callables"]) for f in in_build) > 20
    assert {s["path"]: s["reason"] for s in report["skipped"]} == {
        "target/": "build output (beside pom.xml)"
    }
    assert report["measured"]["files_by_scope"] == {"source": len(report["files"])}


def test_history_of_a_subfolder_measures_only_that_folder(tmp_path: Path) -> None:
    """`code history repo/pkg` picks the commits touching pkg/ (git's pathspecs there) and
    measures pkg/ alone, as `code measure` on that folder does."""
    repo = _repo(tmp_path / "repo", python_rust_tree(tmp_path))
    history = cli_json("code", "history", str(repo / "pkg"))
    head = history["commits"][-1]
    measured = cli_json("code", "measure", str(repo / "pkg"))
    assert (head["files"], head["sloc"], head["erosion"], head["verbosity"]) == (
        measured["files_measured"], measured["sloc"], measured["erosion"], measured["verbosity"]
    )
    assert head["files_by_scope"] == {"source": 2}
    bare = tmp_path / "bare.git"
    _git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    whole = cli_json("code", "history", str(bare))["commits"][-1]
    assert whole["files"] == len(python_rust_tree(tmp_path))
