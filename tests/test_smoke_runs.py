"""Every script under benchmarks/ and fuzz/ has a smoke run in `make smoke` (part of
`make check`), so that none of them rots unseen (issue 30)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Scripts with a `__main__` that the smoke runs cannot start, and why.
NOT_RUN = {
    "benchmarks/ifeval_checks.py": "runs inside IFEval's own venv, as the peer's side; "
    "verifier_agreement.py imports it",
}


def scripts() -> list[str]:
    """The runnable scripts: the files of benchmarks/ and fuzz/ with a `__main__` block."""
    found = sorted([*ROOT.glob("benchmarks/*.py"), *ROOT.glob("fuzz/*.py")])
    return [
        str(path.relative_to(ROOT))
        for path in found
        if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
    ]


def smoke_recipe() -> str:
    """The recipe lines of the Makefile's `smoke` target."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^smoke:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert found, "the Makefile has no smoke target"
    return found.group(1)


def test_every_script_has_a_smoke_run() -> None:
    recipe = smoke_recipe()
    missing = [s for s in scripts() if s not in NOT_RUN and f"$(PY) {s} " not in recipe]
    assert missing == [], f"give these a line in the Makefile's smoke target: {missing}"


def test_the_library_modules_are_imported_by_the_scripts() -> None:
    """A file without `__main__` is a module of the scripts (the anchors, the answer
    builders): another file of benchmarks/ imports it, or it never runs."""
    runnable = set(scripts())
    files = {p.stem: p.read_text(encoding="utf-8") for p in ROOT.glob("benchmarks/*.py")}
    modules = [m for m in files if f"benchmarks/{m}.py" not in runnable]
    unused = [
        m
        for m in modules
        if not any(re.search(rf"^\s*from {m} import", text, re.MULTILINE)
                   for other, text in files.items() if other != m)
    ]  # fmt: skip
    assert modules and unused == []


def test_the_smoke_runs_are_part_of_make_check() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = re.search(r"^check:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert check and "smoke" in check.group(1)
