r"""Preservation checks of a revised manuscript against the original ("Science or Slop?", C.4).

Hard violations disqualify a round: a reported number lost (``number_lost``) or
changed in its paragraph (``number_changed``, rounding included), a cited key
lost (``citation_lost``), a ``\label`` key lost (``label_lost``), fewer figures
or tables (``float_lost``), or a tree that no longer expands
(``does_not_expand``: a new missing ``\input`` or an unreadable main file).
Audit flags mark changes to inspect: ``number_added``, ``number_repeat_removed``
(a number still present but fewer times), ``citation_added``, ``exhibit_added``
(a new verbatim, quote or listing environment).

Reported numbers are tokens as written (``81.2``, ``0.93``, ``12\%`` read as
``12%``, ``1e-4``, ``3{,}000``), taken from the text after ``\begin{document}``
with comments, the bibliography, the arguments of label, reference, citation,
input, graphics, ``\begin`` and layout commands, lengths (``2mm``), and
pointers such as ``Section 3`` or ``Table 2`` removed. A number's sign and
the spread of a ``±`` value are read as separate tokens.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from slopmark.errors import BadInput
from slopmark.paper.latex import parse_source
from slopmark.paper.latex.commands import (
    CITE_NAMES,
    REF_NAMES,
    read_group,
    read_optional,
    split_keys,
)
from slopmark.paper.latex.floats import FLOAT_KINDS
from slopmark.paper.latex.source import cut_comment
from slopmark.paper.revise.align import Tree, changes

EXHIBITS = frozenset(
    {"verbatim", "verbatim*", "Verbatim", "quote", "quotation", "lstlisting", "minted", "alltt"}
)

_NUMBER = re.compile(
    r"(?<![\w.])(?:\d{1,3}(?:(?:\{,\}|,)\d{3})+|\d+)(?:\.\d+)?"
    r"(?:[eE][-+]?\d+)?(?:\s*\\?%)?(?![\w])(?!\.\d)"
)
#: A length macro after a number (``0.5\\linewidth``); units written on (``2mm``) never match.
_UNIT = re.compile(r"\s*\\[A-Za-z]*(?:width|height|skip|sep)(?![A-Za-z])")
#: Commands whose arguments hold no reported number → how many ``{..}`` groups to drop
#: (``[..]`` and ``(..)`` groups among them are dropped too).
_ARITY: dict[str, int] = {
    "label": 1, "input": 1, "include": 1, "subfile": 1, "includegraphics": 1, "bibliography": 1,
    "bibliographystyle": 1, "url": 1, "href": 1, "vspace": 1, "hspace": 1, "setlength": 2,
    "addtolength": 2, "setcounter": 2, "addtocounter": 2, "resizebox": 2, "scalebox": 1,
    "rule": 2, "multicolumn": 2, "multirow": 2, "cline": 1, "cmidrule": 1, "linespread": 1,
    "fontsize": 2, "renewcommand": 2, "newcommand": 2, "raisebox": 1, "end": 1,
    "hyperref": 0, "crefrange": 2, "Crefrange": 2, "vrefrange": 2,
    **dict.fromkeys(CITE_NAMES, 1),
    **dict.fromkeys(set(REF_NAMES) - {"hyperref", "crefrange", "Crefrange", "vrefrange"}, 1),
}  # fmt: skip
#: Environments whose ``\\begin`` takes arguments beyond its name (column specs, widths).
_ENV_ARITY: dict[str, int] = {
    "tabular": 1, "tabular*": 2, "tabularx": 2, "tabulary": 2, "array": 1, "minipage": 1,
    "wrapfigure": 2, "wraptable": 2, "subfigure": 1, "subtable": 1, "longtable": 1,
    "multicols": 1, "xltabular": 2,
}  # fmt: skip
_COMMAND = re.compile(r"\\(begin|[A-Za-z]+)(?![A-Za-z@])\*?")
_ENV_NAME = re.compile(r"\s*\{([^{}]+)\}")
_POINTER = re.compile(
    r"\b(?:Sections?|Secs?\.|§|Figures?|Figs?\.|Tables?|Tabs?\.|Appendix|Appendices|App\."
    r"|Equations?|Eqs?\.|Algorithms?|Alg\.|Lines?|Chapters?|Theorems?|Lemmas?)"
    r"[~\s]*\(?\d+(?:\.\d+)*\)?",
)
_CITED_YEAR = re.compile(r"(?:et al\.?|[A-Z][A-Za-z'’-]+)[,\s~]*\(?(?:19|20)\d{2}[a-z]?\b")
_BIBLIOGRAPHY = re.compile(
    r"\\begin\s*\{thebibliography\}.*?(?:\\end\s*\{thebibliography\}|$)", re.S
)
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_CMIDRULE_TRIM = re.compile(r"\A\([^)]*\)")
_LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")
_ENVIRONMENT = re.compile(r"\\begin\s*\{([^{}]+)\}")
_CITE = re.compile(rf"\\(?:{'|'.join(CITE_NAMES)})(?![A-Za-z@])\*?")


@dataclass(frozen=True)
class Violation:
    """A preservation check that failed (``hard``) or a change to inspect (audit)."""

    kind: str
    hard: bool
    detail: str
    file: str | None = None


def _uncommented(text: str) -> str:
    """The text without comments; a line holding only a comment disappears."""
    kept = []
    for line in text.split("\n"):
        cut = cut_comment(line)
        if cut.strip() or not line.strip():
            kept.append(cut)
    return "\n".join(kept)


def _skip_arguments(text: str, pos: int, required: int) -> int:
    """The position after ``required`` ``{..}`` groups from ``pos``, with the ``[..]`` and
    ``(..)`` groups around them (spaces between them skipped, never a line break)."""
    while True:
        start = pos
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if text.startswith("(", pos) and (trim := _CMIDRULE_TRIM.match(text[pos:])):
            pos += trim.end()
        elif text.startswith("[", pos) and (value := read_optional(text, pos, len(text)))[0]:
            pos = value[1]
        elif required and text.startswith("{", pos):
            pos, required = read_group(text, pos, len(text))[1], required - 1
        else:
            return start


def _arguments_end(text: str, match: re.Match[str]) -> int | None:
    """Where the numberless arguments of the command at ``match`` end (None: not listed)."""
    name = match.group(1)
    if name != "begin":
        return _skip_arguments(text, match.end(), _ARITY[name]) if name in _ARITY else None
    env = _ENV_NAME.match(text, match.end())
    if env is None:
        return None
    return _skip_arguments(text, env.end(), _ENV_ARITY.get(env.group(1).strip(), 0))


def _without_arguments(text: str) -> str:
    """The text with each listed command and its argument groups replaced by a space."""
    parts: list[str] = []
    pos = 0
    for match in _COMMAND.finditer(text):
        end = _arguments_end(text, match) if match.start() >= pos else None
        if end is not None:
            parts.append(text[pos : match.start()] + " ")
            pos = end
    parts.append(text[pos:])
    return "".join(parts)


def _body(text: str) -> str:
    """The part of a file numbers are read from: after ``\\begin{document}``, no bibliography."""
    text = _uncommented(text)
    begin = _BEGIN_DOCUMENT.search(text)
    if begin:
        text = text[begin.end() :]
    return _BIBLIOGRAPHY.sub(" ", text)


def _numbers_of(text: str) -> list[str]:
    text = _CITED_YEAR.sub(" ", _POINTER.sub(" ", _without_arguments(text)))
    found: list[str] = []
    for match in _NUMBER.finditer(text):
        if not _UNIT.match(text, match.end()):
            found.append(re.sub(r"\s*\\?%$", "%", match.group(0)))
    return found


def reported_numbers(text: str) -> list[str]:
    """The numbers a LaTeX text reports, as written, in order (see the module docstring)."""
    return _numbers_of(_body(text))


def _paragraph_numbers(text: str) -> list[str]:
    """The distinct numbers of a changed passage, in order."""
    return list(dict.fromkeys(_numbers_of(_BIBLIOGRAPHY.sub(" ", _uncommented(text)))))


def _homes(tree: Tree, keys_of: Callable[[str], Iterator[str]]) -> dict[str, str]:
    """The keys of every file outside comments, each with the first file holding it."""
    found: dict[str, str] = {}
    for file in sorted(tree):
        for key in keys_of(_uncommented(tree[file])):
            found.setdefault(key, file)
    return found


def _cited_keys(text: str) -> Iterator[str]:
    for match in _CITE.finditer(text):
        pos = match.end()
        while (value := read_optional(text, pos, len(text)))[0] is not None:
            pos = value[1]
        if text.startswith("{", pos):
            yield from split_keys(read_group(text, pos, len(text))[0])


def _label_keys(text: str) -> Iterator[str]:
    return (match.group(1).strip() for match in _LABEL.finditer(text))


def _environments(tree: Tree) -> Counter[str]:
    return Counter(
        match.group(1).strip()
        for text in tree.values()
        for match in _ENVIRONMENT.finditer(_uncommented(text))
    )


def _changed_numbers(
    original: Tree, revised: Tree, lost: set[str], added: set[str]
) -> list[Violation]:
    """Lost numbers whose paragraph now holds a new number; they leave ``lost``/``added``."""
    found: list[Violation] = []
    for change in changes(original, revised):
        gone = [n for n in _paragraph_numbers(change.old) if n in lost]
        new = [n for n in _paragraph_numbers(change.new) if n in added]
        for before, after in zip(gone, new, strict=False):
            lost.discard(before)
            added.discard(after)
            detail = f"reported number {before} became {after} (line {change.line})"
            found.append(Violation("number_changed", True, detail, change.file))
    return found


def _number_violations(original: Tree, revised: Tree) -> list[Violation]:
    per_file = {file: reported_numbers(original[file]) for file in sorted(original)}
    before = Counter(number for numbers in per_file.values() for number in numbers)
    after = Counter(number for text in revised.values() for number in reported_numbers(text))
    lost, added = set(before) - set(after), set(after) - set(before)
    found = _changed_numbers(original, revised, lost, added)
    homes = {n: file for file, numbers in per_file.items() for n in numbers}
    found += [
        Violation("number_lost", True, f"reported number {n} no longer appears", homes.get(n))
        for n in sorted(lost)
    ]
    found += [
        Violation("number_repeat_removed", False,
                  f"number {n}: {before[n]} occurrences before, {after[n]} after")
        for n in sorted(before) if 0 < after[n] < before[n]
    ]  # fmt: skip
    found += [
        Violation("number_added", False, f"number {n} was not in the original")
        for n in sorted(added)
    ]
    return found


def _key_violations(original: Tree, revised: Tree) -> list[Violation]:
    cited, now_cited = _homes(original, _cited_keys), _homes(revised, _cited_keys)
    labels, now_labels = _homes(original, _label_keys), _homes(revised, _label_keys)
    found = [
        Violation("citation_lost", True, f"cited key {key} is no longer cited", file)
        for key, file in sorted(cited.items()) if key not in now_cited
    ]  # fmt: skip
    found += [
        Violation("citation_added", False, f"new citation of {key}", file)
        for key, file in sorted(now_cited.items()) if key not in cited
    ]  # fmt: skip
    found += [
        Violation("label_lost", True, f"label {key} removed", file)
        for key, file in sorted(labels.items()) if key not in now_labels
    ]  # fmt: skip
    return found


def _float_counts(environments: Counter[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for name, count in environments.items():
        if name in FLOAT_KINDS:
            counts[FLOAT_KINDS[name]] += count
    return counts


def _environment_violations(original: Tree, revised: Tree) -> list[Violation]:
    before, after = _environments(original), _environments(revised)
    floats, now_floats = _float_counts(before), _float_counts(after)
    found = [
        Violation("float_lost", True, f"{kind}: {floats[kind]} before, {now_floats[kind]} after")
        for kind in sorted(floats) if now_floats[kind] < floats[kind]
    ]  # fmt: skip
    found += [
        Violation("exhibit_added", False, f"{name}: {before[name]} before, {after[name]} after")
        for name in sorted(EXHIBITS) if after[name] > before[name]
    ]  # fmt: skip
    return found


def _missing_inputs(tree: Tree, main: str) -> set[str] | BadInput:
    """The missing-``\\input`` notes of the tree read from ``main``, or why it cannot be read."""
    if main not in tree:
        return BadInput(f"{main}: the main file is not in the tree")
    try:
        document = parse_source(tree[main], main, files=tree)
    except BadInput as exc:
        return exc
    return {note.message for note in document.notes if note.message.startswith("missing \\input")}


def _expansion_violations(original: Tree, revised: Tree, main: str) -> list[Violation]:
    """The revised tree must still be read; its missing inputs not already missing before."""
    missing = _missing_inputs(revised, main)
    if isinstance(missing, BadInput):
        return [Violation("does_not_expand", True, f"the revised tree cannot be read: {missing}")]
    before = _missing_inputs(original, main)
    if not isinstance(before, BadInput):
        missing -= before
    return [Violation("does_not_expand", True, message) for message in sorted(missing)]


def check_preservation(original: Tree, revised: Tree, main: str) -> list[Violation]:
    """Hard violations and audit flags of ``revised`` against ``original`` (``main`` is the
    main file's path in both trees)."""
    return (
        _number_violations(original, revised)
        + _key_violations(original, revised)
        + _environment_violations(original, revised)
        + _expansion_violations(original, revised, main)
    )
