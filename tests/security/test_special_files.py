"""No reader hangs on, or reads without bound from, a file that is not a regular file.

A FIFO blocks its reader until a writer comes, ``/dev/zero`` never ends, a socket cannot
be read. Each reader of user-named files skips such a file with the reason ("not a
regular file (FIFO)") -- in ``skipped`` for code measure, as a note for a paper -- and a
FIFO or device named as the PATH itself is exit 2 with one line. Readers run in-process
under a watchdog (`special.finishes`), or as the real CLI with a timeout.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clirun import run_cli
from security.bounded import one_line_error
from security.special import char_device, fifo, finishes, socket_file
from slopmark.code.measure.baseline import read_baseline
from slopmark.code.measure.cache.files import Analyzer, Version
from slopmark.code.measure.cache.rules import cached_catalog
from slopmark.code.measure.cache.store import ResultCache
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.rules import load_catalog
from slopmark.errors import BadInput
from slopmark.evals.taskfile import load_tasks
from slopmark.paper.bench import read_pairs
from slopmark.paper.latex import load_document
from slopmark.paper.load import load_paper
from slopmark.paper.measures.figure_exposition import (
    FigureFileError,
    figure_image,
    method_figure,
)  # fmt: skip
from slopmark.paper.models import load_model_config
from slopmark.regular import Unreadable, read_regular

TIMEOUT = 60
RULE = "id: my-rule\nlanguage: python\nrule: {pattern: print($A)}\n"


# --- the shared reader ------------------------------------------------------------------


def test_the_shared_reader_refuses_each_kind_of_special_file(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("text")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    cases = {
        fifo(tmp_path / "pipe"): "not a regular file (FIFO)",
        char_device(tmp_path / "zero", "/dev/zero"): "not a regular file (character device)",
        socket_file(tmp_path / "s"): "not a regular file (socket)",
        tmp_path: "not a regular file (folder)",
    }
    for path, reason in cases.items():
        with pytest.raises(Unreadable) as refused:
            finishes(lambda path=path: read_regular(path, 100), [tmp_path / "pipe"])
        assert refused.value.reason == reason
        assert str(refused.value) == f"{path}: {reason}; pass a regular file"
    with pytest.raises(Unreadable, match="symlink \\(not followed\\)"):
        read_regular(tmp_path / "link.txt", 100, follow=False)
    assert read_regular(tmp_path / "link.txt", 100) == b"text"


def test_the_shared_reader_reads_at_most_the_limit(tmp_path: Path) -> None:
    """A file whose size says 0 but holds more (``/proc``), or one over the limit."""
    with pytest.raises(Unreadable, match="is over the 16 bytes limit"):
        read_regular("/proc/self/status", 16)
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 3000)
    with pytest.raises(Unreadable, match="2.9 KiB is over the 2 KiB limit"):
        read_regular(big, 2048)
    assert read_regular(big, 3000) == b"x" * 3000


# --- code -------------------------------------------------------------------------------


@pytest.mark.slow
def test_code_measure_skips_fifos_devices_and_sockets_with_the_reason(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.py").write_text("def f():\n    return 1\n")
    fifo(tree / "pipe.py")
    fifo(tree / "pyproject.toml")  # the project's settings: not waited for either
    char_device(tree / "zero.py", "/dev/zero")
    socket_file(tree / "s.py")
    done = run_cli("code", "measure", str(tree), "--json", timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {s["path"]: s["reason"] for s in report["skipped"]} == {
        "pipe.py": "not a regular file (FIFO)",
        "zero.py": "not a regular file (character device)",
        "s.py": "not a regular file (socket)",
    }
    assert [f["path"] for f in report["files"]] == ["a.py"]


@pytest.mark.parametrize("kind", ["FIFO", "character device"])
@pytest.mark.slow
def test_code_measure_refuses_a_fifo_or_device_named_as_path(tmp_path: Path, kind: str) -> None:
    path = fifo(tmp_path / "p.py") if kind == "FIFO" else char_device(tmp_path / "z.py")
    done = run_cli("code", "measure", str(path), timeout=TIMEOUT)
    assert one_line_error(done) == (
        f"slopmark: error: {path}: not a regular file ({kind}); pass a source file or a folder"
    )


def test_a_source_swapped_for_a_fifo_after_the_walk_is_not_read(tmp_path: Path) -> None:
    """The walk saw a regular file; by the read it is a FIFO, a device, or a symlink."""
    pipe = fifo(tmp_path / "a.py")
    zero = char_device(tmp_path / "b.py", "/dev/zero")
    (tmp_path / "c.py").symlink_to("/etc/hostname")
    versions = [Version(p.name, location=str(p)) for p in (pipe, zero, tmp_path / "c.py")]
    cache = tmp_path / "cache"  # the reads the cache makes: the engine's own are the core's
    outcomes = finishes(lambda: Analyzer((), 1, ResultCache(cache)).analyze(versions), [pipe])
    assert outcomes == [
        Skipped("a.py", "not a regular file (FIFO)"),
        Skipped("b.py", "not a regular file (character device)"),
        Skipped("c.py", "symlink (not followed)"),
    ]


@pytest.mark.slow
def test_code_diff_of_two_folders_names_the_fifo_and_finishes(tmp_path: Path) -> None:
    for side in ("base", "head"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a.py").write_text("def f():\n    return 1\n")
    fifo(tmp_path / "head" / "pipe.py")
    done = run_cli("code", "diff", str(tmp_path / "base"), str(tmp_path / "head"), "--json",
                   timeout=TIMEOUT)  # fmt: skip
    assert done.returncode == 0, done.stderr
    skipped = {s["path"]: s["reason"] for s in json.loads(done.stdout)["skipped"]}
    assert skipped["pipe.py"].startswith("not a regular file")


def test_rule_files_that_are_fifos_are_refused_or_not_waited_for(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "mine.yml").write_text(RULE)
    fifo(rules / "notes.txt")  # no rule file: the cache key does not wait for it
    found = finishes(lambda: cached_catalog(ResultCache(tmp_path / "c"), [rules]), [])
    assert "my-rule" in {rule.id for rule in found}
    fifo(rules / "more.yml")
    with pytest.raises(BadInput) as refused:
        finishes(lambda: load_catalog([rules]), [rules / "more.yml"])
    assert str(refused.value) == (
        f"{rules / 'more.yml'}: cannot read the rule file (not a regular file (FIFO)); "
        "fix the file or drop it"
    )


def test_a_baseline_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "baseline.json")
    with pytest.raises(BadInput, match="not a regular file \\(FIFO\\)"):
        finishes(lambda: read_baseline(pipe), [pipe])


# --- papers -----------------------------------------------------------------------------


def _paper(root: Path, body: str) -> Path:
    root.mkdir()
    (root / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n"
        f"We study cats.\n{body}\n\\end{{document}}\n"
    )
    return root


def test_a_paper_folder_notes_fifos_and_devices_and_measures_the_rest(tmp_path: Path) -> None:
    paper = _paper(tmp_path / "p", "\\input{pipe}\n\\input{dev}\nDogs too.\n\\bibliography{refs}")
    fifos = [fifo(paper / "pipe.tex"), fifo(paper / "refs.bib"), fifo(paper / "stray.tex")]
    char_device(paper / "dev.tex", "/dev/zero")
    document = finishes(lambda: load_document(paper), fifos)
    assert [note.message for note in document.notes] == [
        "skipped 'dev.tex': not a regular file (character device); measured without it",
        "skipped 'pipe.tex': not a regular file (FIFO); measured without it",
        "skipped 'stray.tex': not a regular file (FIFO); measured without it",
        "skipped \\input 'pipe': not a regular file (FIFO); measured without it",
        "skipped \\input 'dev': not a regular file (character device); measured without it",
        "skipped \\bibliography 'refs': not a regular file (FIFO); measured without it",
    ]
    assert "Dogs too." in document.prose_view


def test_an_input_over_the_size_limit_is_noted_not_read(tmp_path: Path) -> None:
    paper = _paper(tmp_path / "p", "\\input{huge}")
    with open(paper / "huge.tex", "wb") as huge:
        huge.truncate(21 * 2**20)  # sparse: no disk used
    notes = [n.message for n in load_document(paper).notes]
    assert "skipped \\input 'huge': 21 MiB is over the 20 MiB limit; measured without it" in notes


@pytest.mark.parametrize("name", ["main.tex", "paper.pdf", "device"])
def test_a_fifo_or_device_named_as_the_paper_is_refused(tmp_path: Path, name: str) -> None:
    path = char_device(tmp_path / name) if name == "device" else fifo(tmp_path / name)
    with pytest.raises(BadInput) as refused:
        finishes(lambda: load_paper(path), [path])
    kind = "character device" if name == "device" else "FIFO"
    assert str(refused.value).startswith(f"{path}: not a regular file ({kind}); pass a ")


@pytest.mark.slow
def test_paper_measure_on_a_fifo_is_one_line(tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "paper.pdf")
    done = run_cli("paper", "measure", str(pipe), timeout=TIMEOUT)
    assert one_line_error(done) == (
        f"slopmark: error: {pipe}: not a regular file (FIFO); pass a PDF file"
    )


def test_a_method_figure_that_is_a_fifo_is_not_read(tmp_path: Path) -> None:
    paper = _paper(
        tmp_path / "p",
        "\\section{Method}\nWe do it.\n\\begin{figure}\\includegraphics{fig.png}"
        "\\caption{Overview of our pipeline.}\\end{figure}",
    )
    pipe = fifo(paper / "fig.png")
    document = load_document(paper)
    figure = method_figure(document)
    assert figure is not None
    with pytest.raises(FigureFileError) as refused:
        finishes(lambda: figure_image(document, figure), [pipe])
    assert str(refused.value) == "fig.png: not a regular file (FIFO); the figure is not read"


def test_a_pairs_file_or_model_config_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    pairs, config = fifo(tmp_path / "pairs.jsonl"), fifo(tmp_path / "models.yaml")
    with pytest.raises(BadInput, match="not a regular file \\(FIFO\\); pass a PAIRS.jsonl"):
        finishes(lambda: read_pairs(pairs), [pairs])
    with pytest.raises(BadInput, match="cannot read the file \\(not a regular file \\(FIFO\\)\\)"):
        finishes(lambda: load_model_config(config), [config])


# --- task files -------------------------------------------------------------------------


@pytest.mark.slow
def test_a_task_file_that_is_a_fifo_is_refused_naming_it(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "a.yaml").write_text(
        "- id: t1\n  domain: math\n  prompt: 1+1?\n"
        "  verifier: {type: math, answer: '2', kind: integer}\n"
    )
    pipe = fifo(tasks / "b.yaml")
    with pytest.raises(BadInput) as refused:
        finishes(lambda: load_tasks([tasks]), [pipe])
    assert str(refused.value) == (
        f"{pipe}: cannot read task file (not a regular file (FIFO)); "
        "pass a regular .yaml, .yml or .jsonl file"
    )
    done = run_cli("tasks", "validate", str(tasks), timeout=TIMEOUT)
    assert str(pipe) in one_line_error(done)
    os.unlink(pipe)
    assert run_cli("tasks", "validate", str(tasks), timeout=TIMEOUT).returncode == 0
