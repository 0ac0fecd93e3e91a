"""Running text of a PDF → LaTeX: printed pointers become ``\\ref``, citations ``\\cite``.

Rules, tried left to right over the text (the first that matches at a place wins); a
pointer word may start in lower case ("as shown in table 2", "equation 15"):

- ``Figure 3`` / ``Fig. 3`` / ``Figures 2 and 3`` → ``Figure~\\ref{fig:3}``; the same for
  ``Table``/``Tab.`` (``tab:``), ``Algorithm``/``Alg.`` (``alg:``), ``Section``/``Sec.``/``§``
  and ``Appendix``/``App.`` (``sec:``, with the printed number: ``sec:3.2``, ``sec:B``),
  ``Eq. (2)``/``Equation 2`` (``\\eqref{eq:2}``); a bare ``(2)`` right after a word (not
  ``and``/``or``, no punctuation between: "filters (4)", not "(1) ..., and (2)") when the
  paper has a display equation numbered 2.
- Numeric citations ``[12]``, ``[3, 5–7]`` → ``\\cite{ref12}``, ``\\cite{ref3,ref5,ref6,ref7}``
  (ranges expanded up to `MAX_RANGE` entries; a number past the numbered bibliography, or
  0, leaves the brackets as text).
- Author–year citations: ``(Smith et al., 2020; Lee and Kim, 2019)`` → ``\\citep{smith2020,
  lee2019}`` (a leading ``e.g.,`` / ``see`` becomes the optional prefix); ``Smith et al.
  (2020)`` → ``\\citet{smith2020}``. Keys are the first author's surname, lower-cased and
  reduced to ASCII letters, plus the year (``2020a`` keeps its letter), the same keys
  `citation_key` gives a bibliography entry. A parenthesis whose every part is not an
  author–year pair stays text.

Everything else is escaped for LaTeX (``%``, ``&``, ``_``, ``#``, ``$``, braces, ``~``, ``^``,
backslash).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

MAX_RANGE = 50
YEAR = r"(?:1[89]|20)\d\d[a-z]?"
NAME = r"(?:(?:van|von|de|der|den|da|di|du|la|le)\s+)*[A-Z\u00C0-\u00DE][\w'’\-]+"
AUTHORS = rf"{NAME}(?:\s+et\s+al\.?|\s+(?:and|&)\s+{NAME})?"
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

ITEM = re.compile(rf"(?P<authors>{AUTHORS}),?\s+(?P<years>{YEAR}(?:\s*,\s*{YEAR})*)")
PREFIX = re.compile(r"^(?P<prefix>(?:e\.g\.|i\.e\.|see|cf\.)(?:,)?)\s+(?P<rest>.*)$", re.I)


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return text.translate(ESCAPES)


def citation_key(authors: str, year: str) -> str:
    """``smith2020`` from ``"Smith et al."`` and ``"2020"`` (first surname, ASCII, lower case)."""
    words = re.findall(r"[^\W\d_][\w'’\-]*", authors)
    surname = next((word for word in words if word[0].isupper()), words[0] if words else "anon")
    ascii_name = unicodedata.normalize("NFKD", surname).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", ascii_name.lower()) + year


@dataclass(frozen=True)
class Context:
    """What the rules need to know about the paper: the numbered bibliography's size and
    the printed numbers of its display equations."""

    numeric_entries: int | None = None
    equations: frozenset[str] = frozenset()


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
    if numbers is None:
        return None
    limit = context.numeric_entries
    if limit is not None and max(map(int, numbers)) > limit:
        return None
    return r"\cite{" + ",".join(f"ref{n}" for n in numbers) + "}"


def _item_keys(item: str) -> list[str] | None:
    match = ITEM.fullmatch(item.strip())
    if match is None:
        return None
    years = re.split(r"\s*,\s*", match.group("years"))
    return [citation_key(match.group("authors"), year) for year in years]


def _parenthetical(match: re.Match[str], context: Context) -> str | None:
    body = match.group("body")
    prefix = PREFIX.match(body)
    items = (prefix.group("rest") if prefix else body).split(";")
    keys: list[str] = []
    for item in items:
        found = _item_keys(item)
        if found is None:
            return None
        keys.extend(found)
    option = f"[{escape(prefix.group('prefix'))}][]" if prefix else ""
    return rf"\citep{option}{{{','.join(keys)}}}"


def _narrative(match: re.Match[str], context: Context) -> str:
    years = re.split(r"\s*[;,]\s*", match.group("years"))
    keys = [citation_key(match.group("authors"), year) for year in years]
    return rf"\citet{{{','.join(keys)}}}"


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
    Rule("bare_equation", r"(?<=[A-Za-z0-9] )(?<!\band )(?<!\bor )\((?P<number>\d+)\)",
         _bare_equation),
    Rule("cite", r"\[(?P<nums>\d+(?:\s*[,–—-]\s*\d+)*)\]", _numeric_cite),
    Rule(
        "citet", rf"(?P<authors>{AUTHORS})\s+\((?P<years>{YEAR}(?:\s*[;,]\s*{YEAR})*)\)", _narrative
    ),
    Rule("citep", rf"\((?P<body>[^()]*?{YEAR})\)", _parenthetical),
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
