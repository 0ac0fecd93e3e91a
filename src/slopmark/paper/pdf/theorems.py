"""Theorem-like statements of a PDF → ``theorem`` / ``lemma`` / ... environments.

amsthm prints a statement as a paragraph opening with its head: the name, the number, an
optional note in parentheses and a period (``Theorem 2.`` / ``Lemma 3.1 (Bound).``). Such a
paragraph becomes ``\\begin{lemma} ... \\label{lemma:3.1} \\end{lemma}`` (the environments
the LaTeX route counts as theorem-like), and a printed pointer ``Lemma 3.1`` becomes
``Lemma~\\ref{lemma:3.1}`` (see `inline`). A PDF does not say which statements were
labelled; as for equations, a label is kept only when the text points to it, so the
PDF route does not invent objects the source never declared. A sentence that merely
starts with ``Theorem 1 holds`` is no statement: the head needs its closing period.
"""

from __future__ import annotations

import re

KINDS = ("Theorem", "Lemma", "Proposition", "Corollary", "Definition", "Remark",
         "Assumption", "Conjecture", "Claim", "Example", "Hypothesis", "Observation")  # fmt: skip
NAMES = "|".join(KINDS)
HEAD = re.compile(
    rf"^(?P<kind>{NAMES})\s+(?P<number>(?:[A-Z]\.)?\d+(?:\.\d+)*)"
    r"(?:\s*\((?P<note>[^()]{1,80})\))?\s*[.:]\s+(?P<text>\S.*)$"
)
POINTER = rf"\b(?P<kind>{NAMES})s?\s+(?P<number>(?:[A-Z]\.)?\d+(?:\.\d+)*)\b"
_LABEL = re.compile(rf"\\label\{{((?:{NAMES.lower()}):[^}}]*)\}}")
_POINTED = re.compile(rf"\\ref\{{((?:{NAMES.lower()}):[^}}]*)\}}")


def statement(text: str) -> tuple[str, str, str] | None:
    """(environment, number, the statement's text) of a paragraph opening with a head."""
    match = HEAD.match(text)
    if match is None:
        return None
    return match.group("kind").lower(), match.group("number"), match.group("text")


def label(environment: str, number: str) -> str:
    """The label key a statement and its pointers share (``lemma:3.1``)."""
    return f"{environment}:{number}"


def pointed_statements(lines: list[str]) -> list[str]:
    """The lines without the statement labels no sentence points to."""
    pointed = {m.group(1) for line in lines for m in _POINTED.finditer(line)}
    return [
        line for line in lines
        if not (found := _LABEL.fullmatch(line)) or found.group(1) in pointed
    ]  # fmt: skip
