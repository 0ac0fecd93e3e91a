r"""The release's prose view, sentence splitter and tokenizer.

Facts from ``scislop/_common/views.py`` (``prose_view``, ``sentences``,
``tokens``), re-implemented as an ordered table of rewrites (`_STEPS`):
verbatim-like boxes become ``xxverbatimxx``; floats vanish; display math,
``$$..$$``, ``\[..\]`` and ``$..$`` become ``xxmathxx`` (``\(..\)`` is *not*
math there); citation commands become ``xxcitexx``; any command whose name
holds "ref" (bar a few like ``\href``) becomes ``xxrefxx``; headings become a
paragraph of their own ending in a period; the remaining commands, braces and
tildes disappear.

A sentence ends at ``.``, ``!`` or ``?`` followed by white space and a capital,
a digit, ``(``, ``[`` or an opening quote, unless the text so far ends with one
of `_ABBREVIATIONS` and a period; a blank line always ends one. Tokens are a
letter followed by letters, hyphens and apostrophes, or a number with an
optional decimal part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slopmark.paper.reference.mapped import Mapped, Replacement
from slopmark.paper.reference.paper import FLOATS, MATHS

MATH, CITE, REF = "xxmathxx", "xxcitexx", "xxrefxx"
SENTINELS = frozenset({MATH, CITE, REF, "xxcaptionxx", "xxverbatimxx"})
#: How a finding shows each placeholder to a person (as the default profile's findings do).
SHOWN = {MATH: "[math]", CITE: "[cite]", REF: "[ref]", "xxcaptionxx": "[caption]",
         "xxverbatimxx": "[verbatim]"}  # fmt: skip
_SPACE_BEFORE_MARK = re.compile(r"\s+([.,;:!?])")
_PLACEHOLDER = re.compile(r"\s*\b(" + "|".join(SHOWN) + r")\b")


def shown_text(text: str) -> str:
    """A prose-view sentence for a finding: placeholders as ``[cite]``, ``[math]``, ...;
    the view's own tokens never reach a person."""
    shown = _PLACEHOLDER.sub(lambda m: " " + SHOWN[m.group(1)], text)
    return _SPACE_BEFORE_MARK.sub(r"\1", " ".join(shown.split()))

CITE_COMMAND = re.compile(r"\\[cC]ite[A-Za-z*]*\s*(?:\[[^\]]*\]\s*)*\{([^}]*)\}")
REF_COMMAND = re.compile(r"\\([A-Za-z]*[Rr]ef[A-Za-z]*)\s*((?:\{[^{}]*\}\s*)+)")
NOT_A_REF = re.compile(
    r"href|name$|format|stepcounter|Fraction|hyperref|refstyle|prefix|url|newref|labelref"
    r"|reftitle",
    re.I,
)
_BOXES = (
    r"tcolorbox|tcblisting|lstlisting|verbatim|Verbatim|minted|mdframed|framed|alltt|promptbox"
    r"|listing|boxedverbatim|shaded|tabbing|exampleblock|prompt|chat|dialogue|quote|quotation"
    r"|verse|lstinputlisting"
)
_LISTS = r"itemize|enumerate|description|abstract|quote|center|compactitem|compactenum"
_STYLES = (
    r"emph|textbf|textit|texttt|textsc|underline|text|mathrm|textrm|textnormal|small"
    r"|footnotesize|url|texorpdfstring|mbox"
)
_DEFINITIONS = (
    r"SetKw[A-Za-z]*|SetAlgo[A-Za-z]*|DontPrintSemicolon|newcommand|renewcommand"
    r"|providecommand|DeclareMathOperator|newtheorem|newenvironment|definecolor|setcounter"
    r"|addtocounter|newcounter|pagestyle|thispagestyle"
)
_DROPPED = (
    r"label|includegraphics|vspace|hspace|footnote|footnotemark|caption|newline|centering"
    r"|noindent|graphicspath|bibliography|bibliographystyle|maketitle|setlength|linewidth"
    r"|input|include"
)
_ARG = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_OPT = r"\[[^\]]*\]"


def _ref_or_keep(match: re.Match[str]) -> str:
    return match.group(0) if NOT_A_REF.search(match.group(1)) else f" {REF} "


_STEPS: tuple[tuple[re.Pattern[str], Replacement], ...] = (
    (re.compile(r"% MISSING INPUT[^\n]*"), " "),
    (re.compile(rf"\\begin\{{({_BOXES})\*?\}}(?:{_OPT})?(.*?)\\end\{{\1\*?\}}", re.S),
     " xxverbatimxx "),
    (FLOATS, " "),
    (MATHS, f" {MATH} "),
    (re.compile(r"\$\$.*?\$\$", re.S), f" {MATH} "),
    (re.compile(r"\\\[.*?\\\]", re.S), f" {MATH} "),
    (re.compile(r"\$[^$]*\$"), f" {MATH} "),
    (CITE_COMMAND, f" {CITE} "),
    (REF_COMMAND, _ref_or_keep),
    (re.compile(rf"\\(?:{_DEFINITIONS})\*?\s*(?:{_ARG}\s*){{1,4}}(?:{_OPT})?"), " "),
    (re.compile(rf"\\(?:{_DROPPED})\*?\s*(?:{_OPT})?\s*(?:{_ARG})?"), " "),
    (re.compile(rf"\\(?:sub)*section\*?\s*(?:{_OPT})?\{{((?:[^{{}}]|\{{[^{{}}]*\}})*)\}}"),
     lambda m: "\n\n" + m.group(1) + ".\n\n"),
    (re.compile(r"\\paragraph\*?\{((?:[^{}]|\{[^{}]*\})*)\}"),
     lambda m: "\n\n" + m.group(1) + ". "),
    (re.compile(rf"\\begin\{{(?:{_LISTS})\}}(?:\s*{_OPT})?|\\end\{{(?:{_LISTS})\}}"), "\n"),
    (re.compile(r"\\item\b"), "\n"),
    (re.compile(rf"\\begin\{{[A-Za-z*]+\}}\s*(?:{_OPT})?(?:\{{[^{{}}]*\}})?|\\end\{{[A-Za-z*]+\}}"),
     "\n"),
    (re.compile(rf"\\(?:{_STYLES})\*?\s*\{{((?:[^{{}}]|\{{[^{{}}]*\}})*)\}}"),
     lambda m: m.group(1)),
    (re.compile(rf"\\[A-Za-z]+\*?\s*(?:{_OPT})?"), " "),
    (re.compile(r"[{}~]"), " "),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\&"), "&"),
    (re.compile(r"[ \t]+"), " "),
    (re.compile(r"\n{3,}"), "\n\n"),
)  # fmt: skip


def prose_view(tex: str, base: int = 0) -> Mapped:
    """The release's prose view of a slice of the expanded text starting at ``base``."""
    view = Mapped.at(tex, base)
    for pattern, replacement in _STEPS:
        view = view.sub(pattern, replacement)
    return view


@dataclass(frozen=True)
class RefSentence:
    text: str
    #: Source offset of the sentence's first character (the release's ``tex_span[0]``).
    start: int
    #: Source offset of its first visible character (where findings point).
    shown: int


_PARAGRAPH = re.compile(r"[^\n]+(?:\n(?!\n)[^\n]+)*")
_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[\"'“])")
_ABBREVIATIONS = re.compile(
    r"\b(et al|e\.g|i\.e|cf|vs|Fig|Figs|Eq|Eqs|Sec|Secs|Tab|Tabs|resp|approx|no|etc|al|Dr|Prof"
    r"|w\.r\.t|a\.k\.a|Alg|App)\.$",
    re.I,
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z\-']*|\d+(?:\.\d+)?")


def _paragraph_spans(paragraph: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos = 0
    for match in _BREAK.finditer(paragraph):
        if spans and _ABBREVIATIONS.search(paragraph, spans[-1][0], spans[-1][1]):
            spans[-1] = (spans[-1][0], match.start())
        else:
            spans.append((pos, match.start()))
        pos = match.end()
    if spans and _ABBREVIATIONS.search(paragraph, spans[-1][0], spans[-1][1]):
        spans[-1] = (spans[-1][0], len(paragraph))
    else:
        spans.append((pos, len(paragraph)))
    return spans


def sentences(view: Mapped) -> list[RefSentence]:
    """The sentences of a prose view, each with the source offset it starts at."""
    found: list[RefSentence] = []
    for paragraph in _PARAGRAPH.finditer(view.text):
        base = paragraph.start()
        for start, end in _paragraph_spans(paragraph.group(0)):
            raw = paragraph.group(0)[start:end]
            text = raw.strip()
            if text:
                lead = base + start + len(raw) - len(raw.lstrip())
                found.append(
                    RefSentence(text, view.source_start(base + start), view.source_start(lead))
                )
    return found


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)
