"""The six scientific-slop measures, one module each, and what they share.

Each measure module declares its measure once, on a `DeclaredMeasure` class
(a `ModelMeasure` when it needs models), and registers the class with
``@register("name")``; `measure_specs`
loads the built-in ones and lists them in the paper's order (Table 1), and
`choose_measures` turns a ``--measures`` selection into specs.
"""

from __future__ import annotations

from slopmark.paper.measures.base import (
    ORDER,
    PLANES,
    DeclaredMeasure,
    Instance,
    Measure,
    MeasureResult,
    MeasureSpec,
    ModelMeasure,
    Plane,
    Status,
    choose_measures,
    measure_specs,
    register,
)

__all__ = [
    "ORDER",
    "PLANES",
    "DeclaredMeasure",
    "Instance",
    "Measure",
    "MeasureResult",
    "MeasureSpec",
    "ModelMeasure",
    "Plane",
    "Status",
    "choose_measures",
    "measure_specs",
    "register",
]
