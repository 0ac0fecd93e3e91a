r"""A sentence's LaTeX as a person reads it, for findings (``0\%`` → ``0%``).

Citation commands become their keys in brackets (``\citep{a,b}`` → ``[a, b]``);
reference commands become the printed number when it is known, else the key
(``Table~\ref{tab:main}`` → ``Table 2``; ``\eqref`` adds parentheses); text
styles keep their text; footnotes, labels (``\label{eq:x}`` prints nothing) and
environment wrappers are dropped; symbol commands print their
character (``$3 \times 3$`` → ``3 × 3``, ``\rightarrow`` → ``→``; `symbols`);
inline math loses its ``$`` and its other commands' backslashes; escaped
characters, ties, dashes and TeX quotes become the characters they print; any
other command and the braces go.

`caption_latex` finds the LaTeX of a float's caption in the float's source, so
a caption can be shown the same way (its references as printed numbers).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from slopmark.paper.latex.commands import read_args
from slopmark.paper.latex.convert import plain_text
from slopmark.paper.latex.symbols import print_symbols

_CITE = re.compile(r"\\[A-Za-z]*cite[A-Za-z]*\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^{}]*)\}")
_REF = re.compile(
    r"\\(eqref|ref|cref|Cref|autoref|Autoref|pageref|nameref|vref|Vref|cpageref|subref)\*?"
    r"\s*\{([^{}]*)\}"
)
_FOOTNOTE = re.compile(r"\\footnote(?:mark|text)?\s*(?:\[[^\]]*\])?\s*\{(?:[^{}]|\{[^{}]*\})*\}")
_STYLE = re.compile(
    r"\\(?:textbf|textit|emph|texttt|textsc|textrm|textsf|underline|text|mbox|mathrm|mathbf"
    r"|mathit|mathcal|operatorname|textnormal)\s*\{((?:[^{}]|\{[^{}]*\})*)\}"
)
_MATH = re.compile(r"\$([^$]*)\$|\\\((.*?)\\\)", re.S)
#: What prints nothing: labels, environment wrappers, equation-number switches.
_SILENT = re.compile(
    r"\\label\s*\{[^{}]*\}|\\(?:begin|end)\s*\{[^{}]*\}|\\(?:nonumber|notag)(?![A-Za-z])"
)
_ESCAPED = re.compile(r"\\([%&_#$])")
_COMMAND = re.compile(r"\\[A-Za-z@]+\*?\s*(?:\[[^\]]*\])?")
_CHARACTERS = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"), ("~", " "), ("\\\\", " "))


def readable(latex: str, numbers: Mapping[str, str | None] | None = None) -> str:
    """One line of readable text from a LaTeX sentence; ``numbers`` maps label keys to
    their printed numbers."""
    printed = numbers or {}
    text = _SILENT.sub(" ", _FOOTNOTE.sub("", latex))
    text = _CITE.sub(lambda m: "[" + ", ".join(k.strip() for k in m.group(1).split(",")) + "]",
                     text)  # fmt: skip
    text = _REF.sub(lambda m: _reference(m.group(1), m.group(2), printed), text)
    for _ in range(3):
        text = _STYLE.sub(r"\1", text)
    text = print_symbols(text)
    text = _MATH.sub(lambda m: (m.group(1) or m.group(2) or "").replace("\\", ""), text)
    text = _ESCAPED.sub(r"\1", text)
    for written, shown in _CHARACTERS:
        text = text.replace(written, shown)
    text = _COMMAND.sub(" ", text).replace("{", "").replace("}", "")
    return " ".join(text.split())


def _reference(command: str, keys: str, numbers: Mapping[str, str | None]) -> str:
    shown = ", ".join(numbers.get(k.strip()) or k.strip() for k in keys.split(","))
    return f"({shown})" if command == "eqref" else shown


_CAPTION = re.compile(r"\\caption(?![A-Za-z])")


def caption_latex(source: str, plain: str) -> str | None:
    r"""The LaTeX of the ``\caption`` in a float's ``source`` whose plain text is
    ``plain``, the caption the float holds; None when none is."""
    for found in _CAPTION.finditer(source):
        args = read_args(source, found.end(), len(source), 1, 1)
        if args.ok and args.required and " ".join(plain_text(args.required[0]).split()) == plain:
            return args.required[0]
    return None
