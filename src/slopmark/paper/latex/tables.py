r"""Tabulars into cells, and which cells hold numbers.

Rows split at ``\\`` (and ``\tabularnewline``), cells at unescaped ``&``
outside braces. ``\multicolumn{n}{spec}{x}`` becomes x then n-1 empty cells,
``\multirow{n}{width}{x}`` becomes x; rules (``\hline``, ``\toprule``,
``\midrule``, ``\bottomrule``, ``\cline``, ``\cmidrule``, ...) are skipped.
A cell is numeric when, with formatting, ``$``, ``%`` and a ``±`` part (or a
sub/superscript spread) removed, it reads as a number: ``81.2``, ``-3``,
``1e-4``, ``12%``, ``0.93±0.02``, ``$-55.4_{\pm 0.2}$``, ``5.5 \cdot 10^{4}``, a
factor ``5.3x`` / ``2×``. The test reads the raw cell (before cleaning).
"""

from __future__ import annotations

import re

from slopmark.paper.document import TableCells
from slopmark.paper.latex.commands import read_args

_TABULAR_ARGS = {
    "tabular": 1, "tabular*": 2, "tabularx": 2, "tabulary": 2, "longtable": 1, "tabu": 1,
    "longtabu": 1, "xltabular": 2, "supertabular": 1, "array": 1,
}  # fmt: skip
TABULARS = frozenset(_TABULAR_ARGS)
_SPLIT = re.compile(r"\\\\|\\tabularnewline(?![A-Za-z])|\\.|[{}&]", re.S)
_RULES = re.compile(
    r"\\(?:(?:cline|cmidrule|specialrule|rowcolor|arrayrulecolor|hhline|noalign|cdashline"
    r"|cellcolor)(?![A-Za-z])\*?\s*(?:\([^)]*\))?\s*(?:\[[^\]]*\])?\s*(?:\{[^{}]*\}\s*)*"
    r"|(?:hline|toprule|midrule|bottomrule|addlinespace|morecmidrules|nopagebreak|pagebreak"
    r"|endhead|endfirsthead|endfoot|endlastfoot|hdashline|centering|arraybackslash"
    r"|raggedright|raggedleft)(?![A-Za-z])\s*(?:\[[^\]]*\])?)"
)
_STYLE = re.compile(
    r"\\(?:textbf|textit|emph|mathbf|mathrm|underline|bm|boldsymbol|textsc|text|bf|it)(?![A-Za-z])"
)
_ROW_OPTION = re.compile(r"^\s*\[[^\]]*\]")
_SCI = re.compile(r"\s*(?:\\cdot|\\times|×|x)\s*10\s*\^\s*\{?\s*([-+−]?\d+)\s*\}?")
_SCRIPT = re.compile(r"[_^]\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\?\w)")
_FORMAT = re.compile(r"\\[A-Za-z@]+\*?|[{}$~]|\\[,;:! ]")
_PM = re.compile(r"(?:±|\\pm|\+/-|\+-).*$", re.S)
_NUMBER = re.compile(r"[-+−]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+−]?\d+)?(?:%|[x×])?")


def is_numeric(cell: str) -> bool:
    """Does a cell's text hold a number (after formatting, ±-parts and % are removed)?"""
    text = _SCI.sub(r"e\1", cell)
    text = _SCRIPT.sub("", text)
    text = _PM.sub("", text.replace("\\%", "%"))
    text = _FORMAT.sub("", text).replace(" ", "").replace("\u2009", "")
    return bool(text) and _NUMBER.fullmatch(text) is not None


def _unwrap_cell(cell: str) -> list[str]:
    r"""A raw cell → its text, expanded to n cells for ``\multicolumn``."""
    cell = _RULES.sub(" ", cell).strip()
    for name, drop, span in (("\\multicolumn", 2, True), ("\\multirow", 2, False)):
        if cell.startswith(name):
            args = read_args(cell, len(name), len(cell), optional=2, required=drop + 1)
            if len(args.required) == drop + 1:
                inner = _unwrap_cell(args.required[-1] + cell[args.end :])
                width = int(args.required[0]) if span and args.required[0].isdigit() else 1
                return inner[:1] + [""] * (width - 1) + inner[1:]
    return [cell]


def _rows(body: str) -> list[list[str]]:
    rows: list[list[str]] = []
    cells: list[str] = []
    start = depth = 0
    for match in _SPLIT.finditer(body):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth <= 0 and token in ("&", "\\\\") or token.startswith("\\tabularnewline"):
            cells.append(body[start : match.start()])
            start = match.end()
            if token != "&":
                rows.append(cells)
                cells = []
    cells.append(body[start:])
    rows.append(cells)
    return rows


def parse_tabular(name: str, inner: str) -> TableCells:
    """The cells of a tabular environment's inner text (its column spec included)."""
    args = read_args(inner, 0, len(inner), optional=1, required=_TABULAR_ARGS.get(name, 1))
    rows: list[tuple[str, ...]] = []
    for raw in _rows(inner[args.end :]):
        raw[0] = _ROW_OPTION.sub("", raw[0])
        cells = [text for cell in raw for text in _unwrap_cell(cell)]
        if any(cells):
            rows.append(tuple(cells))
    numeric = tuple(tuple(map(is_numeric, row)) for row in rows)
    return TableCells(tuple(tuple(map(_clean, row)) for row in rows), numeric)


def _clean(cell: str) -> str:
    text = _STYLE.sub("", cell.replace("\\pm", "±").replace("\\%", "%"))
    return " ".join(text.replace("{", "").replace("}", "").replace("$", "").split())
