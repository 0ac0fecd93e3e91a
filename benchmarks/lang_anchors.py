"""The anchor tools of `lang_fidelity.py`: install each one, run it, read its per-function CC.

Every anchor is installed by its own package manager into ``benchmarks/.cache/langs``
(gitignored) the first time it is needed, pinned to one release:

| language | anchor | installed with |
| --- | --- | --- |
| JavaScript, TypeScript | ESLint's `complexity` rule (typescript-eslint's parser for TS) | npm |
| Go | gocyclo | `go install` (Go module proxy) |
| Java | PMD's `CyclomaticComplexity` rule (the CYCLO metric) | Maven (`pmd-cli`, `pmd-java`) |
| Rust | rust-code-analysis-cli | `cargo install` |

Each runner returns `AnchorFunction` records: the file (relative to the measured
folder), the line the anchor puts the function on, its name and its CC.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache" / "langs"
INSTALL_TIMEOUT = 1800

ESLINT_VERSION = "10.15.0"
TYPESCRIPT_ESLINT_VERSION = "8.74.0"
TYPESCRIPT_VERSION = "5.9.3"
GOCYCLO_VERSION = "v0.6.0"
PMD_VERSION = "7.9.0"
RCA_VERSION = "0.0.25"

JS_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx")
TS_SUFFIXES = (".ts", ".mts", ".cts", ".tsx")

#: ESLint flat config: the `complexity` rule with maximum 0 reports every function.
#: Inline `eslint-disable` comments in the measured package are ignored.
ESLINT_CONFIG = """\
const tseslint = require("typescript-eslint");
const jsx = { ecmaFeatures: { jsx: true } };
const common = {
  linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: "off" },
  rules: { complexity: ["error", 0] },
};
module.exports = [
  { ...common, files: ["**/*.js", "**/*.mjs", "**/*.jsx"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", parserOptions: jsx } },
  { ...common, files: ["**/*.cjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "commonjs" } },
  { ...common, files: ["**/*.ts", "**/*.mts", "**/*.cts", "**/*.tsx"],
    languageOptions: { parser: tseslint.parser, parserOptions: jsx } },
];
"""

#: PMD ruleset: CyclomaticComplexity with a method report level of 1 reports every
#: method and constructor; the class level is set out of reach.
PMD_RULESET = """\
<?xml version="1.0"?>
<ruleset name="cyclo" xmlns="http://pmd.sourceforge.net/ruleset/2.0.0">
  <description>every method's CYCLO</description>
  <rule ref="category/java/design.xml/CyclomaticComplexity">
    <properties>
      <property name="classReportLevel" value="1000000"/>
      <property name="methodReportLevel" value="1"/>
    </properties>
  </rule>
</ruleset>
"""

PMD_POM = """\
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.slopmark</groupId>
  <artifactId>pmd-anchor</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>net.sourceforge.pmd</groupId><artifactId>pmd-cli</artifactId>
      <version>{version}</version>
    </dependency>
    <dependency>
      <groupId>net.sourceforge.pmd</groupId><artifactId>pmd-java</artifactId>
      <version>{version}</version>
    </dependency>
  </dependencies>
</project>
"""

_ESLINT_MESSAGE = re.compile(r"^(.*) has a complexity of (\d+)\.")
_PMD_MESSAGE = re.compile(
    r"^The (?:method|constructor) '([^']*)' has a cyclomatic complexity of (\d+)"
)
_GOCYCLO_LINE = re.compile(r"^(\d+) (\S+) (.+) (.+):(\d+):(\d+)$")


class AnchorUnavailable(Exception):
    """An anchor tool could not be installed or run; the message says why."""


@dataclass(frozen=True, slots=True)
class AnchorFunction:
    file: str
    line: int
    name: str
    cc: int
    #: The end of the function's head where the anchor reports one (ESLint): (line, column).
    head_end: tuple[int, int] | None = None


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(
    argv: list[str],
    what: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    ok: tuple[int, ...] = (0,),
) -> str:
    """Run a setup or anchor command; `AnchorUnavailable` with its last error line otherwise."""
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=INSTALL_TIMEOUT,
            env={**os.environ, **(env or {})},
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise AnchorUnavailable(f"{what}: {error}") from error
    if done.returncode not in ok:
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        raise AnchorUnavailable(f"{what}: {lines[-1] if lines else f'exit {done.returncode}'}")
    return done.stdout


# --- ESLint (JavaScript, TypeScript) -------------------------------------------------


def eslint_bin() -> Path:
    prefix = CACHE / "node"
    binary = prefix / "node_modules" / ".bin" / "eslint"
    if not binary.exists():
        log(f"installing eslint {ESLINT_VERSION} and typescript-eslint {TYPESCRIPT_ESLINT_VERSION}")
        prefix.mkdir(parents=True, exist_ok=True)
        run(
            [
                "npm",
                "install",
                "--prefix",
                str(prefix),
                "--save-exact",
                "--no-audit",
                "--no-fund",
                f"eslint@{ESLINT_VERSION}",
                f"typescript-eslint@{TYPESCRIPT_ESLINT_VERSION}",
                f"typescript@{TYPESCRIPT_VERSION}",
            ],
            "npm install eslint",
        )
    config = prefix / "eslint.config.cjs"
    if not config.exists() or config.read_text() != ESLINT_CONFIG:
        config.write_text(ESLINT_CONFIG)
    return binary


def eslint_functions(tree: Path) -> tuple[list[AnchorFunction], list[str]]:
    """Every function ESLint's `complexity` rule sees under ``tree``, and files it cannot parse."""
    binary = eslint_bin()
    out = run(
        [
            str(binary),
            "--config",
            str(CACHE / "node" / "eslint.config.cjs"),
            "--format",
            "json",
            "--no-warn-ignored",
            ".",
        ],
        "eslint",
        cwd=tree,
        ok=(0, 1),
    )
    functions, fatal = [], []
    for result in json.loads(out):
        rel = Path(result["filePath"]).relative_to(tree).as_posix()
        for message in result["messages"]:
            if message.get("fatal"):
                fatal.append(f"{rel}:{message.get('line')}: {message['message']}")
            elif message.get("ruleId") == "complexity":
                found = _ESLINT_MESSAGE.match(message["message"])
                if found:
                    functions.append(
                        AnchorFunction(
                            rel,
                            message["line"],
                            found[1],
                            int(found[2]),
                            (message["endLine"], message["endColumn"]),
                        )
                    )
    return functions, fatal


# --- gocyclo (Go) --------------------------------------------------------------------


def gocyclo_bin() -> Path:
    binary = CACHE / "bin" / "gocyclo"
    if not binary.exists():
        log(f"installing gocyclo {GOCYCLO_VERSION}")
        run(
            ["go", "install", f"github.com/fzipp/gocyclo/cmd/gocyclo@{GOCYCLO_VERSION}"],
            "go install gocyclo",
            env={"GOBIN": str(binary.parent), "GOFLAGS": "-modcacherw"},
        )
    return binary


def gocyclo_functions(tree: Path) -> tuple[list[AnchorFunction], list[str]]:
    out = run([str(gocyclo_bin()), "-over", "0", "."], "gocyclo", cwd=tree, ok=(0, 1))
    functions = []
    for line in out.splitlines():
        found = _GOCYCLO_LINE.match(line.strip())
        if found:
            file = Path(found[4]).as_posix().removeprefix("./")
            functions.append(AnchorFunction(file, int(found[5]), found[3], int(found[1])))
    return functions, []


# --- PMD (Java) ----------------------------------------------------------------------


def pmd_classpath() -> str:
    folder = CACHE / "pmd"
    lib = folder / "lib"
    if not (lib / f"pmd-java-{PMD_VERSION}.jar").exists():
        log(f"installing PMD {PMD_VERSION} (pmd-cli, pmd-java) with Maven")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "pom.xml").write_text(PMD_POM.format(version=PMD_VERSION))
        run(
            ["mvn", "-B", "-q", "dependency:copy-dependencies", f"-DoutputDirectory={lib}"],
            "mvn dependency:copy-dependencies (PMD)",
            cwd=folder,
        )
    (folder / "cyclo.xml").write_text(PMD_RULESET)
    return str(lib / "*")


def pmd_functions(tree: Path) -> tuple[list[AnchorFunction], list[str]]:
    classpath = pmd_classpath()
    report = CACHE / "pmd" / "report.json"
    run(
        [
            "java",
            "-cp",
            classpath,
            "net.sourceforge.pmd.cli.PmdCli",
            "check",
            "-d",
            str(tree),
            "-R",
            str(CACHE / "pmd" / "cyclo.xml"),
            "-f",
            "json",
            "-r",
            str(report),
            "--no-cache",
            "--no-progress",
            "--threads",
            "1",
        ],
        "pmd check",
        ok=(0, 4, 5),
    )
    data = json.loads(report.read_text())
    functions = []
    for entry in data["files"]:
        rel = Path(entry["filename"]).resolve().relative_to(tree.resolve()).as_posix()
        for violation in entry["violations"]:
            found = _PMD_MESSAGE.match(violation["description"])
            if found:
                functions.append(
                    AnchorFunction(rel, violation["beginline"], found[1], int(found[2]))
                )
    fatal = [
        f"{Path(e['filename']).name}: {e['message'].splitlines()[0]}"
        for e in data.get("processingErrors", [])
    ]
    return functions, fatal


# --- rust-code-analysis (Rust) -------------------------------------------------------


def rca_bin() -> Path:
    root = CACHE / "rca"
    binary = root / "bin" / "rust-code-analysis-cli"
    if not binary.exists():
        log(f"installing rust-code-analysis-cli {RCA_VERSION} with cargo (builds for minutes)")
        run(
            [
                "cargo",
                "install",
                "--locked",
                "--root",
                str(root),
                f"rust-code-analysis-cli@{RCA_VERSION}",
            ],
            "cargo install rust-code-analysis-cli",
        )
    return binary


def rca_functions(tree: Path) -> tuple[list[AnchorFunction], list[str]]:
    """Function and closure spaces with their own cyclomatic complexity."""
    binary = rca_bin()
    functions: list[AnchorFunction] = []
    for path in sorted(tree.rglob("*.rs")):
        rel = path.relative_to(tree).as_posix()
        out = run([str(binary), "-m", "-O", "json", "-p", str(path)], f"rust-code-analysis {rel}")
        functions.extend(_rca_spaces(json.loads(out), rel))
    return functions, []


def _rca_spaces(space: dict, rel: str) -> Iterator[AnchorFunction]:
    if space.get("kind") in ("function", "closure"):
        metrics = space["metrics"]["cyclomatic"]
        nested = sum(child["metrics"]["cyclomatic"]["sum"] for child in space.get("spaces", []))
        own = int(metrics["sum"] - nested)
        yield AnchorFunction(rel, space["start_line"], space.get("name") or "<closure>", own)
    for child in space.get("spaces", []):
        yield from _rca_spaces(child, rel)


ANCHORS = {
    "javascript": ("ESLint complexity", eslint_functions),
    "typescript": ("ESLint complexity (typescript-eslint parser)", eslint_functions),
    "go": ("gocyclo", gocyclo_functions),
    "java": ("PMD CyclomaticComplexity", pmd_functions),
    "rust": ("rust-code-analysis", rca_functions),
}
