"""Evidence gap (plane ARTIFACTS): aggregate results with no concrete case anywhere in the paper.

Definition ("Science or Slop?", Section 3.1 and Appendix A). The unit is the
paper. It is applicable when its body holds a result table: a tabular with at
least `MIN_DATA_ROWS` rows holding a number and `MIN_NUMERIC_CELLS` numeric
cells (in a float, or a bare ``tabular`` environment outside floats). Then::

    h(p) = 1[no exhibit appears anywhere in p, appendix included]
    s(p) = h(p)                                                 (Eq. 1, one unit)

An exhibit (one is enough, anywhere) is

- a display environment carrying consumed or produced material: one of
  `EXHIBIT_ENVIRONMENTS` (verbatim, Verbatim, BVerbatim, spverbatim, lstlisting,
  minted, alltt, tcolorbox, mdframed, framed), ``quote`` / ``quotation``
  outside the related work, or a custom box whose name holds one of
  `EXHIBIT_NAME_STEMS` (``promptbox``, ``examplebox``, ``outputbox``, ...);
  an environment with no content is not an exhibit, nor one whose lines are
  settings (optimizer settings, hyperparameters: neither input nor output
  material; `slopmark.paper.measures.configuration`);
- a float caption announcing an example, a case or a failure
  (`CAPTION_CUES`: example(s), case study / studies, qualitative, failure
  case(s) / mode(s) / example(s), sample output(s), example output(s),
  generated samples / examples / outputs, samples generated, model outputs,
  transcript(s), illustrative), once the phrases of `CAPTION_NOT_CUES`
  ("for example", "number of ... examples", "training examples",
  "examples per") are set aside. "Generated samples" counts: the text looks
  for "inputs, outputs, or cases" so readers can "inspect individual successes
  and failures" (Section 3.1), and samples a model generated are its outputs
  (the authors' release does not list the phrase; docs/paper-definitions.md);
- a long quotation outside the related work: at least `LONG_QUOTE_WORDS`
  words inside ````...''``, ``“...”``, ``"..."`` or ``\\enquote{...}``.

A gap the paper acknowledges still scores 1 (h(p) is 0 or 1 in Appendix A,
and the authors' release has no middle value): when a paper with no exhibit
states both that no individual case was inspected (`NOT_INSPECTED`) and that
its results rest on aggregate scores (`AGGREGATE_ONLY`), ``detail`` quotes both
statements, for the reader and for the revision loop.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from slopmark.paper.document import Document, Environment, Float, Span, TableCells
from slopmark.paper.latex.tables import parse_tabular
from slopmark.paper.measures.base import (
    DeclaredMeasure,
    Instance,
    MeasureResult,
    Plane,
    heading,
    register,
    shown_caption,
)
from slopmark.paper.measures.configuration import is_configuration

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

NAME = "evidence_gap"
PLANE: Plane = "ARTIFACTS"
UNIT = "papers"
MIN_DATA_ROWS = 2
MIN_NUMERIC_CELLS = 4
LONG_QUOTE_WORDS = 40
REPAIR = "show one concrete input/output or failure case from the records"

EXHIBIT_ENVIRONMENTS = frozenset({
    "verbatim", "Verbatim", "BVerbatim", "spverbatim", "lstlisting", "minted", "alltt",
    "tcolorbox", "mdframed", "framed",
})  # fmt: skip
QUOTE_ENVIRONMENTS = frozenset({"quote", "quotation"})
EXHIBIT_NAME_STEMS = (
    "prompt", "example", "sample", "output", "response", "dialog", "transcript",
    "conversation", "chat", "casestudy",
)  # fmt: skip
#: Text tables (math ``array`` is not one) read when they stand outside any float.
TABULAR_ENVIRONMENTS = frozenset({
    "tabular", "tabular*", "tabularx", "tabulary", "longtable", "tabu", "longtabu", "xltabular",
    "supertabular",
})  # fmt: skip

CAPTION_CUES = re.compile(
    r"\bexamples?\b|\bcase stud(?:y|ies)\b|\bqualitative\b|\bfailure (?:cases?|modes?|examples?)\b"
    r"|\b(?:sample|example) outputs?\b|\bgenerated (?:samples|examples|outputs)\b"
    r"|\bsamples generated\b|\bmodel outputs\b|\btranscripts?\b|\billustrative\b",
    re.I,
)
CAPTION_NOT_CUES = re.compile(
    r"\bfor example\b|\bnumber of (?:\w+ )?examples\b|\btraining examples\b|\bexamples per\b", re.I
)
NOT_INSPECTED = re.compile(
    r"\b(?:did|do|does|have|has|could) not (?:manually |qualitatively )?"
    r"(?:inspect|examine|analy[sz]e|look at|review|read)\b[^.]{0,60}?"
    r"\b(?:individual|specific|single|particular|qualitative|per-example)\b"
    r"|\bno (?:individual |specific |single |particular )?(?:cases?|examples?|samples?|outputs?"
    r"|generations?|transcripts?) (?:was|were) (?:manually )?(?:inspected|examined|analy[sz]ed"
    r"|reviewed|read)\b"
    r"|\bwithout (?:manually )?(?:inspecting|examining|reading|looking at) (?:any )?"
    r"(?:individual|specific|single)\b"
    r"|\bno qualitative (?:analysis|inspection|examination|evaluation)\b",
    re.I,
)
AGGREGATE_ONLY = re.compile(
    r"\baggregated? (?:metrics?|scores?|statistics|numbers|results|measures)\b"
    r"|\b(?:solely|only|entirely|exclusively) on (?:aggregate|summary|average|mean)\b",
    re.I,
)
_QUOTES = (
    re.compile(r"``(.{1,6000}?)''", re.S),
    re.compile(r"“(.{1,6000}?)”", re.S),
    re.compile(r"\"([^\"]{1,6000})\""),
    re.compile(r"\\enquote\{([^{}]{1,6000})\}"),
)
_WORD = re.compile(r"(?<!\\)\b[A-Za-z][A-Za-z'-]*")
_ENV_WRAPPER = re.compile(r"\\(?:begin|end)\{[^}]*\}(?:\[[^\]]*\]|\{[^}]*\})*")
_BEGIN_END = re.compile(r"^\s*\\begin\s*\{[^}]*\}|\\end\s*\{[^}]*\}\s*$")


@dataclass(frozen=True)
class ResultTable:
    """A table of the body with at least two data rows and four numeric cells."""

    name: str
    at: Span
    section: int


@dataclass(frozen=True)
class Exhibit:
    """Concrete material a reader can inspect: an environment, a caption or a quotation."""

    kind: str
    what: str
    at: Span


def _role(document: Document, index: int) -> str:
    return document.sections[index].role if 0 <= index < len(document.sections) else "other"


def _in_body(document: Document, index: int) -> bool:
    return 0 <= index < len(document.sections) and document.sections[index].in_body


def is_result_table(cells: TableCells) -> bool:
    """At least `MIN_DATA_ROWS` rows with a number and `MIN_NUMERIC_CELLS` numeric cells."""
    return cells.data_rows >= MIN_DATA_ROWS and cells.numeric_cells >= MIN_NUMERIC_CELLS


def _table_name(document: Document, numbers: dict[str, str | None], table: Float) -> str:
    """``Table 2: caption`` (the first numbered label of ``table``), else ``Table: caption``."""
    number = next((numbers[k] for k in table.labels if numbers.get(k)), None)
    caption = " ".join(shown_caption(document, table).split())
    return f"Table {number}: {caption}" if number else f"Table: {caption}"


def _inside_float(environment: Environment, floats: tuple[Float, ...]) -> bool:
    line, file = environment.at.line, environment.at.file
    return any(
        f.at.file == file and f.at.line <= line <= f.at.line + f.source.count("\n") for f in floats
    )


def _bare_tabular_cells(document: Document, environment: Environment) -> TableCells | None:
    """The cells of a tabular of the body that stands outside every float, else None."""
    if environment.name not in TABULAR_ENVIRONMENTS or not _in_body(document, environment.section):
        return None
    if _inside_float(environment, document.floats):
        return None
    return parse_tabular(environment.name, _BEGIN_END.sub("", environment.source))


def result_tables(document: Document) -> tuple[ResultTable, ...]:
    """The body's result tables, in floats first and then bare tabulars, in document order."""
    numbers = {label.key: label.number for label in document.labels}
    floats = [
        ResultTable(_table_name(document, numbers, f), f.at, f.section)
        for f in document.floats
        if _in_body(document, f.section) and any(map(is_result_table, f.tables))
    ]
    bare = [
        ResultTable(f"Tabular outside a float ({e.at.file}:{e.at.line})", e.at, e.section)
        for e in document.environments
        if (cells := _bare_tabular_cells(document, e)) is not None and is_result_table(cells)
    ]
    return tuple(floats + bare)


def _has_content(environment: Environment) -> bool:
    return len(_ENV_WRAPPER.sub("", environment.source).strip()) >= 3


def _is_exhibit_environment(document: Document, environment: Environment) -> bool:
    name = environment.name.rstrip("*")
    if name in QUOTE_ENVIRONMENTS:
        return _role(document, environment.section) != "related_work"
    if name == "lrbox":
        return False
    return name in EXHIBIT_ENVIRONMENTS or any(s in name.lower() for s in EXHIBIT_NAME_STEMS)


def _displays(document: Document) -> list[Environment]:
    """The exhibit-kind environments with content (configuration blocks included)."""
    return [e for e in document.environments
            if _is_exhibit_environment(document, e) and _has_content(e)]  # fmt: skip


def _is_settings(environment: Environment) -> bool:
    """A block of settings; a quotation is never one."""
    return environment.name.rstrip("*") not in QUOTE_ENVIRONMENTS and is_configuration(
        environment.source
    )


def _environment_exhibits(document: Document) -> list[Exhibit]:
    return [Exhibit("environment", e.name, e.at)
            for e in _displays(document) if not _is_settings(e)]  # fmt: skip


def settings_blocks(document: Document) -> list[Exhibit]:
    """The display environments left out as configuration (reported in ``detail``)."""
    return [Exhibit("settings", e.name, e.at) for e in _displays(document) if _is_settings(e)]


def announces_exhibit(caption: str) -> bool:
    """Does a caption announce an example, a case or a failure?"""
    return CAPTION_CUES.search(CAPTION_NOT_CUES.sub(" ", caption)) is not None


def _caption_exhibits(document: Document) -> list[Exhibit]:
    return [
        Exhibit("caption", f.caption, f.at) for f in document.floats if announces_exhibit(f.caption)
    ]


def long_quotations(source: str) -> list[str]:
    """Quotations of at least `LONG_QUOTE_WORDS` words in a piece of LaTeX."""
    found = []
    for pattern in _QUOTES:
        found += [m.group(1) for m in pattern.finditer(source)]
    return [q for q in found if len(_WORD.findall(q)) >= LONG_QUOTE_WORDS]


def _quotation_exhibits(document: Document) -> list[Exhibit]:
    return [
        Exhibit("quotation", quote, section.at)
        for section in document.sections
        if section.role != "related_work"
        for quote in long_quotations(section.source)
    ]


def exhibits(document: Document) -> list[Exhibit]:
    """Every exhibit anywhere in the paper, appendix included."""
    return (
        _environment_exhibits(document)
        + _caption_exhibits(document)
        + _quotation_exhibits(document)
    )


def acknowledgement(document: Document) -> dict[str, str] | None:
    """The paper's statements that no case was inspected and results are aggregate, or None."""
    texts = [" ".join(s.text.split()) for s in document.sentences]
    inspected = next((t for t in texts if NOT_INSPECTED.search(t)), None)
    aggregate = next((t for t in texts if AGGREGATE_ONLY.search(t)), None)
    if inspected is None or aggregate is None:
        return None
    return {"no_case_inspected": inspected, "aggregate_only": aggregate}


def _gap_instance(document: Document, table: ResultTable) -> Instance:
    section = heading(document.section(table.section))
    text = f"{table.name} (no example, case or failure shown anywhere)"
    return Instance(NAME, table.at, section, text, REPAIR)


def evidence_gap(document: Document) -> MeasureResult:
    """h(p) for the paper: 1 with a result table and no exhibit (acknowledged or not), else 0."""
    tables = result_tables(document)
    if not tables:
        reason = (
            f"no result table in the body (a tabular with ≥ {MIN_DATA_ROWS} data rows and "
            f"≥ {MIN_NUMERIC_CELLS} numeric cells)"
        )
        return MeasureResult.of(NAME, PLANE, 0, 0, UNIT, reason=reason)
    detail: dict[str, object] = {"result_tables": [t.name for t in tables]}
    if settings := settings_blocks(document):
        detail["settings_not_exhibits"] = [asdict(e) for e in settings]
    found = exhibits(document)
    if found:
        detail["exhibits"] = [asdict(e) for e in found]
        return MeasureResult.of(NAME, PLANE, 0, 1, UNIT, detail=detail)
    instances = (_gap_instance(document, tables[0]),)
    gap = MeasureResult.of(NAME, PLANE, 1, 1, UNIT, instances=instances, detail=detail)
    statements = acknowledgement(document)
    if statements is None:
        return gap
    detail["acknowledged_gap"] = statements
    return gap


@register(NAME)
class EvidenceGap(DeclaredMeasure):
    """Evidence gap as a registered measure (deterministic; see the module docstring)."""

    plane = PLANE
    summary = "a paper with a result table in its body but no input, output or case shown anywhere"

    def measure(self, document: Document, models: ModelSet | None = None) -> MeasureResult:
        return evidence_gap(document)
