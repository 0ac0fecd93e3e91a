"""Running text of a PDF → LaTeX: printed pointers become ``\\ref``, citations ``\\cite``.

Rules, tried left to right over the text (the first that matches at a place wins); a
pointer word may start in lower case ("as shown in table 2", "equation 15"):

- ``Figure 3`` / ``Fig. 3`` / ``Figures 2 and 3`` → ``Figure~\\ref{fig:3}``; the same for
  ``Table``/``Tab.`` (``tab:``), ``Algorithm``/``Alg.`` (``alg:``), ``Section``/``Sec.``/``§``
  and ``Appendix``/``App.`` (``sec:``, with the printed number: ``sec:3.2``, ``sec:B``),
  ``Eq. (2)``/``Equation 2`` (``\\eqref{eq:2}``); a bare ``(2)`` right after a word (not
  ``and``/``or``, no punctuation between: "filters (4)", not "(1) ..., and (2)") when the
  paper has a display equation numbered 2.
- ``Theorem 2`` / ``Lemma 3.1`` (and the other kinds of `theorems`) → ``Lemma~\\ref{lemma:3.1}``.
- Numeric citations ``[12]``, ``[3, 5–7]`` → ``\\cite{ref12}``, ``\\cite{ref3,ref5,ref6,ref7}``
  (ranges expanded up to `MAX_RANGE` entries; a number past the numbered bibliography, or
  0, leaves the brackets as text).
- Numeric citations are not read in a paper whose reference list is author–year (there
  ``[2015]`` is the year of a narrative citation, not entry 2015).
- Author–year citations (see `authoryear`): parenthetical ``(Smith et al., 2020; Lee and
  Kim, 2019)`` and bracketed ``[LeCun et al., 1995]`` → ``\\citep{..}`` (a leading ``e.g.,``
  / ``see`` becomes the optional prefix); narrative ``Smith et al. (2020)`` and ``Lenc and
  Vedaldi [2015]`` → ``\\citet{..}``. With a reference list (`Context.authors`) each part
  resolves to the key of the entry it names and a citation naming none stays text;
  without one, keys are made from the surname and year (``smith2020``).

Everything else is escaped for LaTeX (``%``, ``&``, ``_``, ``#``, ``$``, braces, ``~``, ``^``,
backslash).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from slopmark.paper.pdf.authoryear import (
    AUTHORS,
    YEARS,
    AuthorIndex,
    legacy_keys,
    parse_items,
)
from slopmark.paper.pdf.theorems import POINTER, label

MAX_RANGE = 50
NUMBER = r"(?:[A-Z]\.)?\d+"
SECTION_NUMBER = r"(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\b"
SEPARATOR = r"\s*(?:,\s*and|,|and|&|–|—|-)\s*"

ESCAPES = str.maketrans(
    {
        "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
        "%": r"\%", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
    }
)  # fmt: skip

PREFIX = re.compile(r"^(?P<prefix>(?:e\.g\.|i\.e\.|see|cf\.)(?:,)?)\s+(?P<rest>.*)$", re.I)


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return text.translate(ESCAPES)


@dataclass(frozen=True)
class Context:
    """What the rules need to know about the paper: the numbered bibliography's size and
    the printed numbers of its display equations."""

    numeric_entries: int | None = None
    equations: frozenset[str] = frozenset()
    #: The author–year reference list, when the paper has one.
    authors: AuthorIndex | None = None


def _numbers(spec: str) -> list[str] | None:
    """``3, 5–7`` → ``[3, 5, 6, 7]``; None for a range too long or a zero."""
    found: list[str] = []
    for part in re.split(r"\s*,\s*", spec.strip()):
        ends = re.split(r"\s*[–—-]\s*", part)
        low, high = int(ends[0]), int(ends[-1])
        if low < 1 or high < low or high - low > MAX_RANGE:
            return None
        found.extend(map(str, range(low, high + 1)))
    return found


def _numeric_cite(match: re.Match[str], context: Context) -> str | None:
    numbers = _numbers(match.group("nums"))
    if numbers is None or context.authors is not None:
        return None
    limit = context.numeric_entries
    if limit is not None and max(map(int, numbers)) > limit:
        return None
    return r"\cite{" + ",".join(f"ref{n}" for n in numbers) + "}"


def _author_year_keys(body: str, context: Context) -> list[str] | None:
    items = parse_items(body)
    if items is None:
        return None
    keys = legacy_keys(items) if context.authors is None else context.authors.keys(items)
    return keys or None


def _parenthetical(match: re.Match[str], context: Context) -> str | None:
    body = match.group("body")
    prefix = PREFIX.match(body)
    keys = _author_year_keys(prefix.group("rest") if prefix else body, context)
    if keys is None:
        return None
    option = f"[{escape(prefix.group('prefix'))}][]" if prefix else ""
    return rf"\citep{option}{{{','.join(keys)}}}"


def _narrative(match: re.Match[str], context: Context) -> str | None:
    keys = _author_year_keys(f"{match.group('authors')} {match.group('years')}", context)
    return rf"\citet{{{','.join(keys)}}}" if keys else None


def _pointer(prefix: str, command: str = "ref") -> Callable[[re.Match[str], Context], str]:
    def render(match: re.Match[str], context: Context) -> str:
        spec = match.group("spec").strip("()") if command == "eqref" else match.group("spec")
        numbered = re.sub(
            r"(?:[A-Z]\.)?\d+(?:\.\d+)*|\b[A-Z](?:\.\d+)*\b",
            lambda number: rf"\{command}{{{prefix}:{number.group(0)}}}",
            spec,
        )
        word = match.groupdict().get("word") or match.group("word2")
        return escape(word) + ("~" if word[-1] != "§" else "") + numbered

    return render


def _statement(match: re.Match[str], context: Context) -> str:
    kind, number = match.group("kind"), match.group("number")
    tail = match.group(0)[len(kind) :].split(number)[0]
    return rf"{kind}{tail.rstrip()}~\ref{{{label(kind.lower(), number)}}}"


def _bare_equation(match: re.Match[str], context: Context) -> str | None:
    number = match.group("number")
    return rf"(\ref{{eq:{number}}})" if number in context.equations else None


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: str
    render: Callable[[re.Match[str], Context], str | None]


RULES = (
    Rule(
        "figure",
        rf"\b(?P<word>[Ff]igures?|[Ff]igs?\.)\s*(?P<spec>{NUMBER}(?:{SEPARATOR}{NUMBER})*)",
        _pointer("fig"),
    ),
    Rule(
        "table",
        rf"\b(?P<word>[Tt]ables?|[Tt]abs?\.)\s*(?P<spec>{NUMBER}(?:{SEPARATOR}{NUMBER})*)",
        _pointer("tab"),
    ),
    Rule(
        "algorithm",
        rf"\b(?P<word>[Aa]lgorithms?|[Aa]lgs?\.)\s*(?P<spec>\d+(?:{SEPARATOR}\d+)*)",
        _pointer("alg"),
    ),
    Rule(
        "section",
        rf"(?:\b(?P<word>[Ss]ections?|[Ss]ecs?\.|[Aa]ppendix|[Aa]ppendices|App\.)\s+|(?P<word2>§§?)\s*)"
        rf"(?P<spec>{SECTION_NUMBER}(?:{SEPARATOR}{SECTION_NUMBER})*)",
        _pointer("sec"),
    ),
    Rule(
        "equation",
        r"\b(?P<word>[Ee]qs?\.|[Ee]quations?)\s*(?P<spec>\(\d+\)|\d+)",
        _pointer("eq", "eqref"),
    ),
    Rule("statement", POINTER, _statement),
    Rule("bare_equation", r"(?<=[A-Za-z0-9] )(?<!\band )(?<!\bor )\((?P<number>\d+)\)",
         _bare_equation),
    Rule("cite", r"\[(?P<nums>\d+(?:\s*[,–—-]\s*\d+)*)\]", _numeric_cite),
    Rule("citet", rf"(?P<authors>{AUTHORS})\s+[(\[](?P<years>{YEARS})[)\]]", _narrative),
    Rule("citep", rf"\((?P<body>[^()]*?{YEARS})\)", _parenthetical),
    Rule("bracket", rf"\[(?P<body>[^\[\]]*?{YEARS})\]", _parenthetical),
)
_BY_NAME = {rule.name: (rule, re.compile(rule.pattern)) for rule in RULES}
_UNNAMED = {rule.name: re.sub(r"[(][?]P<[a-z0-9]+>", "(?:", rule.pattern) for rule in RULES}
#: One alternative per rule, named after it; a match's `lastgroup` is the rule that matched.
_ANY = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _UNNAMED.items()))


def to_latex(text: str, context: Context | None = None) -> str:
    """Running text with its pointers and citations as LaTeX commands, the rest escaped."""
    context = context or Context()
    out: list[str] = []
    done = 0
    for match in _ANY.finditer(text):
        rule, pattern = _BY_NAME[str(match.lastgroup)]
        inner = pattern.fullmatch(text, match.start(), match.end())
        rendered = rule.render(inner, context) if inner else None
        if rendered is None:
            continue
        out.append(escape(text[done : match.start()]))
        out.append(rendered)
        done = match.end()
    out.append(escape(text[done:]))
    return "".join(out)
