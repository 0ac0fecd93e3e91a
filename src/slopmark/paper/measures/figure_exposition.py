"""Figure exposition (plane ARTIFACTS, needs a vision and a labeller model).

"Science or Slop?", Table 1 and Appendix A. The method figure is the first
figure of the body whose caption passes the gate (overview / pipeline /
framework / architecture). Its first ``\\includegraphics`` file (PNG or JPEG
as is; PDF rasterised with the optional ``pypdfium2``) is transcribed by the
vision model with one fixed prompt, and six kinds of exposition k are checked
on the transcript, h(k) = 1 when the figure carries kind k::

    score = Σ_k h(k) / 6

A high score means the method diagram carries many kinds of exposition
beyond the method's steps and connections: a notation key, a comparison arm,
settings or results of the experiments, evaluative marks, a box stating the
thesis, numbered stages. Higher reads as more slop-like, the same direction
as every other measure (the paper flags experimental details and claims about
results in a method figure because they make its steps harder to follow).

Five kinds are frozen patterns (`KIND_PATTERNS`; enumerated stages need at
least 2 distinct stage markers). Experimental content — whether a number is
a setting of the run or a constant of the method — is a judgement: the
labeller model answers a fixed yes/no question about the transcript
(`EXPERIMENTAL_QUESTION`), majority of 3 greedy runs; ``detail`` says so and
records the transcript. No method figure → not applicable.
"""

from __future__ import annotations

import importlib
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slopmark.confine import inside
from slopmark.paper.document import Document, Float
from slopmark.paper.measures.base import (
    Instance,
    MeasureResult,
    ModelMeasure,
    Plane,
    heading,
    register,
    shown_caption,
)
from slopmark.paper.models import ModelSet
from slopmark.regular import Unreadable, read_regular

NAME = "figure_exposition"
PLANE: Plane = "ARTIFACTS"
UNIT = "kinds"
RUNS = 3
#: The caption gate of the method figure.
CAPTION_GATE = re.compile(r"\b(overview|pipeline|framework|architecture)s?\b", re.I)
TRANSCRIBE_PROMPT = (
    "Transcribe this figure from a scientific paper as plain text. Write out every piece "
    "of text it shows (titles, box labels, arrow labels, legends, numbers, symbols), box by "
    "box and panel by panel, and say in one line each how the parts are connected. Do not "
    "add anything that is not drawn."
)
EXPERIMENTAL_QUESTION = (
    "Below is a transcript of a method figure from a scientific paper.\n\n{transcript}\n\n"
    "Does the figure show experimental content: settings or results of particular runs "
    "(dataset names, numbers of epochs or steps, batch sizes, learning rates, hardware, "
    "measured scores), as opposed to constants that define the method itself? "
    "Answer yes or no."
)
_SYMBOL = r"\$?\\?[A-Za-z\u0370-\u03ff][A-Za-z0-9]{0,2}(?:[_^]\{?[\w,]+\}?)?\$?"
#: The five frozen kinds: a kind is present when its pattern matches the transcript.
KIND_PATTERNS: dict[str, re.Pattern[str]] = {
    # A legend or notation block, or a line defining a symbol ("x_t: input token").
    "notation key": re.compile(
        r"\b(?:legend|notation|symbols?)\b\s*[:\-–]|\bkey\s*:"
        rf"|^\s*[-•*]?\s*{_SYMBOL}\s*(?::|=|denotes|represents)\s*[A-Za-z]{{3,}}",
        re.I | re.M,
    ),
    # A baseline or alternative drawn beside the method.
    "comparison arm": re.compile(
        r"\b(?:vs\.?|versus|baselines?|compared (?:to|with)|w/o|conventional|traditional"
        r"|vanilla|(?:existing|prior|previous) (?:methods?|approach(?:es)?|work|pipelines?))"
        r"(?!\w)",
        re.I,
    ),
    # A judgement of results: better / best / outperforms, check marks, arrows, "+3.2%".
    "evaluative mark": re.compile(
        r"\b(?:better|best|improv(?:es|ed|ement|ements)|outperform\w*|superior"
        r"|state[- ]of[- ]the[- ]art|sota|boost\w*|(?:higher|lower) (?:accuracy|error|loss))\b"
        r"|[✓✔✗✘❌↑↓]|\+\s?\d+(?:\.\d+)?\s?%",
        re.I,
    ),
    # A box stating the paper's idea or finding.
    "thesis box": re.compile(
        r"\b(?:key (?:idea|insight|finding|observation|takeaway)s?|takeaways?"
        r"|(?:main|core) (?:idea|insight|finding)s?|insight\s*:"
        r"|our (?:idea|insight|hypothesis|claim)|we (?:show|find|argue|demonstrate) that)",
        re.I,
    ),
}
#: Stage markers: "Step 2", "Stage II", "phase three", ①, or a line opening "(3)" / "3." / "3)".
STAGE_MARKERS = re.compile(
    r"\b(?:step|stage|phase)\s*(\d+|[ivx]+|one|two|three|four|five|six)\b"
    r"|([\u2460-\u2473])|^\s*\(?(\d{1,2})[.)]\s+\S",
    re.I | re.M,
)
KINDS = ("notation key", "comparison arm", "experimental content", "evaluative mark",
         "thesis box", "enumerated stages")  # fmt: skip


_YES_NO = re.compile(r"\b(yes|no)\b", re.I)
_INCLUDE = re.compile(r"\\includegraphics\s*(?:\[[^\]]*\])?\s*\{([^}]+)\}")
_GRAPHICSPATH = re.compile(r"\\graphicspath\s*\{((?:\s*\{[^}]*\})+)\s*\}")
_MEDIA = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
_SUFFIXES = ("", ".png", ".pdf", ".jpg", ".jpeg")
#: A figure file (or the main file naming its folders) larger than this is not read.
MAX_FIGURE_BYTES = 50 * 2**20
#: Longest side of a rasterised PDF figure, in pixels.
RASTER_PIXELS = 1600


class FigureFileError(Exception):
    """The method figure's image cannot be read (missing, unsupported, no renderer)."""


@dataclass(frozen=True)
class FigureImage:
    #: The file, relative to the paper folder when inside it.
    path: str
    data: bytes
    media_type: str


def method_figure(document: Document) -> Float | None:
    """The first figure of the body whose caption passes `CAPTION_GATE`."""
    for item in document.floats:
        in_body = document.section(item.section).in_body
        if item.kind == "figure" and in_body and CAPTION_GATE.search(item.caption):
            return item
    return None


def includegraphics(source: str) -> list[str]:
    """The file names of the ``\\includegraphics`` commands in a float's source, in order."""
    return [match.group(1).strip() for match in _INCLUDE.finditer(source)]


def paper_folder(document: Document) -> Path | None:
    """The folder of the paper's main file: ``Document.root``, else where ``main`` leads."""
    if document.root is not None:
        return Path(document.root)
    main = Path(document.main)
    if main.is_dir():
        return main
    return main.parent if main.is_file() else None


def figure_image(document: Document, figure: Float) -> FigureImage:
    """The first ``\\includegraphics`` file of ``figure`` as PNG or JPEG bytes."""
    names = includegraphics(figure.source)
    if not names:
        raise FigureFileError(f"the method figure ({figure.caption!r}) has no \\includegraphics")
    folder = paper_folder(document)
    if folder is None:
        raise FigureFileError(
            f"cannot find the paper's folder from Document.main={document.main!r}; "
            "the figure file is resolved from the main file's folder"
        )
    found = _figure_file(names[0], folder, _graphics_folders(document, folder))
    shown = str(found.relative_to(folder)) if found.is_relative_to(folder) else str(found)
    suffix = found.suffix.lower()
    if suffix != ".pdf" and suffix not in _MEDIA:
        raise FigureFileError(f"{shown}: figure format {found.suffix!r} is not PNG, JPEG or PDF")
    try:
        data = read_regular(found, MAX_FIGURE_BYTES)
    except Unreadable as error:
        raise FigureFileError(f"{shown}: {error.reason}; the figure is not read") from error
    if suffix == ".pdf":
        return FigureImage(shown, _rasterise(found.name, data), "image/png")
    return FigureImage(shown, data, _MEDIA[suffix])


def _graphics_folders(document: Document, folder: Path) -> list[Path]:
    """The paper folder, then the ``\\graphicspath`` folders named in the main file."""
    main = folder / Path(document.main).name
    try:
        text = read_regular(main, MAX_FIGURE_BYTES).decode("utf-8", errors="replace")
    except Unreadable:
        text = ""
    named = [
        folder / entry
        for match in _GRAPHICSPATH.finditer(text)
        for entry in re.findall(r"\{([^}]*)\}", match.group(1))
    ]
    return [folder, *named]


def _candidates(name: str, folders: list[Path]) -> list[Path]:
    return [folder / f"{name}{suffix}" for folder in folders for suffix in _SUFFIXES]


def _figure_file(name: str, folder: Path, folders: list[Path]) -> Path:
    """The first candidate file of ``name`` inside ``folder``; a candidate that resolves
    outside it (absolute, ``..``, a symlink out) is never opened."""
    candidates = _candidates(name, folders)
    allowed = [path for path in candidates if inside(folder, path)]
    found = next((path for path in allowed if path.exists() and not path.is_dir()), None)
    if found is not None:
        return found
    if len(allowed) < len(candidates):
        raise FigureFileError(
            f"method figure file {name!r} leaves the paper folder {folder}: refused, not read"
        )
    raise FigureFileError(f"method figure file {name!r} not found under {folder}")


def _rasterise(name: str, data: bytes) -> bytes:
    """The first page of a PDF figure as PNG bytes (optional pypdfium2 and Pillow)."""
    try:
        pypdfium2 = importlib.import_module("pypdfium2")
    except ImportError as error:
        raise FigureFileError(
            f"{name}: a PDF figure needs a renderer: "
            "pip install 'slopmark[pdf]' (pypdfium2, pillow)"
        ) from error
    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as error:
        raise FigureFileError(f"{name}: not a readable PDF ({error})") from error
    try:
        page = document[0]
        scale = RASTER_PIXELS / max(page.get_width(), page.get_height(), 1.0)
        image = page.render(scale=scale).to_pil()
    except ImportError as error:
        raise FigureFileError(f"{name}: rasterising needs: pip install pillow") from error
    except pypdfium2.PdfiumError as error:
        raise FigureFileError(f"{name}: not a readable PDF ({error})") from error
    finally:
        document.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def stage_markers(transcript: str) -> set[str]:
    """The distinct stage markers in a transcript (lower-cased)."""
    return {
        next(group for group in match.groups() if group).lower()
        for match in STAGE_MARKERS.finditer(transcript)
    }


def frozen_kinds(transcript: str) -> dict[str, str | None]:
    """For the five frozen kinds: the evidence found in the transcript, or None."""
    evidence: dict[str, str | None] = {}
    for kind, pattern in KIND_PATTERNS.items():
        match = pattern.search(transcript)
        evidence[kind] = match.group(0).strip() if match else None
    stages = sorted(stage_markers(transcript))
    evidence["enumerated stages"] = ", ".join(stages) if len(stages) >= 2 else None
    return evidence


def parse_yes_no(answer: str) -> bool | None:
    """The first "yes" or "no" in an answer, or None."""
    match = _YES_NO.search(answer)
    return None if match is None else match.group(1).lower() == "yes"


def experimental_votes(transcript: str, models: ModelSet) -> tuple[bool | None, ...]:
    messages = [
        {"role": "user", "content": EXPERIMENTAL_QUESTION.format(transcript=transcript)},
    ]
    return tuple(parse_yes_no(models.chat(messages, run=run, max_tokens=4)) for run in range(RUNS))


@register(NAME)
class FigureExposition(ModelMeasure):
    plane = PLANE
    summary = "kinds of exposition (of 6) the method figure carries beyond its steps"
    unit_name = UNIT
    models = ("vision", "labeller")
    not_run_on = (FigureFileError,)

    def measured(self, document: Document, models: ModelSet) -> MeasureResult:
        figure = method_figure(document)
        if figure is None:
            gate = "overview / pipeline / framework / architecture"
            reason = f"no method figure: no figure caption in the body mentions {gate}"
            return MeasureResult.of(NAME, PLANE, 0, 0, UNIT, reason=reason)
        return _measured(document, figure, models)


def _measured(document: Document, figure: Float, models: ModelSet) -> MeasureResult:
    requests, hits = models.requests, models.hits
    image = figure_image(document, figure)
    transcript = models.transcribe(TRANSCRIBE_PROMPT, image.data, image.media_type)
    evidence = frozen_kinds(transcript)
    votes = experimental_votes(transcript, models)
    experimental = sum(vote is True for vote in votes) * 2 > len(votes)
    evidence["experimental content"] = "judged yes by the labeller" if experimental else None
    present = [kind for kind in KINDS if evidence[kind] is not None]
    detail: dict[str, Any] = {
        "models": models.describe("vision", "labeller"),
        "figure": {"file": image.path, "caption": figure.caption, "labels": list(figure.labels)},
        "transcript": transcript,
        "kinds": {kind: evidence[kind] for kind in KINDS},
        "experimental_content": {
            "how": "a judgement: the labeller model answered a fixed yes/no question about the "
            "transcript, majority of 3 greedy runs; the other five kinds are frozen patterns",
            "runs": list(votes),
        },
        "requests": models.requests - requests,
        "cache_hits": models.hits - hits,
    }
    instances = tuple(_instance(document, figure, kind, evidence[kind]) for kind in present)
    return MeasureResult.of(
        NAME, PLANE, len(present), len(KINDS), UNIT, instances=instances, detail=detail
    )


def _instance(document: Document, figure: Float, kind: str, evidence: str | None) -> Instance:
    repair = (
        f"take the {kind} ({evidence}) out of the method figure and into the text, "
        "keeping the figure to the method's steps and their connections"
    )
    section = heading(document.section(figure.section))
    return Instance(NAME, figure.at, section, f"Figure: {shown_caption(document, figure)}", repair)
