"""The ``paper`` rule set keeps the numbers of the paper's comparisons exactly (issue 36).

The values were measured on 2026-12-05 with main at e854467, before rule sets existed
(`slopmark code measure --json --no-cache`, main's own venv): flask 3.1.3's source release
(the paper's reference project; its whole release gives the paper's erosion 0.209) and
CPython 3.11.7's ``Lib/`` as `benchmarks/code_measure.py` copies it. Erosion does not
depend on rules; verbosity does, and the frozen paper set must not move it.

The flask release comes from ``make test`` (pip downloads it once into the gitignored
``benchmarks/.cache``); the test runs offline, and under CI a missing file fails it.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sysconfig
import tarfile
from pathlib import Path

import pytest

from clirun import run_cli

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FLASK_SDIST = ROOT / "benchmarks" / ".cache" / "flask-3.1.3.tar.gz"
#: (folder in the release, erosion, verbosity) as main measured them
FLASK = [
    ("flask-3.1.3/src/flask", 0.293995089638086, 0.13139763779527558),
    ("flask-3.1.3", 0.20903544446379066, 0.08777091301363146),
]
#: CPython's Lib/ as benchmarks/code_measure.py copies it (its LIB_IGNORE and
#: REFERENCE_CRASHERS), by the Python version it comes from
LIB = {"3.11.7": (0.30362233868047006, 0.13477264300401118)}
LIB_IGNORE = ("site-packages", "__pycache__", "lib-dynload", "config-*")


def _measure(tree: Path, rule_set: str, *options: str) -> dict[str, object]:
    done = run_cli(
        "code", "measure", str(tree), "--json", "--no-cache", "--rules-set", rule_set, *options
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    assert report["rule_set"] == rule_set
    return report


@pytest.fixture(scope="module")
def flask(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not FLASK_SDIST.exists():
        message = f"{FLASK_SDIST} is missing: `make test` downloads it (pip, once)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    target = tmp_path_factory.mktemp("flask")
    with tarfile.open(FLASK_SDIST) as archive:
        archive.extractall(target, filter="data")
    return target


@pytest.mark.parametrize(("folder", "erosion", "verbosity"), FLASK)
def test_flask_is_unchanged_under_the_paper_set(
    flask: Path, folder: str, erosion: float, verbosity: float
) -> None:
    report = _measure(flask / folder, "paper")
    assert (report["erosion"], report["verbosity"]) == (erosion, verbosity)


def test_lib_is_unchanged_under_the_paper_set(tmp_path: Path) -> None:
    version = platform.python_version()
    if version not in LIB:
        pytest.skip(f"Lib/ was pinned on CPython {', '.join(LIB)}, this is {version}")
    target = tmp_path / "Lib"
    stdlib = sysconfig.get_paths()["stdlib"]
    shutil.copytree(stdlib, target, ignore=shutil.ignore_patterns(*LIB_IGNORE))
    (target / "test" / "test_exceptions.py").unlink(missing_ok=True)
    report = _measure(target, "paper")
    assert (report["erosion"], report["verbosity"]) == LIB[version]


def test_slopmark_itself_stays_under_its_gates() -> None:
    """The dogfood gate of `make check`, with the default set: cleaner than flask (the
    bundled problems' reference solutions are data, left out as `make check` leaves them)."""
    report = _measure(ROOT / "src", "default", "--exclude", "slopmark/problems/*")
    assert report["erosion"] < 0.21 and report["verbosity"] < 0.11, report
