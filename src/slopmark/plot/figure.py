"""Chart files: a matplotlib figure (Agg) written as PNG or SVG by the file's suffix.

matplotlib is an optional dependency (``slopmark[plot]``), imported only when
a chart is drawn; without it drawing raises `BadInput` with the install hint.
The suffix is checked first, so a wrong one fails fast, matplotlib or not.

Output is deterministic: the same data gives the same bytes. SVG is written
with a fixed ``svg.hashsalt`` (the ids of clip paths and glyphs), no date
metadata, and text as ``<text>`` elements (``svg.fonttype = none``), so the
labels are searchable; PNG carries no date either. Figures are made without
pyplot (no global figure registry, nothing to close) on an Agg canvas.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slopmark.errors import BadInput

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["FORMATS", "INSTALL_HINT", "chart_file", "chart_format"]

#: file suffix → matplotlib format
FORMATS = {".png": "png", ".svg": "svg"}
INSTALL_HINT = "charts need: pip install 'slopmark[plot]'"
DPI = 100
#: the seed of SVG ids, fixed so that SVG output is byte-identical run to run
SVG_SALT = "slopmark"
_RC = {"svg.hashsalt": SVG_SALT, "svg.fonttype": "none", "font.size": 9.0}


def chart_format(path: Path) -> str:
    """``png`` or ``svg`` from the suffix of ``path``; any other suffix is `BadInput`."""
    found = FORMATS.get(path.suffix.lower())
    if found is None:
        given = f"suffix {path.suffix!r}" if path.suffix else "no suffix"
        raise BadInput(f"{str(path)!r}: a chart is written as .png or .svg, not {given}")
    return found


def _matplotlib() -> tuple[Any, Any, Any]:
    """matplotlib's Figure, Agg canvas and rc_context, imported on first use."""
    try:
        from matplotlib import rc_context
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as error:
        raise BadInput(INSTALL_HINT) from error
    return Figure, FigureCanvasAgg, rc_context


@contextmanager
def chart_file(path: Path, width: int, height: int) -> Iterator[Figure]:
    """A ``width`` × ``height`` pixel figure to draw on, written to ``path`` when the block
    ends without an error (PNG or SVG by suffix, deterministically; see the module doc).

    The block runs under slopmark's chart settings, which matplotlib reads as
    artists are made and when the file is written.
    """
    kind = chart_format(path)
    figure_type, canvas, rc_context = _matplotlib()
    with rc_context(_RC):
        figure: Figure = figure_type(figsize=(width / DPI, height / DPI), dpi=DPI)
        figure.set_layout_engine("constrained")
        canvas(figure)
        yield figure
        _save(figure, path, kind)


def _save(figure: Figure, path: Path, kind: str) -> None:
    metadata: dict[str, Any] = {"Date": None} if kind == "svg" else {"Software": None}
    try:
        figure.savefig(path, format=kind, dpi=DPI, metadata=metadata)
    except OSError as error:
        raise BadInput(f"{str(path)!r}: cannot write the chart: {error}") from error
