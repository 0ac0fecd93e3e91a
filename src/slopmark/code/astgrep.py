"""Run the rule pack with the ast-grep binary (adapter: subprocess I/O).

The binary is the one the ``ast-grep-cli`` package installs, found by its
absolute path: on Linux a bare ``sg`` is usually an unrelated system tool. A
missing or broken engine is an error, never a silent zero.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path

from slopmark.code.hits import RuleHit
from slopmark.code.rules import PACK_DIR, Rule
from slopmark.errors import BadInput, EngineError

#: Paths per ast-grep invocation (keeps command lines well under ARG_MAX).
BATCH = 800
_INSTALL_HINT = "install it with: pip install ast-grep-cli"


@cache
def binary() -> Path:
    """Absolute path of a working ast-grep binary."""
    for candidate in _candidates():
        if candidate.is_file() and _works(candidate):
            return candidate
    raise EngineError(f"the ast-grep engine was not found or does not run; {_INSTALL_HINT}")


def _candidates() -> list[Path]:
    found = []
    try:
        for file in metadata.distribution("ast-grep-cli").files or ():
            if file.name == "ast-grep":
                found.append(Path(str(file.locate())).resolve())
    except metadata.PackageNotFoundError:
        pass
    found.append(Path(sys.executable).parent / "ast-grep")
    on_path = shutil.which("ast-grep")
    if on_path:
        found.append(Path(on_path))
    return found


def _works(path: Path) -> bool:
    try:
        done = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and done.stdout.startswith("ast-grep")


def rules_document(rules: Sequence[Rule]) -> str:
    """All rules as one multi-document YAML file, as ``ast-grep scan --rule`` reads."""
    return "\n---\n".join(rule.yaml_text for rule in rules)


class Scan:
    """An ast-grep scan running in the background while Python work goes on.

    ``display`` maps a scanned file path back to the path reported in hits.
    """

    def __init__(
        self,
        rules: Sequence[Rule],
        paths: Sequence[str],
        display: Callable[[str], str] = str,
        threads: int = 0,
    ) -> None:
        self._rules = rules
        self._paths = list(paths)
        self._display = display
        self._threads = threads
        self._hits: list[RuleHit] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        if rules and paths:
            self._thread.start()

    def result(self) -> list[RuleHit]:
        """Wait for the scan; raise what went wrong in it."""
        if self._thread.is_alive() or self._thread.ident is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        return self._hits

    def _run(self) -> None:
        try:
            with tempfile.TemporaryDirectory(prefix="slopmark-rules-") as folder:
                rule_file = Path(folder) / "rules.yml"
                rule_file.write_text(rules_document(self._rules), encoding="utf-8")
                for start in range(0, len(self._paths), BATCH):
                    self._scan(rule_file, self._paths[start : start + BATCH])
        except BaseException as error:  # handed to the caller by result()
            self._error = error

    def _scan(self, rule_file: Path, paths: list[str]) -> None:
        command = [str(binary()), "scan", "--rule", str(rule_file), "--json=stream", "--warning"]
        if self._threads:
            command += ["--threads", str(self._threads)]
        process = subprocess.run(
            [*command, "--", *paths],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        if process.returncode not in (0, 1) or (process.returncode and not process.stdout):
            raise _scan_error(process.stderr, self._rules)
        self._hits.extend(self._parse(process.stdout))

    def _parse(self, stream: str) -> list[RuleHit]:
        severity = {rule.id: rule.severity for rule in self._rules}
        hits = []
        for line in stream.splitlines():
            item = json.loads(line)
            span = item["range"]
            rule_id = item["ruleId"]
            hits.append(
                RuleHit(
                    rule=rule_id,
                    path=self._display(item["file"]),
                    start=span["start"]["line"] + 1,
                    end=span["end"]["line"] + 1,
                    message=item.get("message") or rule_id,
                    severity=severity.get(rule_id, "warning"),
                )
            )
        return hits


def _cause(stderr: str) -> str:
    """The "Caused by" lines of an ast-grep error, or its first line."""
    causes = [
        line.split("\u25bb", 1)[-1].strip() for line in stderr.splitlines() if "\u25bb" in line
    ]
    lines = causes[-2:] or stderr.strip().splitlines()[:1] or ["no message"]
    return "; ".join(lines)


def rejection(rule: Rule) -> str | None:
    """Why ast-grep refuses ``rule`` on its own, or None when it accepts it."""
    with tempfile.TemporaryDirectory(prefix="slopmark-rule-") as folder:
        rule_file = Path(folder) / "rule.yml"
        rule_file.write_text(rule.yaml_text, encoding="utf-8")
        empty = Path(folder) / "empty.py"
        empty.write_text("", encoding="utf-8")
        done = subprocess.run(
            [str(binary()), "scan", "--rule", str(rule_file), str(empty)],
            capture_output=True,
            text=True,
        )
    return _cause(done.stderr) if done.returncode not in (0, 1) else None


def _scan_error(stderr: str, rules: Sequence[Rule]) -> BaseException:
    """Name the rule ast-grep refused, trying the user's own rules first."""
    for rule in sorted(rules, key=lambda r: Path(r.source).is_relative_to(PACK_DIR)):
        reason = rejection(rule)
        if reason is not None:
            return BadInput(f"{rule.source}: rule '{rule.id}' is rejected by ast-grep: {reason}")
    return EngineError(f"ast-grep failed: {_cause(stderr)}; {_INSTALL_HINT}")
