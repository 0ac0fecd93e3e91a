"""Speed and fidelity benchmark of `slopmark code measure` against its peers.

Every tool runs as a whole subprocess on the same tree, timed with the wall clock;
the runs go round-robin (one run of each tool, then the next round) so that the noise
of a shared machine falls on every tool alike, and each tool is reported by its median.

    .venv/bin/python benchmarks/code_measure.py [--tree PATH] [--repo PATH]
        [--runs N] [--skip TOOL] [--json OUT]

What each line of the report means: benchmarks/README.md. Missed targets are reported,
not failed: the exit status is non-zero only when the benchmark itself could not run.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from slopmark.code.measure.discovery import EXCLUDED_DIRS

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
NATIVE = HERE.parent / "native"
BIN = Path(sys.executable).parent

SCB_VERSION = "0.1.0"
#: jscpd 5.4.x installs only a launcher whose per-platform binary package is not served
#: here; 5.3.2 is the newest release that installs and runs.
JSCPD_VERSION = "5.3.2"
FLASK_VERSION = "3.1.3"
#: The paper's values on flask 3.1.3: (value, tolerance).
PAPER = {"erosion": (0.209, 0.002), "verbosity": (0.111, 0.03)}
HISTORY_COMMITS = 100
SEED = 20250101
INSTALL_TIMEOUT = 900
#: Build output of the interpreter, not part of CPython's Lib/ source folder.
LIB_IGNORE = ("site-packages", "__pycache__", "lib-dynload", "config-*")
#: scb-check 0.1.0 aborts the whole run with RecursionError on this file (its cognitive
#: complexity walk recurses once per level of syntax-tree nesting, and a raised recursion
#: limit does not help), so it is left out of the Lib/ copy that every tool measures.
REFERENCE_CRASHERS = ("test/test_exceptions.py",)
SKIPPABLE = ("scb-check", "radon", "jscpd", "ast.parse", "tree-sitter", "history", "flask")
#: Issue 16's bound on slopmark's peak memory on `Lib/` (MiB).
PEAK_TARGET_MIB = 1536

LABELS = {
    "slopmark": "slopmark code measure --json --no-cache",
    "scb-check": f"scb-check {SCB_VERSION} check --report",
    "radon": "radon cc -j",
    "jscpd": f"jscpd {JSCPD_VERSION} --format python",
    "radon + jscpd": "radon + jscpd (classic pipeline)",
    "ast.parse": "bare ast.parse of every file",
    "tree-sitter": "bare tree-sitter parse, every file",
    "measure HEAD": "slopmark code measure (repo HEAD)",
    "history": f"slopmark code history --commits {HISTORY_COMMITS}",
}

AST_SCRIPT = """
import ast, json, sys
from pathlib import Path
root, skip = Path(sys.argv[1]), set(sys.argv[2].split(","))
parsed = failed = 0
for path in sorted(root.rglob("*.py")):
    if skip.intersection(path.relative_to(root).parts) or not path.is_file():
        continue
    try:
        ast.parse(path.read_bytes(), filename=str(path))
        parsed += 1
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        failed += 1
print(json.dumps({"parsed": parsed, "failed": failed}))
"""


Reader = Callable[[str], dict[str, Any]]


class BenchError(Exception):
    """The benchmark itself cannot run (exit 1)."""


class Unavailable(Exception):
    """A peer tool cannot be installed or found; its row says why."""


class ToolFailed(Exception):
    """A tool ran but gave no usable result."""


@dataclass
class Command:
    name: str
    argv: list[str]
    read: Reader
    env: dict[str, str] | None = None
    ok_codes: tuple[int, ...] = (0,)


@dataclass
class Result:
    name: str
    status: str = "ok"
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    peaks_mib: list[float] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.status == "ok" and self.times else None

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu_times) if self.median is not None else None

    @property
    def peak_mib(self) -> float | None:
        """The highest peak resident memory of any run (MiB)."""
        return max(self.peaks_mib) if self.median is not None and self.peaks_mib else None


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    peak_mib: float
    metrics: dict[str, Any]


@dataclass(frozen=True)
class Ratio:
    row: str
    numerator: str
    denominator: str
    target: str = ""

    @property
    def label(self) -> str:
        top, bottom = (f"({n})" if " " in n else n for n in (self.numerator, self.denominator))
        return f"{top}/{bottom}"

    def value(self, results: dict[str, Result]) -> float | None:
        top, bottom = (results.get(n) for n in (self.numerator, self.denominator))
        if top is None or bottom is None or top.median is None or not bottom.median:
            return None
        return top.median / bottom.median

    def verdict(self, value: float | None) -> str:
        if not self.target or value is None:
            return ""
        symbol, bound = self.target.split()
        compare = {">=": operator.ge, ">": operator.gt, "<=": operator.le}[symbol]
        return "met" if compare(value, float(bound)) else "MISSED"


RATIOS = (
    Ratio("scb-check", "scb-check", "slopmark", ">= 10"),
    Ratio("radon", "radon", "slopmark", "> 1"),
    Ratio("jscpd", "jscpd", "slopmark"),
    Ratio("radon + jscpd", "radon + jscpd", "slopmark"),
    Ratio("ast.parse", "slopmark", "ast.parse", "<= 3"),
    Ratio("tree-sitter", "slopmark", "tree-sitter", "<= 2"),
    Ratio("history", "history", "measure HEAD", "<= 3"),
)

#: (label, slopmark key, scb-check key) of the metrics both tools report.
AGREEMENT = (
    ("files", "files_measured", "files_scanned"),
    ("SLOC", "sloc", "total_loc"),
    ("callables", "callables", "total_functions"),
    ("complex callables", "complex_callables", "high_cc_functions"),
    ("erosion", "erosion", "erosion"),
    ("rule-flagged lines", "rule_lines", "ast_grep_flagged_loc"),
    ("clone lines", "clone_lines", "clone_loc"),
    ("verbosity", "verbosity", "verbosity"),
)


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no message"


# --- running and timing -------------------------------------------------------------


def run_setup(argv: list[str], what: str, cwd: Path | None = None) -> str:
    """Run one install or preparation step; a failure makes the tool unavailable."""
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, cwd=cwd
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Unavailable(f"{what}: {error}") from error
    if done.returncode != 0:
        raise Unavailable(f"{what} failed: {last_line(done.stderr or done.stdout)}")
    return done.stdout


def waited(argv: list[str], env: dict[str, str] | None) -> tuple[int, bytes, bytes, Any]:
    """Run ``argv`` to its end: exit code, stdout, stderr and the process's own resource
    usage (from wait4: its CPU time and peak memory, its children's included)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return process.returncode, out.read(), err.read(), usage


def run_once(command: Command) -> Run:
    start = time.perf_counter()
    code, stdout, stderr_bytes, usage = waited(command.argv, command.env)
    elapsed, cpu = time.perf_counter() - start, usage.ru_utime + usage.ru_stime
    stderr = stderr_bytes.decode("utf-8", "replace")
    if code not in command.ok_codes:
        raise ToolFailed(f"exit {code}: {last_line(stderr)}")
    try:
        metrics = command.read(stdout.decode("utf-8", "replace"))
    except (ValueError, KeyError, TypeError, OSError) as error:
        raise ToolFailed(f"unreadable output ({error}); stderr: {last_line(stderr)}") from error
    metrics.setdefault("exit_code", code)
    return Run(elapsed, cpu, usage.ru_maxrss / 1024, metrics)


def time_round_robin(commands: list[Command], runs: int) -> dict[str, Result]:
    """Run every command ``runs`` times, one round of all commands after another."""
    results = {c.name: Result(c.name) for c in commands}
    for round_number in range(1, runs + 1):
        for command in commands:
            result = results[command.name]
            if result.status != "ok":
                continue
            try:
                run = run_once(command)
            except ToolFailed as error:
                result.status = f"failed: {error}"
                log(f"{command.name} failed: {error}")
                continue
            result.times.append(run.wall)
            result.cpu_times.append(run.cpu)
            result.peaks_mib.append(run.peak_mib)
            result.metrics = run.metrics
            log(
                f"round {round_number}/{runs} {command.name}: {run.wall:.2f} s, cpu {run.cpu:.2f} s"
            )
    return results


def pipeline_sum(results: dict[str, Result]) -> Result:
    """radon + jscpd, added run by run (the classic two-tool pipeline)."""
    radon, jscpd = results["radon"], results["jscpd"]
    if "skipped" in (radon.status.split()[0], jscpd.status.split()[0]):
        return Result("radon + jscpd", "skipped (radon or jscpd skipped)")
    if radon.median is None or jscpd.median is None:
        return Result("radon + jscpd", "unavailable: radon or jscpd has no timing")
    times = [a + b for a, b in zip(radon.times, jscpd.times, strict=False)]
    cpu = [a + b for a, b in zip(radon.cpu_times, jscpd.cpu_times, strict=False)]
    return Result("radon + jscpd", times=times, cpu_times=cpu)


# --- what each tool's output says -----------------------------------------------------


def pick(data: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    return {key: data[key] for key in keys}


def read_slopmark(out: str) -> dict[str, Any]:
    data = json.loads(out)
    metrics = pick(data, {s for _, s, _ in AGREEMENT} | {"files_skipped", "rule_hits"})
    metrics["problems"] = len(data.get("problems", []))
    return metrics


def read_scb(out: str) -> dict[str, Any]:
    return pick(json.loads(out), {b for _, _, b in AGREEMENT})


def read_radon(out: str) -> dict[str, Any]:
    data = json.loads(out)
    blocks = [b for found in data.values() if isinstance(found, list) for b in found]
    callables = [b for b in blocks if b.get("type") in ("function", "method")]
    return {
        "files": len(data),
        "unreadable_files": sum(1 for found in data.values() if isinstance(found, dict)),
        "callables": len(callables),
        "complex_callables": sum(1 for b in callables if b["complexity"] > 10),
    }


def jscpd_reader(report: Path) -> Reader:
    def read(_: str) -> dict[str, Any]:
        total = json.loads(report.read_text(encoding="utf-8"))["statistics"]["total"]
        report.unlink()
        return {
            "files": total["sources"],
            "lines": total["lines"],
            "duplicated_lines": total["duplicatedLines"],
            "clones": total["clones"],
            "percentage": total["percentage"],
        }

    return read


def read_history(out: str) -> dict[str, Any]:
    data = json.loads(out)
    return {"commits_measured": len(data["commits"]), "blobs_measured": data["blobs_measured"]}


# --- preparing the trees ------------------------------------------------------------


def stdlib_tree() -> tuple[Path, str]:
    """CPython's Lib/ of this interpreter, copied once into the cache."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    target = CACHE / f"lib-python{platform.python_version()}"
    stamp = target.parent / f"{target.name}.complete"
    if not stamp.exists():
        log(f"copying {stdlib} to {target}")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(stdlib, target, ignore=shutil.ignore_patterns(*LIB_IGNORE))
        for name in REFERENCE_CRASHERS:
            (target / name).unlink(missing_ok=True)
        stamp.write_text(str(stdlib), encoding="utf-8")
    note = (
        f"CPython {platform.python_version()} Lib/ ({stdlib}), without "
        f"{', '.join(LIB_IGNORE)}; left out: {', '.join(REFERENCE_CRASHERS)} "
        f"(scb-check {SCB_VERSION} aborts the whole run with RecursionError on it)"
    )
    return target, note


def fetch_flask() -> Path:
    """flask's source release, downloaded with pip and unpacked into the cache."""
    root = CACHE / f"flask-{FLASK_VERSION}"
    if (root / "src" / "flask").is_dir():
        return root
    archive = CACHE / f"flask-{FLASK_VERSION}.tar.gz"
    if not archive.exists():
        log(f"downloading flask {FLASK_VERSION} source release")
        run_setup(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--no-binary", ":all:", f"flask=={FLASK_VERSION}", "-d", str(CACHE)],
            f"pip download flask=={FLASK_VERSION} (offline?)",
        )  # fmt: skip
    with tarfile.open(archive) as tar:
        tar.extractall(CACHE, filter="data")
    return root


def git(repo: Path, *args: str, when: int = 0) -> None:
    stamp = f"{1_700_000_000 + when * 3600} +0000"
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp, "GIT_CONFIG_NOSYSTEM": "1",
    }  # fmt: skip
    argv = ["git", "-C", str(repo), "-c", "commit.gpgsign=false", *args]
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise Unavailable(f"git {args[0]} failed: {last_line(done.stderr)}")


def change_file(path: Path, number: int, rng: random.Random) -> None:
    """A small real edit: append a branching function, or insert a comment line."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if rng.random() < 0.5:
        limit = rng.randint(1, 99)
        lines.append(
            f"\n\ndef _bench_change_{number}(value, limit={limit}):\n"
            f'    """Benchmark edit {number}."""\n'
            "    if value > limit:\n        return value - limit\n    return limit\n"
        )
    else:
        tops = [i for i, line in enumerate(lines) if line.startswith(("def ", "class "))]
        where = rng.choice(tops) if tops else len(lines)
        lines.insert(where, f"# benchmark edit {number}\n")
    path.write_text("".join(lines), encoding="utf-8")


def history_repo(source: Path) -> Path:
    """A git repository: the flask release, then HISTORY_COMMITS seeded edits."""
    repo = CACHE / f"history-{source.name}"
    stamp = repo.parent / f"{repo.name}.complete"
    if stamp.exists():
        return repo
    log(f"building {repo} ({HISTORY_COMMITS + 1} commits)")
    shutil.rmtree(repo, ignore_errors=True)
    shutil.copytree(source, repo)
    git(repo, "init", "--quiet")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "--no-verify", "-m", f"{source.name} source release")
    files = sorted(p for p in repo.rglob("*.py") if ".git" not in p.parts)
    rng = random.Random(SEED)
    for number in range(1, HISTORY_COMMITS + 1):
        for path in rng.sample(files, rng.choice((1, 2))):
            change_file(path, number, rng)
        git(repo, "commit", "--quiet", "--no-verify", "--all", "-m", f"edit {number}", when=number)
    stamp.write_text(str(source), encoding="utf-8")
    return repo


# --- preparing the tools ------------------------------------------------------------


def find_slopmark() -> Path:
    found = BIN / "slopmark"
    if found.exists():
        return found
    which = shutil.which("slopmark")
    if which is None:
        raise BenchError("slopmark is not installed in this interpreter's venv (make install)")
    return Path(which)


def find_python312() -> Path:
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [*sorted(pyenv.glob("3.12*/bin/python")), shutil.which("python3.12")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return Path(candidate)
    raise Unavailable("scb-check needs Python 3.12: none found on PATH or in pyenv")


def scb_bin() -> Path:
    """The bin folder of a Python 3.12 venv with scb-check installed."""
    venv = CACHE / "scb-venv"
    stamp = CACHE / f"scb-check-{SCB_VERSION}.installed"
    if stamp.exists() and (venv / "bin" / "scb-check").exists():
        return venv / "bin"
    python = find_python312()
    log(f"installing scb-check {SCB_VERSION} into {venv} ({python})")
    run_setup([str(python), "-m", "venv", "--clear", str(venv)], "creating the 3.12 venv")
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    run_setup([*pip, f"scb-check=={SCB_VERSION}"], f"pip install scb-check=={SCB_VERSION}")
    stamp.write_text(SCB_VERSION, encoding="utf-8")
    return venv / "bin"


def radon_path() -> Path:
    radon = BIN / "radon"
    if not radon.exists():
        log("installing radon into the bench venv")
        run_setup([sys.executable, "-m", "pip", "install", "--quiet", "radon"], "pip install radon")
    return radon


def jscpd_path() -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        raise Unavailable("jscpd needs node and npm; neither is on PATH")
    prefix = CACHE / "node"
    jscpd = prefix / "node_modules" / ".bin" / "jscpd"
    if not jscpd.exists():
        log(f"installing jscpd {JSCPD_VERSION} into {prefix}")
        run_setup(
            ["npm", "install", "--prefix", str(prefix), "--save-exact", f"jscpd@{JSCPD_VERSION}"],
            f"npm install jscpd@{JSCPD_VERSION}",
        )
    run_setup([str(jscpd), "--version"], "jscpd --version")
    return jscpd


def scb_command(tree: Path) -> Command:
    folder = scb_bin()
    # scb-check runs `sg` (ast-grep) from PATH; the system's `sg` is an unrelated tool.
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    argv = [str(folder / "scb-check"), "check", str(tree), "--report"]
    return Command("scb-check", argv, read_scb, env=env)


def parse_files_path() -> Path:
    """The core's bare-parse example (`native/examples/parse_files.rs`), built once."""
    binary = NATIVE / "target" / "release" / "examples" / "parse_files"
    manifest = str(NATIVE / "Cargo.toml")
    log("building the bare tree-sitter parse (cargo build --release --example parse_files)")
    run_setup(
        ["cargo", "build", "--quiet", "--release", "--example", "parse_files",
         "--manifest-path", manifest],
        "cargo build --example parse_files",
    )  # fmt: skip
    return binary


def tree_sitter_command(tree: Path) -> Command:
    excluded = ",".join(sorted(EXCLUDED_DIRS))
    argv = [str(parse_files_path()), "python", str(tree), excluded]
    return Command("tree-sitter", argv, json.loads)


def jscpd_command(tree: Path) -> Command:
    output = CACHE / "jscpd-out"
    ignore = ",".join(f"**/{name}/**" for name in sorted(EXCLUDED_DIRS))
    argv = [
        str(jscpd_path()), "--silent", "--reporters", "json", "--output", str(output),
        "--format", "python", "--no-gitignore", "--ignore", ignore, str(tree),
    ]  # fmt: skip
    return Command("jscpd", argv, jscpd_reader(output / "jscpd-report.json"))


def slopmark_command(
    name: str, slopmark: Path, *args: str, read: Reader = read_slopmark
) -> Command:
    # exit 2 = the report is complete but the measured code has bad ignore comments. A
    # measure runs cold (`--no-cache`): a warm result cache would time a lookup, not a
    # measurement, from the second run on (scb-check has no cache)
    cold = ["--no-cache"] if args[0] == "measure" else []
    return Command(name, [str(slopmark), "code", *args, "--json", *cold], read, ok_codes=(0, 2))


def attempt(name: str, make: Callable[[], Command], skip: set[str]) -> Command | Result:
    if name in skip:
        return Result(name, "skipped (--skip)")
    try:
        return make()
    except Unavailable as error:
        log(f"{name} unavailable: {error}")
        return Result(name, f"unavailable: {error}")


def time_all(prepared: list[Command | Result], runs: int) -> dict[str, Result]:
    commands = [p for p in prepared if isinstance(p, Command)]
    results = {p.name: p for p in prepared if isinstance(p, Result)}
    results.update(time_round_robin(commands, runs))
    return results


def tree_commands(tree: Path, slopmark: Path, skip: set[str]) -> list[Command | Result]:
    """The tools timed on the tree, or a Result saying why one is unavailable."""
    ast_argv = [sys.executable, "-c", AST_SCRIPT, str(tree), ",".join(sorted(EXCLUDED_DIRS))]
    makers: dict[str, Callable[[], Command]] = {
        "scb-check": lambda: scb_command(tree),
        "radon": lambda: Command("radon", [str(radon_path()), "cc", "-j", str(tree)], read_radon),
        "jscpd": lambda: jscpd_command(tree),
        "ast.parse": lambda: Command("ast.parse", ast_argv, json.loads),
        "tree-sitter": lambda: tree_sitter_command(tree),
    }
    measure = slopmark_command("slopmark", slopmark, "measure", str(tree))
    return [measure, *(attempt(name, make, skip) for name, make in makers.items())]


def flask_source(args: argparse.Namespace, skip: set[str]) -> Path | str:
    """The unpacked flask release, or why there is none."""
    needed = "flask" not in skip or ("history" not in skip and args.repo is None)
    if not needed:
        return "skipped (--skip)"
    try:
        return fetch_flask()
    except Unavailable as error:
        log(f"flask {FLASK_VERSION} unavailable: {error}")
        return f"unavailable: {error}"


def history_commands(
    args: argparse.Namespace, flask: Path | str, slopmark: Path, skip: set[str]
) -> list[Command | Result]:
    """slopmark's history of a repository against one measure of its HEAD."""
    names = ("measure HEAD", "history")
    if "history" in skip:
        return [Result(name, "skipped (--skip)") for name in names]
    try:
        if args.repo is not None:
            repo = args.repo.resolve()
        elif isinstance(flask, Path):
            repo = history_repo(flask)
        else:
            raise Unavailable(f"no --repo, and no flask release to build one from ({flask})")
    except Unavailable as error:
        return [Result(name, f"unavailable: {error}") for name in names]
    commits = str(HISTORY_COMMITS)
    return [
        slopmark_command("measure HEAD", slopmark, "measure", str(repo)),
        slopmark_command(
            "history", slopmark, "history", str(repo), "--commits", commits, read=read_history
        ),
    ]


def flask_fidelity(flask: Path | str, slopmark: Path, skip: set[str]) -> dict[str, Any]:
    """slopmark (and scb-check, when it is there) once on the flask release."""
    if "flask" in skip:
        return {"status": "skipped (--skip)"}
    if isinstance(flask, str):
        return {"status": flask}
    fidelity: dict[str, Any] = {"status": "ok", "tree": str(flask)}
    commands = [
        slopmark_command("slopmark", slopmark, "measure", str(flask)),
        attempt("scb-check", lambda: scb_command(flask), skip),
    ]
    for command in commands:
        if isinstance(command, Result):
            fidelity[command.name] = {"status": command.status}
            continue
        try:
            fidelity[command.name] = run_once(command).metrics
        except ToolFailed as error:
            fidelity[command.name] = {"status": f"failed: {error}"}
    return fidelity


# --- the report ---------------------------------------------------------------------

SUMMARIES = {
    "slopmark": "{files_measured} files ({files_skipped} skipped), {sloc} SLOC, "
    "{rule_hits} rule hits, exit {exit_code} ({problems} problems in the measured code)",
    "scb-check": "{files_scanned} files, {total_loc} SLOC",
    "radon": "{callables} callables, {complex_callables} with CC > 10, "
    "{files} files ({unreadable_files} unreadable)",
    "jscpd": "{duplicated_lines} duplicated lines of {lines} ({percentage:.2f}%) "
    "in {clones} clones, {files} files",
    "ast.parse": "{parsed} files parsed, {failed} failed",
    "tree-sitter": "{parsed} files parsed, {with_errors} with syntax errors",
    "measure HEAD": "{files_measured} files, {sloc} SLOC, erosion {erosion:.4f}",
    "history": "{commits_measured} commits, {blobs_measured} file versions measured",
}


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def timing_row(result: Result, results: dict[str, Result]) -> list[str]:
    label = LABELS[result.name]
    if result.median is None or result.cpu_median is None:
        return [label, "-", "-", "-", "-", "", "", result.status]
    ratio = next((r for r in RATIOS if r.row == result.name), None)
    value = ratio.value(results) if ratio else None
    shown = f"{ratio.label} = {value:.2f}" if ratio and value else ""
    target = ratio.target if ratio and value else ""
    verdict = ratio.verdict(value) if ratio else ""
    runs = " ".join(f"{t:.2f}" for t in result.times)
    cpu = f"{result.cpu_median:.2f}"
    peak = f"{result.peak_mib:.0f}" if result.peak_mib is not None else "-"
    return [label, f"{result.median:.2f}", cpu, peak, shown, target, verdict, runs]


def print_timings(results: dict[str, Result]) -> None:
    header = ["tool", "median s", "cpu s", "peak MiB", "ratio (of medians)", "target", ""]
    rows = [[*header, "runs (s)"]]
    rows += [timing_row(results[name], results) for name in LABELS if name in results]
    print(format_table(rows))
    peak = results["slopmark"].peak_mib
    if peak is not None:
        verdict = "met" if peak <= PEAK_TARGET_MIB else "MISSED"
        print(f"slopmark's peak memory: {peak:.0f} MiB, target <= {PEAK_TARGET_MIB} MiB: {verdict}")


def show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:+.4f}" if value < 0 else f"{value:.4f}"
    return str(value)


def agreement_rows(ours: dict[str, Any], theirs: dict[str, Any]) -> list[list[str]]:
    rows = [["metric", "slopmark", f"scb-check {SCB_VERSION}", "difference", "relative"]]
    for label, our_key, their_key in AGREEMENT:
        mine, reference = ours.get(our_key), theirs.get(their_key)
        if mine is None or reference is None:
            rows.append([label, show(mine), show(reference), "-", "-"])
            continue
        difference = mine - reference
        relative = f"{difference / reference:+.1%}" if reference else "-"
        shown = f"{difference:+.4f}" if isinstance(difference, float) else f"{difference:+d}"
        rows.append([label, show(mine), show(reference), shown, relative])
    return rows


def print_agreement(results: dict[str, Result]) -> None:
    ours, theirs = results["slopmark"], results.get("scb-check")
    print("\nSame tree, slopmark against the paper's reference tool:")
    if theirs is None or not theirs.metrics or not ours.metrics:
        print(f"  not compared: scb-check {theirs.status if theirs else 'not run'}")
        return
    print(format_table(agreement_rows(ours.metrics, theirs.metrics)))


def print_summaries(results: dict[str, Result]) -> None:
    print("\nWhat each tool reported (last run):")
    for name, template in SUMMARIES.items():
        result = results.get(name)
        if result is not None and result.metrics:
            print(f"  {name:13} {template.format(**result.metrics)}")


def paper_check(metric: str, value: float | None) -> str:
    expected, tolerance = PAPER[metric]
    if value is None:
        return f"{metric} undefined vs paper {expected}"
    inside = abs(value - expected) <= tolerance
    verdict = "within" if inside else "OUTSIDE"
    return f"{metric} {value:.4f} vs paper {expected} ± {tolerance}: {verdict}"


def print_fidelity(fidelity: dict[str, Any]) -> None:
    print(f"\nFidelity, flask {FLASK_VERSION} source release (whole unpacked sdist):")
    if fidelity["status"] != "ok":
        print(f"  not measured: {fidelity['status']}")
        return
    for name in ("slopmark", "scb-check"):
        found = fidelity.get(name, {})
        if "erosion" not in found:
            print(f"  {name:10} {found.get('status', 'not run')}")
            continue
        checks = "; ".join(paper_check(m, found.get(m)) for m in PAPER)
        print(f"  {name:10} {checks}")


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


def as_json(results: dict[str, Result]) -> dict[str, Any]:
    return {
        name: {
            "label": LABELS[name],
            "status": result.status,
            "median_s": result.median,
            "times_s": result.times,
            "cpu_median_s": result.cpu_median,
            "cpu_times_s": result.cpu_times,
            "peak_mib": result.peak_mib,
            "peaks_mib": result.peaks_mib,
            "metrics": result.metrics,
        }
        for name, result in results.items()
    }


def save_json(path: Path, context: dict[str, Any], results: dict[str, Result]) -> None:
    ratios = []
    for ratio in RATIOS:
        value = ratio.value(results)
        ratios.append(
            {
                "ratio": ratio.label,
                "value": value,
                "target": ratio.target or None,
                "verdict": ratio.verdict(value) or None,
            }
        )
    document = {**context, "results": as_json(results), "ratios": ratios}
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    log(f"results saved to {path}")


def print_report(context: dict[str, Any], results: dict[str, Result]) -> None:
    host = context["machine"]
    print(
        f"slopmark code measure benchmark, {context['date']}: {host['cores']} cores, "
        f"Python {host['python']}, median of {context['runs']} run(s) (wall clock)"
    )
    print(f"tree: {context['tree']}\n      {context['tree_note']}\n")
    print_timings(results)
    print_agreement(results)
    print_summaries(results)
    print_fidelity(context["fidelity"])


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tree", type=Path, help="measure this tree instead of CPython's Lib/")
    parser.add_argument(
        "--repo", type=Path, help="time history on this git work tree instead of the built one"
    )
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each tool (default 3)")
    parser.add_argument(
        "--skip", action="append", default=[], choices=SKIPPABLE, help="leave a tool out"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also save the results here")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def run(args: argparse.Namespace) -> int:
    CACHE.mkdir(parents=True, exist_ok=True)
    slopmark = find_slopmark()
    skip = set(args.skip)
    if args.tree is not None:
        tree, note = args.tree.resolve(), "given with --tree, measured in place"
        if not tree.is_dir():
            raise BenchError(f"{args.tree}: not a folder")
    else:
        tree, note = stdlib_tree()
    flask = flask_source(args, skip)
    results = time_all(tree_commands(tree, slopmark, skip), args.runs)
    results["radon + jscpd"] = pipeline_sum(results)
    results.update(time_all(history_commands(args, flask, slopmark, skip), args.runs))
    context = {
        "date": date.today().isoformat(),
        "machine": machine(),
        "runs": args.runs,
        "tree": str(tree),
        "tree_note": note,
        "fidelity": flask_fidelity(flask, slopmark, skip),
    }
    print_report(context, results)
    if args.json is not None:
        save_json(args.json, context, results)
    if results["slopmark"].median is None:
        raise BenchError(f"slopmark itself did not run: {results['slopmark'].status}")
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return run(parse_args(argv))
    except BenchError as error:
        print(f"code_measure.py: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
