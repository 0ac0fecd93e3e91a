"""Each paper measure is declared once, on its class; one guard runs model-based ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from slopmark.paper.document import Document
from slopmark.paper.measures import (
    ORDER,
    PLANES,
    MeasureResult,
    ModelMeasure,
    measure_specs,
)
from slopmark.paper.models import Endpoint, ModelCallFailed, ModelSet

EMPTY = Document(
    main="main.tex", files=("main.tex",), title=None, sections=(), labels=(), references=(),
    citations=(), floats=(), environments=(), sentences=(),
)  # fmt: skip


class Probe(ModelMeasure):
    """A model measure made for this test (not registered): it says what it was given."""

    name = "probe"
    plane = "ARGUMENT"
    summary = "a probe"
    unit_name = "probes"
    models = ("labeller", "scorer")
    not_run_on = (LookupError,)

    def __init__(self, failure: Exception | None = None) -> None:
        self.failure = failure

    def measured(self, document: Document, models: ModelSet) -> MeasureResult:
        if self.failure is not None:
            raise self.failure
        return MeasureResult.of(self.name, self.plane, 1, 2, self.unit_name)


def both(tmp_path: Path) -> ModelSet:
    endpoint = Endpoint("http://127.0.0.1:9/v1", "m")
    return ModelSet(labeller=endpoint, scorer=endpoint, cache_dir=tmp_path)


def test_every_spec_is_read_from_its_class() -> None:
    specs = measure_specs()
    assert list(specs) == list(ORDER)
    for name, spec in specs.items():
        kind = spec.build
        assert (spec.name, spec.plane, spec.summary) == (name, kind.plane, kind.summary)
        assert spec.plane in PLANES and spec.summary
        assert spec.needs_model == bool(spec.models) == issubclass(kind, ModelMeasure)
    wanted = {name: spec.models for name, spec in specs.items() if spec.needs_model}
    assert wanted == {
        "argument_graph": ("labeller", "scorer"),
        "figure_exposition": ("vision", "labeller"),
    }


@pytest.mark.parametrize("name", ["argument_graph", "figure_exposition"])
def test_a_registered_model_measure_without_models_is_not_run(name: str) -> None:
    spec = measure_specs()[name]
    result = spec.build().measure(EMPTY, None)
    wanted = " and a ".join(spec.models)
    assert (result.measure, result.plane, result.status, result.score) == (
        name, spec.plane, "not_run", None
    )  # fmt: skip
    assert result.reason == f"needs a {wanted} model: pass --model-config FILE"


def test_the_guard_names_the_missing_role(tmp_path: Path) -> None:
    labeller_only = ModelSet(labeller=Endpoint("http://127.0.0.1:9/v1", "m"), cache_dir=tmp_path)
    result = Probe().measure(EMPTY, labeller_only)
    assert (result.status, result.unit_name) == ("not_run", "probes")
    assert result.reason == labeller_only.missing("scorer")
    assert result.reason is not None and result.reason.startswith("no scorer")


def test_with_every_model_configured_the_measure_runs(tmp_path: Path) -> None:
    result = Probe().measure(EMPTY, both(tmp_path))
    assert (result.status, result.flagged, result.units) == ("ok", 1, 2)


@pytest.mark.parametrize(
    "failure", [ModelCallFailed("labeller model 'm' failed: HTTP 500"), LookupError("no figure")]
)
def test_a_failed_call_or_a_declared_failure_is_not_run(
    failure: Exception, tmp_path: Path
) -> None:
    result = Probe(failure).measure(EMPTY, both(tmp_path))
    assert (result.status, result.reason) == ("not_run", str(failure))


def test_other_errors_are_bugs_and_propagate(tmp_path: Path) -> None:
    with pytest.raises(ZeroDivisionError):
        Probe(ZeroDivisionError("bug")).measure(EMPTY, both(tmp_path))
