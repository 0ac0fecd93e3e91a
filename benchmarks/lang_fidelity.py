"""CC per function of `slopmark code measure` against each language's anchor tool.

For JavaScript/TypeScript the anchor is ESLint's `complexity` rule, for Go gocyclo, for
Java PMD's CyclomaticComplexity (CYCLO), for Rust rust-code-analysis (the CC table of each
language is written in `docs/languages.md`). Real packages are fetched with their own
package managers (npm pack, go mod download, Maven, cargo vendor) into
``benchmarks/.cache/langs``; the anchors are installed there too (`lang_anchors.py`).

    .venv/bin/python benchmarks/lang_fidelity.py [--language L] [--json OUT] [--show N]
    .venv/bin/python benchmarks/lang_fidelity.py --fixtures  # tests/code/fidelity/lang_anchors.json
    .venv/bin/python benchmarks/lang_fidelity.py --smoke     # the fixtures against that file

Every function the anchor reports is matched to slopmark's callable starting on the same
line of the same file, or else (a head spanning lines) to the innermost callable enclosing
that line. The report gives, per package, the anchor's functions, how many slopmark scores
equally, the anchor's code paths that are not callables by definition (ESLint's
class-field initialisers and static blocks), the functions in files slopmark does not
measure (another language's files, excluded folders such as `build/`), and examples of
every disagreement. The exit status is 0 unless the benchmark
itself cannot run; a missed 98 % target is printed as MISSED.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lang_anchors import ANCHORS, CACHE, AnchorFunction, AnchorUnavailable, log, run

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PACKAGES = CACHE / "packages"
FIXTURES = ROOT / "tests" / "code" / "golden" / "lang"
FIXTURE_ANCHORS = ROOT / "tests" / "code" / "fidelity" / "lang_anchors.json"
TARGET = 0.98
#: ESLint code paths that are not functions, so not callables (docs/languages.md).
NOT_CALLABLES = ("Class field initializer", "Class static block")


@dataclass(frozen=True)
class Package:
    """A package's published source: how to fetch it and which folder holds its code."""

    language: str
    manager: str
    name: str
    version: str
    folder: str = ""

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"


PACKAGE_LIST = (
    Package("javascript", "npm", "express", "5.1.0", "lib"),
    Package("javascript", "npm", "lodash", "4.17.21"),
    Package("javascript", "npm", "axios", "1.7.9", "lib"),
    Package("typescript", "npm", "@tanstack/query-core", "5.62.0", "src"),
    Package("typescript", "npm", "@tanstack/react-query", "5.62.0", "src"),
    Package("typescript", "npm", "rxjs", "7.8.1", "src"),
    Package("go", "go", "github.com/gin-gonic/gin", "v1.10.0"),
    Package("go", "go", "github.com/spf13/cobra", "v1.8.1"),
    Package("go", "go", "github.com/gorilla/mux", "v1.8.1"),
    Package("java", "maven", "org.apache.commons:commons-lang3", "3.17.0"),
    Package("java", "maven", "com.google.code.gson:gson", "2.11.0"),
    Package("rust", "cargo", "regex-syntax", "0.8.5"),
    Package("rust", "cargo", "semver", "1.0.23"),
    Package("rust", "cargo", "serde_json", "1.0.133"),
    Package("rust", "cargo", "anyhow", "1.0.93"),
)


# --- fetching -------------------------------------------------------------------------


def fetch_npm(package: Package) -> Path:
    target = PACKAGES / "npm" / package.label.replace("/", "__")
    if not target.is_dir():
        work = PACKAGES / "npm"
        work.mkdir(parents=True, exist_ok=True)
        tarball = run(["npm", "pack", "--silent", package.label], "npm pack", cwd=work).split()[-1]
        with tarfile.open(work / tarball) as archive:
            archive.extractall(target, filter="data")
    return target / "package"


def fetch_go(package: Package) -> Path:
    out = run(
        ["go", "mod", "download", "-json", package.label],
        "go mod download",
        env={"GOMODCACHE": str(PACKAGES / "gomod"), "GOFLAGS": "-modcacherw"},
    )
    return Path(json.loads(out)["Dir"])


def fetch_maven(package: Package) -> Path:
    group, artifact = package.name.split(":")
    target = PACKAGES / "maven" / f"{artifact}-{package.version}"
    if not target.is_dir():
        jars = PACKAGES / "maven" / "jars"
        run(
            [
                "mvn",
                "-B",
                "-q",
                "dependency:copy",
                f"-Dartifact={group}:{artifact}:{package.version}:jar:sources",
                f"-DoutputDirectory={jars}",
            ],
            "mvn dependency:copy",
        )
        with zipfile.ZipFile(jars / f"{artifact}-{package.version}-sources.jar") as archive:
            archive.extractall(target)
    return target


def fetch_cargo(package: Package) -> Path:
    project = PACKAGES / "cargo" / "fetch"
    vendor = PACKAGES / "cargo" / "vendor"
    target = vendor / f"{package.name}-{package.version}"
    if not target.is_dir():
        (project / "src").mkdir(parents=True, exist_ok=True)
        (project / "src" / "lib.rs").write_text("")
        (project / "Cargo.toml").write_text(
            '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n\n'
            f'[dependencies]\n{package.name} = "={package.version}"\n'
        )
        run(["cargo", "vendor", "--versioned-dirs", str(vendor)], "cargo vendor", cwd=project)
    return target


FETCHERS: dict[str, Callable[[Package], Path]] = {
    "npm": fetch_npm,
    "go": fetch_go,
    "maven": fetch_maven,
    "cargo": fetch_cargo,
}


# --- slopmark's side ------------------------------------------------------------------


def slopmark_callables(tree: Path, language: str) -> dict[str, list[tuple[int, int, int]]]:
    """(start, end, CC) of every callable, by file, as `code measure --json` reports them."""
    binary = Path(sys.executable).parent / "slopmark"
    done = subprocess.run(
        [str(binary), "code", "measure", str(tree), "--json", "--language", language],
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 1):
        raise AnchorUnavailable(f"slopmark failed: {done.stderr.strip()[-300:]}")
    report = json.loads(done.stdout)
    return {
        f["path"]: [(c["start"], c["end"], c["cc"]) for c in f["callables"]]
        for f in report["files"]
    }


# --- comparison -----------------------------------------------------------------------


@dataclass
class Comparison:
    functions: int = 0
    equal: int = 0
    not_callables: int = 0
    not_measured: int = 0
    anchor_failures: list[str] = field(default_factory=list)
    disagreements: list[dict[str, Any]] = field(default_factory=list)

    @property
    def agreement(self) -> float | None:
        return self.equal / self.functions if self.functions else None


def compare(
    anchor: Iterable[AnchorFunction], ours: dict[str, list[tuple[int, int, int]]]
) -> Comparison:
    """Match the anchor's functions to our callables by file and start line.

    An anchor function on a line where no callable starts (ESLint puts an arrow function
    whose parameters span lines on its `=>`) is matched to the innermost unmatched
    callable enclosing that line. Files slopmark does not measure (another language, an
    excluded folder such as `build/`) are counted apart."""
    result = Comparison()
    for function in sorted(anchor, key=lambda f: (f.file, f.line)):
        if function.name in NOT_CALLABLES:
            result.not_callables += 1
        elif function.file not in ours:
            result.not_measured += 1
        else:
            result.functions += 1
            _match(function, ours[function.file], result)
    return result


def _match(
    function: AnchorFunction, callables: list[tuple[int, int, int]], result: Comparison
) -> None:
    """Take the best callable for ``function`` out of ``callables`` and score it."""
    same_line = [c for c in callables if c[0] == function.line]
    enclosing = [c for c in callables if c[0] <= function.line <= c[1]]
    candidates = same_line or sorted(enclosing, key=lambda c: -c[0])[:1]
    equal = [c for c in candidates if c[2] == function.cc]
    if equal:
        callables.remove(equal[0])
        result.equal += 1
        return
    if candidates:
        callables.remove(candidates[0])
    result.disagreements.append(
        {
            "file": function.file,
            "line": function.line,
            "name": function.name,
            "anchor_cc": function.cc,
            "slopmark_cc": [c[2] for c in candidates] or None,
        }
    )


def measure_package(package: Package) -> dict[str, Any]:
    tool, functions_of = ANCHORS[package.language]
    source = FETCHERS[package.manager](package)
    tree = (source / package.folder) if package.folder else source
    anchor, failures = functions_of(tree.resolve())
    result = compare(anchor, slopmark_callables(tree, package.language))
    return row(package.label, package.language, tool, result, failures)


def row(
    label: str, language: str, tool: str, result: Comparison, failures: list[str]
) -> dict[str, Any]:
    """One package's line of the report (and of --json)."""
    return {
        "package": label,
        "language": language,
        "anchor": tool,
        "functions": result.functions,
        "equal": result.equal,
        "agreement": result.agreement,
        "not_callables": result.not_callables,
        "not_measured": result.not_measured,
        "anchor_parse_failures": failures,
        "disagreements": result.disagreements,
    }


def smoke_rows(languages: list[str]) -> list[dict[str, Any]]:
    """The golden fixtures of each language against the anchors' answers stored in
    FIXTURE_ANCHORS: nothing is fetched and no anchor runs (`make check`'s smoke run)."""
    stored = json.loads(FIXTURE_ANCHORS.read_text(encoding="utf-8"))
    rows = []
    for language, found in sorted(stored.items()):
        if languages and language not in languages:
            continue
        anchor = [AnchorFunction(**f) for f in found["functions"]]
        result = compare(anchor, slopmark_callables(FIXTURES / language, language))
        rows.append(row(f"fixtures/{language}", language, found["anchor"], result, []))
    return rows


# --- fixtures -------------------------------------------------------------------------


def fixture_anchors() -> dict[str, Any]:
    """Each anchor's functions on the committed golden fixtures (stored as test data)."""
    found: dict[str, Any] = {}
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        tool, functions_of = ANCHORS[folder.name]
        functions, failures = functions_of(folder.resolve())
        found[folder.name] = {
            "anchor": tool,
            "parse_failures": failures,
            "functions": [
                {"file": f.file, "line": f.line, "name": f.name, "cc": f.cc}
                for f in sorted(functions, key=lambda f: (f.file, f.line, f.name))
            ],
        }
    return found


# --- report ---------------------------------------------------------------------------


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f} %"


def print_report(rows: list[dict[str, Any]], show: int) -> None:
    print(
        f"{'package':34} {'language':10} {'anchor':44} {'functions':>9} {'equal':>9} "
        f"{'agreement':>10} {'not callables':>13} {'not measured':>12}"
    )
    for row in rows:
        if "error" in row:
            print(f"{row['package']:34} {row['language']:10} unavailable: {row['error']}")
            continue
        print(
            f"{row['package']:34} {row['language']:10} {row['anchor']:44} {row['functions']:>9} "
            f"{row['equal']:>9} {percent(row['agreement']):>10} {row['not_callables']:>13} "
            f"{row['not_measured']:>12}"
        )
    print()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if "error" not in row:
            totals[row["language"]][0] += row["functions"]
            totals[row["language"]][1] += row["equal"]
    for language, (functions, equal) in totals.items():
        share = equal / functions if functions else None
        verdict = "ok" if share is not None and share >= TARGET else "MISSED"
        print(
            f"{language:10} {equal}/{functions} functions equal = {percent(share)} "
            f"(target >= {100 * TARGET:.0f} %): {verdict}"
        )
    for row in rows:
        for item in row.get("disagreements", [])[:show]:
            print(
                f"  {row['package']}: {item['file']}:{item['line']} {item['name']}: "
                f"anchor {item['anchor_cc']}, slopmark {item['slopmark_cc']}"
            )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--language",
        action="append",
        default=[],
        choices=sorted({p.language for p in PACKAGE_LIST}),
        help="only these languages (repeatable)",
    )
    parser.add_argument("--json", type=Path, help="also save every number as JSON")
    parser.add_argument(
        "--show", type=int, default=10, help="disagreements listed per package (default 10)"
    )
    parser.add_argument(
        "--fixtures",
        action="store_true",
        help=f"rewrite {FIXTURE_ANCHORS.relative_to(ROOT)} from the anchors",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"compare on the golden fixtures with {FIXTURE_ANCHORS.name}: no fetch, no anchor",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.fixtures:
        FIXTURE_ANCHORS.write_text(json.dumps(fixture_anchors(), indent=1) + "\n")
        log(f"wrote {FIXTURE_ANCHORS}")
        return 0
    rows = smoke_rows(args.language) if args.smoke else packages_rows(args.language)
    print_report(rows, args.show)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def packages_rows(languages: list[str]) -> list[dict[str, Any]]:
    """Every package of PACKAGE_LIST (of ``languages``, when given), fetched and measured."""
    rows: list[dict[str, Any]] = []
    for package in PACKAGE_LIST:
        if languages and package.language not in languages:
            continue
        log(f"{package.language}: {package.label}")
        try:
            rows.append(measure_package(package))
        except AnchorUnavailable as error:
            rows.append(
                {"package": package.label, "language": package.language, "error": str(error)}
            )
    return rows


if __name__ == "__main__":
    sys.exit(main())
