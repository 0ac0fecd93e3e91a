"""Sample sizes against scipy/statsmodels numbers, and ``slopmark stats sample-size``.

References in ``reference/sample_size.json`` (see ``reference/make_reference.py``,
which the suite does not run).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clirun import cli_json, run_cli
from slopmark.board.sample_size import (
    margin_sample_size,
    n_for_margin,
    n_for_paired_difference,
    paired_sample_size,
)
from slopmark.errors import BadInput

REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "sample_size.json").read_text(encoding="utf-8")
)


def test_the_seeds_example_needs_171_tasks() -> None:
    assert n_for_margin(0.2, 0.03) == 171


@pytest.mark.parametrize("case", REFERENCE["margin"], ids=lambda c: f"{c['sigma']}/{c['margin']}")
def test_margin_matches_scipy(case: dict[str, Any]) -> None:
    args = (case["sigma"], case["margin"], case["confidence"], case["cluster_size"], case["icc"])
    got = margin_sample_size(*args)
    assert math.isclose(got.exact, case["exact"], rel_tol=1e-12)
    assert got.n == case["n"] == n_for_margin(*args)
    assert got.design_effect == 1 + (case["cluster_size"] - 1) * case["icc"]


@pytest.mark.parametrize("case", REFERENCE["proportion"], ids=lambda c: str(c["margin"]))
def test_margin_matches_statsmodels_for_a_proportion(case: dict[str, Any]) -> None:
    got = margin_sample_size(case["sigma"], case["margin"], case["confidence"])
    assert math.isclose(got.exact, case["exact"], rel_tol=1e-12)


@pytest.mark.parametrize("case", REFERENCE["paired"], ids=lambda c: f"{c['delta']}/{c['power']}")
def test_paired_difference_matches_scipy_and_statsmodels(case: dict[str, Any]) -> None:
    args = (case["delta"], case["sigma_difference"], case["alpha"], case["power"])
    got = paired_sample_size(*args, case["cluster_size"], case["icc"])
    assert math.isclose(got.exact, case["exact"], rel_tol=1e-12)
    # statsmodels' NormalIndPower also counts the far rejection tail: ~1e-6 apart at
    # power 0.8, ~2e-3 at power 0.5 and α = 0.1
    assert math.isclose(got.exact, case["statsmodels"], rel_tol=2e-3)
    assert got.n == case["n"] == n_for_paired_difference(*args, case["cluster_size"], case["icc"])


def test_the_formula_shows_the_numbers() -> None:
    got = margin_sample_size(0.2, 0.03, cluster_size=5, icc=0.25)
    assert got.design_effect == 2.0 and got.n == 342
    assert got.formula == "n = ⌈(z·σ/E)²·(1+(m−1)ρ)⌉ = ⌈(1.95996·0.2/0.03)²·2⌉ = ⌈341.46⌉ = 342"


def test_float_noise_never_adds_a_task() -> None:
    z = margin_sample_size(1.0, 1.0).exact ** 0.5
    for target in (100, 171, 1000, 12345):
        sigma = math.sqrt(target) / z  # (z·σ/E)² is exactly the target in real numbers
        assert n_for_margin(sigma, 1.0) == target


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: n_for_margin(0.0, 0.03), "sigma=0.0"),
        (lambda: n_for_margin(-0.2, 0.03), "sigma=-0.2"),
        (lambda: n_for_margin(0.2, 0.0), "margin=0.0"),
        (lambda: n_for_margin(0.2, 0.03, confidence=1.5), "confidence=1.5"),
        (lambda: n_for_margin(0.2, 0.03, cluster_size=0.5), "cluster_size=0.5"),
        (lambda: n_for_margin(0.2, 0.03, cluster_size=4, icc=1.2), "icc=1.2"),
        (lambda: n_for_margin(0.2, 0.03, cluster_size=4, icc=-0.1), "icc=-0.1"),
        (lambda: n_for_paired_difference(0.0, 0.2), "delta=0.0"),
        (lambda: n_for_paired_difference(0.05, -1.0), "sigma_difference=-1.0"),
        (lambda: n_for_paired_difference(0.05, 0.2, power=1.0), "power=1.0"),
        (lambda: n_for_paired_difference(0.05, 0.2, alpha=0.0), "alpha=0.0"),
    ],
)
def test_bad_values_are_bad_input_naming_the_value(call: Any, fragment: str) -> None:
    with pytest.raises(BadInput, match=fragment):
        call()


_positive = st.floats(min_value=0.01, max_value=5.0)


@settings(max_examples=100, deadline=None)
@given(sigma=_positive, margin=_positive, m=st.floats(1.0, 50.0), icc=st.floats(0.0, 1.0))
def test_more_spread_or_clustering_never_needs_fewer_tasks(
    sigma: float, margin: float, m: float, icc: float
) -> None:
    base = n_for_margin(sigma, margin)
    assert base >= 1
    assert n_for_margin(sigma * 1.5, margin) >= base
    assert n_for_margin(sigma, margin * 1.5) <= base
    assert n_for_margin(sigma, margin, cluster_size=m, icc=icc) >= base
    assert n_for_margin(sigma, margin, confidence=0.99) >= base


# --- the CLI, run as a user would --------------------------------------------------------


@pytest.mark.slow
def test_cli_prints_n_and_the_formula() -> None:
    done = run_cli("stats", "sample-size", "--sigma", "0.2", "--margin", "0.03")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "n = 171 tasks for a ±0.03 margin at 95% confidence"
    assert "n = ⌈(z·σ/E)²·(1+(m−1)ρ)⌉" in done.stdout and "⌈170.73⌉ = 171" in done.stdout


@pytest.mark.slow
def test_cli_json_with_clusters_and_a_paired_difference() -> None:
    flags = ["--sigma", "0.2", "--margin", "0.03", "--cluster-size", "5", "--icc", "0.25"]
    data = cli_json("stats", "sample-size", *flags, "--detect", "0.05", "--sigma-diff", "0.2")
    assert data["margin"]["n"] == 342 and data["margin"]["design_effect"] == 2.0
    assert data["paired"]["n"] == n_for_paired_difference(0.05, 0.2, cluster_size=5, icc=0.25)
    assert data["settings"]["power"] == 0.8


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [
        (["--sigma", "-0.2", "--margin", "0.03"], "sigma=-0.2"),
        (["--sigma", "0.2", "--margin", "0"], "margin=0.0"),
        (["--sigma", "0.2", "--margin", "0.03", "--cluster-size", "5", "--icc", "1.5"], "icc=1.5"),
        (
            ["--sigma", "0.2", "--margin", "0.03", "--cluster-size", "0", "--icc", "0.1"],
            "cluster_size=0.0",
        ),
        (["--detect", "0.05"], "--detect 0.05: needs --sigma-diff"),
        (["--sigma", "0.2"], "--sigma and --margin go together"),
        ([], "give --sigma and --margin"),
    ],
)
@pytest.mark.slow
def test_cli_bad_values_exit_2_naming_the_value(flags: list[str], fragment: str) -> None:
    done = run_cli("stats", "sample-size", *flags)
    assert done.returncode == 2
    assert fragment in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("command", [["stats"], ["stats", "sample-size"]])
@pytest.mark.slow
def test_the_commands_have_help(command: list[str]) -> None:
    done = run_cli(*command, "--help")
    assert done.returncode == 0 and "Usage" in done.stdout
    assert "--sigma" in done.stdout or "sample-size" in done.stdout
