"""A fuzz target for the readers: trees holding files that are not regular files.

A tree is a paper (``main.tex`` naming every ``.tex`` and ``.bib`` entry), a source file
and a task file, plus 2-6 entries drawn from `KINDS` with a suffix each reader looks at:
FIFOs, character devices (the numbers of ``/dev/null`` and ``/dev/zero``), sockets,
folders, and symlinks in the tree, out of it, to a device, to themselves and to nothing.
Every reader runs as the real CLI in a subprocess with a timeout (`READERS`): it must
finish, end with exit 0 or 2 and no traceback, and name each entry it did not read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from security.special import char_device, fifo, socket_file

#: Seconds a reader may take on a tree of a few files (it takes about one).
TIMEOUT = 60
KINDS = ("regular", "fifo", "null", "zero", "socket", "folder", "link_in", "link_out",
         "link_loop", "dangling", "link_device")  # fmt: skip
SUFFIXES = (".py", ".tex", ".bib", ".yaml", ".jsonl")
#: Entries every reader must leave unread: each is named in what it prints.
SPECIAL = frozenset({"fifo", "null", "zero", "socket", "link_loop", "link_device"})
TASK = (
    "{{id: {id}, domain: math, prompt: 1+1?, verifier: {{type: math, answer: '2', kind: integer}}}}"
)
CONTENT = {
    ".py": "def f():\n    return 1\n",
    ".tex": "Dogs bark.\n",
    ".bib": "@article{{{id}, title={{T}}}}\n",
    ".yaml": f"- {TASK}\n",
    ".jsonl": '{{"id": "{id}", "domain": "math", "prompt": "1+1?", '
    '"verifier": {{"type": "math", "answer": "2", "kind": "integer"}}}}\n',
}


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str

    @property
    def stem(self) -> str:
        return self.name.rsplit(".", 1)[0]

    @property
    def suffix(self) -> str:
        return "." + self.name.rsplit(".", 1)[1]


def entries() -> st.SearchStrategy[list[Entry]]:
    pair = st.tuples(st.sampled_from(KINDS), st.sampled_from(SUFFIXES))
    pairs = st.lists(pair, min_size=2, max_size=6)
    return pairs.map(lambda drawn: [Entry(f"e{i}{s}", k) for i, (k, s) in enumerate(drawn)])


def build(root: Path, drawn: list[Entry]) -> Path:
    """The tree ``root/tree`` of ``drawn`` (and ``root/outside`` for the links out)."""
    tree, outside = root / "tree", root / "outside"
    tree.mkdir()
    outside.mkdir()
    tex = "".join(f"\\input{{{e.stem}}}\n" for e in drawn if e.suffix == ".tex")
    bib = ",".join(e.stem for e in drawn if e.suffix == ".bib")
    (tree / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{Intro}\nCats purr.\n"
        f"{tex}\\bibliography{{{bib or 'none'}}}\n\\end{{document}}\n"
    )
    for suffix in (".py", ".bib", ".yaml", ".jsonl"):  # what the links in point to
        (tree / f"ok{suffix}").write_text(CONTENT[suffix].format(id=f"ok{suffix[1:]}"))
    for entry in drawn:
        _make(tree / entry.name, entry, outside)
    return tree


def _make(path: Path, entry: Entry, outside: Path) -> None:
    content = CONTENT[entry.suffix].format(id=entry.stem)
    makers: dict[str, Callable[[], object]] = {
        "regular": lambda: path.write_text(content),
        "fifo": lambda: fifo(path),
        "null": lambda: char_device(path, "/dev/null"),
        "zero": lambda: char_device(path, "/dev/zero"),
        "socket": lambda: socket_file(path),
        "folder": lambda: path.mkdir(),
        "link_in": lambda: path.symlink_to(_inside_target(entry.suffix)),
        "link_out": lambda: _link_out(path, outside / entry.name, content),
        "link_loop": lambda: path.symlink_to(path.name),
        "dangling": lambda: path.symlink_to("no-such-target"),
        "link_device": lambda: path.symlink_to("/dev/zero"),
    }
    makers[entry.kind]()


def _inside_target(suffix: str) -> str:
    return "main.tex" if suffix == ".tex" else f"ok{suffix}"


def _link_out(path: Path, target: Path, content: str) -> None:
    target.write_text(content)
    path.symlink_to(target)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI: it must finish within `TIMEOUT` (subprocess raises otherwise)."""
    return subprocess.run([sys.executable, "-m", "slopmark", *args], capture_output=True,
                          text=True, timeout=TIMEOUT)  # fmt: skip


def _ended_well(done: subprocess.CompletedProcess[str], reader: str) -> str:
    """What the reader printed, once it is sure it ended with 0 or 2 and no traceback."""
    assert done.returncode in (0, 2), (reader, done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, (reader, done.stderr[-2000:])
    return done.stdout + done.stderr


def code_measure(tree: Path, drawn: list[Entry]) -> None:
    done = run("code", "measure", str(tree), "--json")
    _ended_well(done, "code measure")
    assert done.returncode == 0, done.stderr
    skipped = {s["path"] for s in json.loads(done.stdout)["skipped"]}
    unread = {e.name for e in drawn if e.suffix == ".py" and e.kind not in ("regular", "folder")}
    assert unread <= skipped, (unread, skipped)


def code_diff(tree: Path, drawn: list[Entry]) -> None:
    base = tree.parent / "base"
    base.mkdir()
    (base / "ok.py").write_text(CONTENT[".py"])
    done = run("code", "diff", str(base), str(tree), "--json")
    shown = _ended_well(done, "code diff")
    if done.returncode == 0:
        for entry in drawn:
            if entry.suffix == ".py" and entry.kind in SPECIAL:
                assert entry.name in shown, (entry, shown[-2000:])


def paper_measure(tree: Path, drawn: list[Entry]) -> None:
    done = run("paper", "measure", str(tree), "--measures", "deterministic", "--json")
    _ended_well(done, "paper measure")
    assert done.returncode == 0, done.stderr
    notes = "\n".join(json.loads(done.stdout)["notes"])
    for entry in drawn:
        named = entry.kind in SPECIAL | {"link_out"} or (
            entry.kind == "dangling" and entry.suffix == ".tex"
        )
        if entry.suffix in (".tex", ".bib") and named:
            assert f"'{entry.stem}" in notes, (entry, notes)


def tasks_validate(tree: Path, drawn: list[Entry]) -> None:
    done = run("tasks", "validate", str(tree))
    _ended_well(done, "tasks validate")
    unread = [e for e in drawn if e.suffix in (".yaml", ".jsonl") and e.kind in SPECIAL]
    if unread:
        assert done.returncode == 2
        assert any(e.name in done.stderr for e in drawn), done.stderr


READERS = {
    "code measure": code_measure,
    "code diff": code_diff,
    "paper measure": paper_measure,
    "tasks validate": tasks_validate,
}
