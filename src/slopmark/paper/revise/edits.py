r"""Edit blocks: how the editor answers, how its answer is applied, and when a file is refused.

The editor quotes a passage of the file it edits and gives its replacement, in
blocks of this form (`EDIT_FORMAT` is the text the editor prompt shows)::

    <<<<<<< ORIGINAL
    exact passage copied from the file
    =======
    the replacement
    >>>>>>> REVISED

or answers ``NOCHANGE`` alone. `parse_edit_blocks` reads the blocks out of
whatever surrounds them (prose, code fences, CRLF line ends); the markers are
lines of 5–9 ``<``/``=``/``>`` (``SEARCH``/``REPLACE`` are read as
``ORIGINAL``/``REVISED``). A block that is not closed, has no divider, or
quotes nothing is skipped. `apply_blocks` applies the blocks one after the
other, each on the text the previous ones left, and only where its quote
occurs exactly once; a quote whose lines differ from the file only by
trailing spaces or its final newline still matches. `accept_file` refuses an
edited file that lost a structural command or whose length left 0.5–2.5× the
original ("Science or Slop?", Appendix C.2).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from slopmark.paper.latex.source import cut_comment

EDIT_FORMAT = """\
Answer with edit blocks. Each block quotes a passage of the file exactly as it is
written (whole lines, copied character for character, enough of them to occur only
once in the file) and gives the text that replaces it:

<<<<<<< ORIGINAL
the exact passage copied from the file
=======
the replacement text
>>>>>>> REVISED

Give one block per passage you change; blocks apply in order. To delete a passage,
leave the replacement empty. A block whose passage is not found exactly once is
ignored. If the file needs no change, answer with the single word NOCHANGE."""

MIN_RATIO = 0.5
MAX_RATIO = 2.5

_START = re.compile(r"^\s*<{5,9}\s*(?:ORIGINAL|SEARCH)\s*$", re.I)
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_END = re.compile(r"^\s*>{5,9}\s*(?:REVISED|REPLACE|UPDATED)\s*$", re.I)
_NOCHANGE = re.compile(r"^[\s`*_\"'.]*NO[ _-]?CHANGES?[\s`*_\"'.!]*$", re.I)
_FENCE = re.compile(r"^\s*```")

_STRUCTURE = re.compile(
    r"\\(?:(?P<cls>documentclass)(?![A-Za-z@])"
    r"|(?P<input>input|include|subfile)(?![A-Za-z@])\s*"
    r"(?:\{(?P<target>[^{}]*)\}|(?P<bare>[^\s{}\\%]+))"
    r"|(?P<env>begin|end)\s*\{(?P<name>[^{}]+)\}"
    r"|label\s*\{(?P<label>[^{}]*)\})"
)


@dataclass(frozen=True)
class EditBlock:
    """One quoted passage of ``file`` and the text that replaces it."""

    file: str
    quote: str
    replacement: str


@dataclass(frozen=True)
class Rejection:
    """Why a block (``quote`` set) or a whole edited file (``quote`` None) was refused."""

    file: str
    reason: str
    quote: str | None = None


def _unfence(lines: list[str]) -> list[str]:
    """The lines without one code fence wrapped around them (```latex ... ```)."""
    if len(lines) >= 2 and _FENCE.match(lines[0]) and _FENCE.match(lines[-1]):
        return lines[1:-1]
    return lines


def _part(lines: list[str]) -> str:
    lines = _unfence(lines)
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return "\n".join(lines)


def _blocks(lines: list[str], file: str) -> list[EditBlock]:
    """The well-formed blocks among the answer's lines (a state machine over the markers)."""
    found: list[EditBlock] = []
    quote: list[str] | None = None
    replacement: list[str] | None = None
    for line in lines:
        if _START.match(line):
            quote, replacement = [], None
        elif quote is None:
            continue
        elif replacement is None and _DIVIDER.match(line):
            replacement = []
        elif _END.match(line):
            text = _part(quote)
            if replacement is not None and text.strip():
                found.append(EditBlock(file, text, _part(replacement)))
            quote, replacement = None, None
        else:
            (quote if replacement is None else replacement).append(line)
    return found


def parse_edit_blocks(answer: str, file: str) -> list[EditBlock] | None:
    """The edit blocks of an editor's answer for ``file``; None when it says NOCHANGE.

    An answer with neither blocks nor NOCHANGE gives ``[]`` (nothing usable)."""
    lines = answer.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks = _blocks(lines, file)
    if not blocks and any(_NOCHANGE.match(line) for line in lines):
        return None
    return blocks


def _loose_pattern(quote: str, crlf: bool) -> re.Pattern[str]:
    """The quote with trailing spaces of each line (and its final newline) made optional."""
    lines = quote.split("\n")
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    newline = r"[ \t]*\r?\n" if crlf else r"[ \t]*\n"
    return re.compile(newline.join(re.escape(line.rstrip()) for line in lines) + r"[ \t]*")


def _locate(text: str, quote: str) -> list[tuple[int, int]]:
    """Where the quote occurs: exactly, else up to trailing spaces and line ends."""
    exact = [(m.start(), m.end()) for m in re.finditer(re.escape(quote), text)]
    if exact:
        return exact
    pattern = _loose_pattern(quote, "\r\n" in text)
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def _apply_one(text: str, block: EditBlock) -> tuple[str, Rejection | None]:
    spans = _locate(text, block.quote)
    if len(spans) != 1:
        reason = "quote not found" if not spans else f"quote occurs {len(spans)} times"
        return text, Rejection(block.file, reason, block.quote)
    start, end = spans[0]
    replacement = block.replacement
    if "\r\n" in text:
        replacement = replacement.replace("\r\n", "\n").replace("\n", "\r\n")
    return text[:start] + replacement + text[end:], None


def apply_blocks(
    text: str, blocks: Sequence[EditBlock]
) -> tuple[str, list[EditBlock], list[Rejection]]:
    """The text after the blocks that apply, those blocks, and why the others did not."""
    applied: list[EditBlock] = []
    rejected: list[Rejection] = []
    for block in blocks:
        text, rejection = _apply_one(text, block)
        if rejection is None:
            applied.append(block)
        else:
            rejected.append(rejection)
    return text, applied, rejected


def _key(match: re.Match[str]) -> str:
    if match["cls"]:
        return "documentclass:"
    if match["input"]:
        return f"input:{match['input']}{{{(match['target'] or match['bare']).strip()}}}"
    if match["env"]:
        return f"{match['env']}:{match['name'].strip()}"
    return f"label:{match['label'].strip()}"


def _structure(text: str) -> Counter[str]:
    """The structural commands of a text, outside comments, as ``kind:value`` counts."""
    return Counter(
        _key(match)
        for line in text.splitlines()
        for match in _STRUCTURE.finditer(cut_comment(line))
    )


def _lost_commands(before: Counter[str], after: Counter[str]) -> list[str]:
    """``\\documentclass``, ``\\input`` and ``\\label`` lost, each named once."""
    lost: list[str] = []
    for key in before:
        kind, _, value = key.partition(":")
        if kind == "documentclass" and not after[key]:
            lost.append("\\documentclass removed")
        elif kind == "input" and after[key] < before[key]:
            lost.append(f"\\{value} removed")
        elif kind == "label" and not after[key]:
            lost.append(f"label {value} removed")
    return lost


def _environment_reasons(name: str, begins: tuple[int, int], ends: tuple[int, int]) -> list[str]:
    """What an environment lost (or gained unbalanced); ``(before, after)`` counts."""
    if name == "document":
        return [
            f"\\{word}{{document}} removed"
            for word, (was, now) in (("begin", begins), ("end", ends))
            if now < was
        ]
    lost = begins[1] < begins[0] or ends[1] < ends[0]
    if not lost and begins[1] - ends[1] == begins[0] - ends[0]:
        return []
    if begins == ends:
        return [f"environment {name}: {begins[0]} begins before, {begins[1]} after"]
    return [
        f"environment {name}: {begins[0]} begins and {ends[0]} ends before, "
        f"{begins[1]} and {ends[1]} after"
    ]


def _environment_changes(before: Counter[str], after: Counter[str]) -> list[str]:
    """Environments that lost a ``\\begin``/``\\end``, or gained them unbalanced."""
    names = sorted(
        {
            key.partition(":")[2]
            for key in before | after
            if key.partition(":")[0] in ("begin", "end")
        }
    )
    return [
        reason
        for name in names
        for reason in _environment_reasons(
            name,
            (before[f"begin:{name}"], after[f"begin:{name}"]),
            (before[f"end:{name}"], after[f"end:{name}"]),
        )
    ]


def _length_reason(original: str, edited: str) -> str | None:
    if not original:
        return None if not edited else f"length {len(edited)} characters for an empty original"
    ratio = len(edited) / len(original)
    if MIN_RATIO <= ratio <= MAX_RATIO:
        return None
    shown = f"{ratio:.1f}"
    if MIN_RATIO <= float(shown) <= MAX_RATIO:
        shown = f"{ratio:.3f}"
    return f"length {shown}× the original (allowed {MIN_RATIO}–{MAX_RATIO}×)"


def accept_file(original: str, edited: str, file: str) -> Rejection | None:
    """None when the edited file keeps the original's structure and a fitting length.

    Kept: every ``\\documentclass``, ``\\input``/``\\include``/``\\subfile``,
    ``\\label`` key, and every environment's ``\\begin``/``\\end`` count (new
    environments must open and close). The length must stay within
    `MIN_RATIO`–`MAX_RATIO` times the original's. All reasons are joined with ``; ``.
    """
    before, after = _structure(original), _structure(edited)
    reasons = _lost_commands(before, after) + _environment_changes(before, after)
    length = _length_reason(original, edited)
    if length:
        reasons.append(length)
    return Rejection(file, "; ".join(reasons)) if reasons else None
