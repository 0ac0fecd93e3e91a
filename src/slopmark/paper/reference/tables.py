r"""The release's result-table test (``scislop/_common/tables.py``), re-implemented.

A tabular (``tabular``, ``tabular*``, ``tabularx``, ``longtable``, ``tabulary``)
between ``\begin{document}`` and ``\end{document}`` is split into rows at
``\\`` outside braces (rules dropped) and cells at ``&`` outside braces;
``\multicolumn{n}`` spans n cells, ``\multirow`` keeps its text. Up to three
leading rows with at most a quarter numeric cells are the header (else the
first row is). A row whose first cell spans several columns and carries no
number is a group title, not a data row. A table with fewer than two rows left
is skipped.

A cell is numeric when it holds ``a ± b`` (``\pm``, ``±``, ``+/-``, ...),
``a_{\pm b}``, ``a (b)``, exactly one number with no word of three letters
besides unit marks (``k``, ``M``, ``B``, ``ms``, ``s``, ``x``, ``X``, ``pp``,
``std``, ``avg``), or only numbers, signs, ``%``, ``x``/``×``, arrows and marks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TABULAR = re.compile(
    r"\\begin\{(tabular\*?|tabularx|longtable|tabulary)\}\s*(?:\{[^{}]*\}\s*)?(?:\{[^{}]*\})?"
    r"\s*(?:\{((?:[^{}]|\{[^{}]*\})*)\})?(.*?)\\end\{\1\}",
    re.S,
)
_RULES = re.compile(
    r"\\(?:toprule|midrule|bottomrule|hline|cline\{[^}]*\}|cmidrule(?:\([^)]*\))?\{[^}]*\}"
    r"|addlinespace(?:\[[^\]]*\])?|specialrule\{[^}]*\}\{[^}]*\}\{[^}]*\}|arrayrulecolor\{[^}]*\}"
    r"|noalign\{[^}]*\}|rowcolor\{[^}]*\}|morecmidrules)"
)
_MULTICOLUMN = re.compile(r"\\multicolumn\s*\{(\d+)\}\s*\{[^{}]*\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_MULTIROW = re.compile(
    r"\\multirow\s*(?:\[[^\]]*\])?\{(-?\d+|\*)\}\s*(?:\{[^{}]*\}|\*|\[[^\]]*\])?\s*"
    r"(?:\[[^\]]*\])?\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
)
_NUM = r"[-+]?\d+(?:\.\d+)?"
_PLUS_MINUS = re.compile(rf"{_NUM}\s*(?:\\pm|±|\$\\pm\$|\\textpm|\+/-|\+-)\s*\{{?\s*{_NUM}")
_SUB_PLUS_MINUS = re.compile(rf"{_NUM}\s*_\{{\s*\\pm\s*{_NUM}\s*\}}")
_PARENTHESISED = re.compile(rf"{_NUM}\s*\(\s*{_NUM}\s*\)")
_BRACKETS = re.compile(r"\[[^\]]*\]")
_NUMBERS = re.compile(r"(?<![\w.])([-+]?\d+(?:,\d{3})*(?:\.\d+)?)(?![\w.])")
_UNIT_MARKS = re.compile(r"\b(?:k|M|B|ms|s|x|X|pp|std|avg)\b")
_WORD3 = re.compile(r"[A-Za-z]{3,}")
_ONLY_NUMBERS = re.compile(r"[\s\d.\-+/%()xX×↑↓*†‡]*")
_CLEAN_STEPS = (
    (re.compile(r"\\(?:textbf|mathbf|bm|textit|emph|underline|textsc|texttt|text|mathrm"
                r"|textcolor\{[^}]*\})\s*\{((?:[^{}]|\{[^{}]*\})*)\}"), r"\1"),
    (re.compile(r"\\(?:cellcolor|rowcolor|color)\s*(?:\[[^\]]*\])?\{[^}]*\}"), " "),
    (re.compile(r"\\(?:phantom|hphantom)\{[^}]*\}"), " "),
)  # fmt: skip


def clean_cell(cell: str) -> str:
    for pattern, replacement in _CLEAN_STEPS:
        cell = pattern.sub(replacement, cell)
    cell = cell.replace("\\%", "%").replace("\\&", "&").replace("~", " ")
    cell = re.sub(r"[{}$]", " ", re.sub(r"\\[a-zA-Z]+\*?", " ", cell))
    return " ".join(cell.split())


def is_number_cell(raw: str) -> bool:
    """Does the release read this raw cell as a number?"""
    if _PLUS_MINUS.search(raw) or _SUB_PLUS_MINUS.search(raw):
        return True
    text = clean_cell(raw)
    if _PARENTHESISED.search(text):
        return True
    text = _BRACKETS.sub(" ", text)
    numbers = _NUMBERS.findall(text.replace(",", ""))
    if len(numbers) == 1 and not _WORD3.search(_UNIT_MARKS.sub("", text)):
        return True
    return bool(numbers) and _ONLY_NUMBERS.fullmatch(text) is not None


@dataclass(frozen=True)
class Cell:
    raw: str
    span: int = 1
    spanned: bool = False


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at ``separator`` outside braces (``\\\\`` for rows, ``&`` for cells)."""
    parts: list[str] = []
    depth = start = i = 0
    while i < len(text):
        char = text[i]
        depth += (char == "{") - (char == "}")
        if depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            i += len(separator)
            option = re.match(r"\[[^\]]*\]", text[i:]) if separator == "\\\\" else None
            i += option.end() if option else 0
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _cells(row: str) -> list[Cell]:
    cells: list[Cell] = []
    for raw in _split(row, "&"):
        wide = _MULTICOLUMN.search(raw)
        if wide:
            width = int(wide.group(1))
            cells += [Cell(wide.group(2), width)] + [Cell("", 0, True)] * (width - 1)
            continue
        tall = _MULTIROW.search(raw)
        cells.append(Cell(tall.group(2) if tall else raw))
    return cells


def _is_header(row: list[Cell]) -> bool:
    filled = [c.raw for c in row if c.raw.strip()]
    numbers = sum(map(is_number_cell, filled))
    return bool(filled) and numbers <= len(filled) // 4


def _header_rows(rows: list[list[Cell]]) -> int:
    """How many of the first three rows are header rows."""
    count = 0
    while count < min(3, len(rows)) and _is_header(rows[count]):
        count += 1
    return count


def _data_rows(rows: list[list[Cell]]) -> list[list[bool]]:
    """Per data row, which of its cells (padded to the widest row) are numbers."""
    width = max(len(r) for r in rows)
    found: list[list[bool]] = []
    for row in rows[max(_header_rows(rows), 1) :]:
        raws = [row[j].raw if j < len(row) else "" for j in range(width)]
        numeric = [bool(r.strip()) and is_number_cell(r) for r in raws]
        if row[0].span > 1 and _is_group_title(raws, numeric):
            continue
        found.append(numeric)
    return found


def _is_group_title(raws: list[str], numeric: list[bool]) -> bool:
    """A row spanning from its first cell: a name and nothing else, or beside one word cell."""
    rest = [n for r, n in zip(raws[1:], numeric[1:], strict=True) if r.strip()]
    named = bool(raws[0].strip()) and (numeric[0] or bool(clean_cell(raws[0])))
    return (not rest and named) or (len(rest) == 1 and not any(rest))


@dataclass(frozen=True)
class RefTable:
    start: int
    rows: int
    numbers: int


def tables(tex: str, start: int, end: int) -> list[RefTable]:
    """Every tabular of the document region with its data rows and numeric cells."""
    found: list[RefTable] = []
    for match in _TABULAR.finditer(tex):
        if not start <= match.start() < end:
            continue
        rows = [_cells(r) for r in _split(_RULES.sub(" ", match.group(3)), "\\\\")]
        rows = [r for r in rows if any(c.raw.strip() for c in r)]
        if len(rows) < 2:
            continue
        data = _data_rows(rows)
        found.append(RefTable(match.start(), len(data), sum(map(sum, data))))
    return found
