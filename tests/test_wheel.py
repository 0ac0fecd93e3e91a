"""The user install (issue 35): the wheel `make dist` builds holds the whole package, and a
fresh venv with no Rust on PATH runs slopmark from it without reading the source tree.

The wheel is built once per module (minutes), or reused from dist/ when one there is newer
than every tracked source file. A ``sitecustomize`` in the fresh venv records, through an
audit hook, every file or folder the installed slopmark opens or lists under this
repository; each command must leave that record empty.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from slopmark import __version__

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]  # builds a wheel, starts slopmark

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
BIN = Path(sys.executable).parent
#: What the package reads besides its modules: one file of each data folder.
DATA = (
    "slopmark/code/measure/rules/pack/booleans/",
    "slopmark/code/measure/rules/lang/javascript/",
    "slopmark/code/measure/rules/paper/pack/booleans/",
    "slopmark/code/measure/rules/precision.json",
    "slopmark/evals/pool/seed/",
    "slopmark/problems/kvstore/config.yaml",
    "slopmark/problems/logq/tests/",
    "slopmark/server/templates/",
    "slopmark/server/static/",
    "slopmark/code/bench/prompts/",
    "slopmark/store/migrations/versions/",
    "slopmark/llm/prices/",
)
AUDIT = '''"""tests/test_wheel.py: what the installed slopmark opens under the repository."""
import os
import sys

_ROOT = os.environ.get("SLOPMARK_AUDIT_ROOT")
_EVENTS = {"open", "os.listdir", "os.scandir", "os.chdir"}


def _hook(event, args):
    if event in _EVENTS and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if path == _ROOT or path.startswith(_ROOT + os.sep):
            os.write(_LOG, f"{event} {path}\\n".encode())


if _ROOT:
    _LOG = os.open(os.environ["SLOPMARK_AUDIT_LOG"], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    sys.addaudithook(_hook)
'''


def _tracked(*paths: str) -> list[str]:
    done = subprocess.run(
        ["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True
    )
    return [name for name in done.stdout.decode().split("\0") if name]


def _fresh_wheel() -> Path | None:
    """The newest wheel of this version in dist/, when it is newer than every source."""
    wheels = sorted(DIST.glob(f"slopmark-{__version__}-*.whl"), key=lambda p: p.stat().st_mtime)
    if not wheels:
        return None
    sources = _tracked("pyproject.toml", "README.md", "src", "native")
    newest = max((ROOT / name).stat().st_mtime for name in sources if (ROOT / name).exists())
    return wheels[-1] if wheels[-1].stat().st_mtime > newest else None


@pytest.fixture(scope="module")
def wheel() -> Path:
    """The wheel of the sources as they are: reused from dist/, or built there."""
    found = _fresh_wheel()
    if found is None:
        command = [str(BIN / "maturin"), "build", "--release", "--out", str(DIST)]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1800)
        assert done.returncode == 0, done.stderr[-3000:]
        found = _fresh_wheel()
    assert found is not None
    return found


@dataclass(frozen=True)
class Installed:
    """A fresh venv holding the wheel, and the environment its commands run in."""

    bin: Path
    home: Path

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``slopmark ARGS`` from a temporary folder; fails if it touched the repository."""
        log = self.home / f"audit-{time.monotonic_ns()}.log"
        done = subprocess.run(
            [str(self.bin / "slopmark"), *args], cwd=self.home, env=self.env(log),
            capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
        assert_untouched(log)
        return done

    def env(self, log: Path) -> dict[str, str]:
        """No PYTHONPATH, no ~/.cargo/bin, a home and caches of its own."""
        return {
            "PATH": f"{self.bin}{os.pathsep}/usr/local/bin{os.pathsep}/usr/bin{os.pathsep}/bin",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "XDG_DATA_HOME": str(self.home / "data"),
            "SLOPMARK_CACHE": str(self.home / "cache"),
            "SLOPMARK_AUDIT_ROOT": str(ROOT),
            "SLOPMARK_AUDIT_LOG": str(log),
        }


def assert_untouched(log: Path) -> None:
    opened = log.read_text().splitlines() if log.exists() else []
    assert not opened, f"the installed slopmark read the source tree: {opened[:5]}"


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    home = tmp_path_factory.mktemp("user")
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    target = Installed(venv / "bin", home)
    env = target.env(home / "pip.log") | {"SLOPMARK_AUDIT_ROOT": ""}
    assert shutil.which("cargo", path=env["PATH"]) is None, "the user has no Rust toolchain"
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)]
    done = subprocess.run(pip, cwd=home, env=env, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", where], env=env, capture_output=True, text=True,
        check=True,
    ).stdout.strip()  # fmt: skip
    (Path(site) / "sitecustomize.py").write_text(AUDIT)
    return target


def test_wheel_is_abi3_for_cpython_311_on_manylinux(wheel: Path) -> None:
    assert f"slopmark-{__version__}-cp311-abi3-manylinux" in wheel.name


def test_wheel_holds_every_tracked_file_of_the_package(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [n[len("src/") :] for n in _tracked("src/slopmark") if n[len("src/") :] not in names]
    assert not missing, missing[:10]
    for folder in DATA:
        assert any(name.startswith(folder) for name in names), folder
    assert any(n.startswith("slopmark/_core.") and n.endswith(".so") for n in names)


def test_the_audit_sees_a_read_of_the_repository(installed: Installed) -> None:
    """The hook works: a plain read of pyproject.toml in the venv's Python is recorded."""
    log = installed.home / "control.log"
    code = f"open({str(ROOT / 'pyproject.toml')!r}).close()"
    python = str(installed.bin / "python")
    subprocess.run([python, "-c", code], env=installed.env(log), check=True, timeout=60)
    assert str(ROOT / "pyproject.toml") in log.read_text()


def test_version(installed: Installed) -> None:
    done = installed.run("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"slopmark {__version__}")


def test_code_measure_on_a_small_tree(installed: Installed) -> None:
    tree = installed.home / "tree"
    tree.mkdir()
    (tree / "app.py").write_text("def main(x):\n    if x:\n        return 1\n    return 2\n")
    done = installed.run("code", "measure", str(tree), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["files_measured"], report["callables"]) == (1, 1)


def test_bench_list_shows_the_bundled_problems(installed: Installed) -> None:
    done = installed.run("code", "bench", "list", "--json")
    assert done.returncode == 0, done.stderr
    names = [problem["name"] for problem in json.loads(done.stdout)]
    assert names == ["jobgraph", "kvstore", "ledger", "logq"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str, deadline: float) -> str:
    """The page's text, once the server answers (or the last error past the deadline)."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return str(response.read().decode())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def test_serve_answers_the_home_page(installed: Installed) -> None:
    port, log = _free_port(), installed.home / "serve.log"
    command = [str(installed.bin / "slopmark"), "serve", "--port", str(port),
               "--db", str(installed.home / "runs.db")]  # fmt: skip
    with (installed.home / "serve.out").open("w") as out:
        server = subprocess.Popen(command, cwd=installed.home, env=installed.env(log),
                                  stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
        try:
            page = _get(f"http://127.0.0.1:{port}/", time.monotonic() + 90)
        finally:
            server.terminate()
            server.wait(timeout=30)
    assert "<html" in page.lower() and "slopmark" in page
    assert_untouched(log)


def test_pipx_installs_the_wheel(installed: Installed, wheel: Path) -> None:
    """`pipx install` of the wheel (pipx itself from the package index into the fresh venv):
    the `slopmark` it puts on PATH runs from its own environment."""
    env = installed.env(installed.home / "pipx.log") | {
        "SLOPMARK_AUDIT_ROOT": "",
        "PIPX_HOME": str(installed.home / "pipx"),
        "PIPX_BIN_DIR": str(installed.home / "pipx-bin"),
    }
    python = str(installed.bin / "python")
    for command in ([python, "-m", "pip", "install", "--quiet", "pipx"],
                    [python, "-m", "pipx", "install", str(wheel)]):  # fmt: skip
        done = subprocess.run(command, cwd=installed.home, env=env, capture_output=True,
                              text=True, timeout=1200)  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
    sites = list((installed.home / "pipx" / "venvs" / "slopmark").glob("lib/python*/site-packages"))
    assert sites, "pipx made no venv for slopmark"
    for site in sites:
        (site / "sitecustomize.py").write_text(AUDIT)  # the same audit in pipx's venv
    log = installed.home / "pipx-run.log"
    version = subprocess.run(
        [str(installed.home / "pipx-bin" / "slopmark"), "--version"], cwd=installed.home,
        env=installed.env(log), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert version.stdout.strip() == f"slopmark {__version__}"
    assert_untouched(log)
    bench = subprocess.run(
        [str(installed.home / "pipx-bin" / "slopmark"), "code", "bench", "list", "--json"],
        cwd=installed.home, env=installed.env(log), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert len(json.loads(bench.stdout)) == 4
    assert_untouched(log)


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist of the sources as they are: dist/'s when it is newer than every source, or
    one `maturin sdist` writes (seconds: it packs, it does not build)."""
    sources = _tracked("pyproject.toml", "README.md", "src", "native")
    newest = max((ROOT / name).stat().st_mtime for name in sources if (ROOT / name).exists())
    found = [p for p in DIST.glob(f"slopmark-{__version__}.tar.gz") if p.stat().st_mtime > newest]
    if found:
        return found[0]
    out = tmp_path_factory.mktemp("sdist")
    manifest = ["--manifest-path", "native/Cargo.toml"]
    command = [str(BIN / "maturin"), "sdist", *manifest, "--out", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return next(out.glob("slopmark-*.tar.gz"))


def test_the_sdist_builds_a_wheel_away_from_the_repository(sdist: Path, tmp_path: Path) -> None:
    """The sdist holds everything its build reads: unpacked in a temporary folder, pip builds
    a working wheel from it with Rust and Python alone (the repository's compiled
    dependencies reused through CARGO_TARGET_DIR, so the test compiles one crate)."""
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (unpacked,) = tmp_path.iterdir()
    assert (unpacked / "src" / "slopmark" / "problems" / "kvstore" / "config.yaml").is_file()
    path = os.pathsep.join([str(BIN), str(Path.home() / ".cargo" / "bin"), os.environ["PATH"]])
    env = {**os.environ, "PATH": path, "CARGO_TARGET_DIR": str(ROOT / "native" / "target")}
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    command = [*pip, "--wheel-dir", str(tmp_path / "out"), str(unpacked)]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = (tmp_path / "out").glob("slopmark-*.whl")
    names = zipfile.ZipFile(built).namelist()
    assert any(n.startswith("slopmark/_core.") and n.endswith(".so") for n in names)
    assert any(n.startswith("slopmark/code/measure/rules/pack/booleans/") for n in names)
