"""``slopmark stats``: sample sizes for a benchmark's task pool."""

from __future__ import annotations

from dataclasses import asdict

import typer

from slopmark.board.sample_size import SampleSize, margin_sample_size, paired_sample_size
from slopmark.cli.output import print_json
from slopmark.errors import BadInput
from slopmark.plurals import count

app = typer.Typer(help="Statistics: how many tasks a benchmark needs.")


@app.callback()
def stats() -> None:
    """Statistics: how many tasks a benchmark needs."""


def _margin(
    sigma: float | None, margin: float | None, confidence: float, m: float, icc: float
) -> SampleSize | None:
    if sigma is None and margin is None:
        return None
    if sigma is None or margin is None:
        raise BadInput(
            "--sigma and --margin go together: give both, e.g. --sigma 0.2 --margin 0.03"
        )
    return margin_sample_size(sigma, margin, confidence, m, icc)


def _paired(
    detect: float | None, sigma_diff: float | None, alpha: float, power: float, m: float, icc: float
) -> SampleSize | None:
    if detect is None:
        return None
    if sigma_diff is None:
        raise BadInput(
            f"--detect {detect}: needs --sigma-diff, the SD of per-task differences A − B "
            "(σ·√2 when the two models are uncorrelated)"
        )
    return paired_sample_size(detect, sigma_diff, alpha, power, m, icc)


def _check_pairs(
    cluster_size: float | None, icc: float | None, detect: float | None, others: dict[str, object]
) -> None:
    """Refuse an option that would be silently ignored without its partner."""
    if icc is not None and cluster_size is None:
        raise BadInput(
            f"--icc {icc}: needs --cluster-size, the tasks per template "
            "(with one task per template the correlation changes nothing)"
        )
    if cluster_size is not None and icc is None:
        raise BadInput(
            f"--cluster-size {cluster_size}: needs --icc, the intra-template correlation "
            "(with none, clustering changes nothing)"
        )
    for name, value in others.items():
        if value is not None and detect is None:
            raise BadInput(f"{name} {value}: only the paired difference uses it; add --detect")


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


@app.command("sample-size")
def sample_size(
    sigma: float | None = typer.Option(None, "--sigma", help="SD of one task's score."),
    margin: float | None = typer.Option(None, "--margin", help="Half-width of the interval."),
    confidence: float = typer.Option(0.95, "--confidence", help="Confidence level (1 − α)."),
    cluster_size: float | None = typer.Option(
        None, "--cluster-size", help="Tasks per template (m); give it with --icc."
    ),
    icc: float | None = typer.Option(
        None, "--icc", help="Intra-template correlation ρ in [0, 1]; give it with --cluster-size."
    ),
    detect: float | None = typer.Option(None, "--detect", help="Paired difference δ to detect."),
    sigma_diff: float | None = typer.Option(None, "--sigma-diff", help="SD of differences A − B."),
    power: float | None = typer.Option(
        None, "--power", help="Power of the paired test (default 0.8)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Tasks needed for a margin of error (n = ⌈(z·σ/E)²·(1+(m−1)ρ)⌉) or a paired difference."""
    if sigma is None and margin is None and detect is None:
        raise BadInput("give --sigma and --margin, or --detect and --sigma-diff (or both)")
    if not 0.0 < confidence < 1.0:
        raise BadInput(f"--confidence {confidence}: must be between 0 and 1, e.g. 0.95")
    _check_pairs(cluster_size, icc, detect, {"--power": power, "--sigma-diff": sigma_diff})
    m, rho, power = _or(cluster_size, 1.0), _or(icc, 0.0), _or(power, 0.8)
    results = {
        "margin": _margin(sigma, margin, confidence, m, rho),
        "paired": _paired(detect, sigma_diff, 1.0 - confidence, power, m, rho),
    }
    settings = {"sigma": sigma, "margin": margin, "confidence": confidence, "power": power}
    settings |= {"cluster_size": m, "icc": rho, "detect": detect, "sigma_diff": sigma_diff}
    if as_json:
        found = {name: None if r is None else asdict(r) for name, r in results.items()}
        print_json({"settings": settings, **found})
    else:
        _print_text(results, settings)


def _print_text(results: dict[str, SampleSize | None], settings: dict[str, float | None]) -> None:
    confidence, power = settings["confidence"] or 0.95, settings["power"]
    headings = {
        "margin": f"for a ±{settings['margin']} margin at {confidence:.0%} confidence",
        "paired": f"to detect a paired difference of {settings['detect']} with power {power} "
        f"at α = {1.0 - confidence:.3g}",
    }
    for name, result in results.items():
        if result is not None:
            print(f"n = {count(result.n, 'task')} {headings[name]}\n  {result.formula}")
