"""Charts as PNG or SVG files (matplotlib, Agg backend, imported only when drawing).

The file's suffix picks the format (``.png`` or ``.svg``; anything else is
`slopmark.errors.BadInput`), and the same data always gives the same SVG
bytes. Without matplotlib, drawing raises `BadInput`:
``charts need: pip install 'slopmark[plot]'``.

- `cost_capability_chart`: a board's pass rate [95% CI] against its average
  cost per run, with the Pareto frontier (``slopmark board plot``);
- `pass_rate_chart`: a board's pass rate [95% CI] per model, drawn instead when
  no model has a known cost (``slopmark board plot``);
- `reliability_chart`: a calibration board's reliability diagrams
  (``slopmark board plot --reliability``);
- `line_chart` and `bar_chart`: named series over labelled x positions, for
  reports (e.g. solve rate and quality by phase);
- `panel_chart`: several panels of lines (`Panel`) in one figure, one legend,
  for comparing runs by phase (``slopmark code bench compare --plot``).
"""

from slopmark.plot.charts import bar_chart, line_chart
from slopmark.plot.costcap import cost_capability_chart
from slopmark.plot.figure import FORMATS, INSTALL_HINT, chart_format
from slopmark.plot.panels import Panel, panel_chart
from slopmark.plot.passrates import pass_rate_chart
from slopmark.plot.reliability import reliability_chart

__all__ = [
    "FORMATS",
    "INSTALL_HINT",
    "Panel",
    "bar_chart",
    "chart_format",
    "cost_capability_chart",
    "line_chart",
    "panel_chart",
    "pass_rate_chart",
    "reliability_chart",
]
