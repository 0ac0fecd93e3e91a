"""``slopmark code diff``: what a change adds (and removes), its gates and formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from slopmark.cli.code_options import (
    BASELINE,
    CC_THRESHOLD,
    EXCLUDE,
    JOBS,
    LANGUAGE,
    NO_CACHE,
    RULES_SET,
    SCOPE,
    languages,
    scopes,
    settings,
)
from slopmark.errors import BadInput, CheckFailed

if TYPE_CHECKING:
    from slopmark.code.measure.compare import Change, DiffReport

#: Metrics ``--max-increase`` bounds.
BOUNDED = ("erosion", "verbosity")
#: Findings named in a failed gate's message before "+N more".
NAMED = 3


def parse_fail_on(values: list[str]) -> set[str]:
    from slopmark.code.measure.compare import GATE_KINDS

    kinds = {k.strip() for value in values for k in value.split(",") if k.strip()}
    for kind in sorted(kinds):
        if kind not in GATE_KINDS:
            raise BadInput(f"--fail-on {kind!r}: must be among {', '.join(GATE_KINDS)}")
    return kinds


def parse_bounds(
    option: str, values: list[str], names: tuple[str, ...], example: str
) -> dict[str, float]:
    """``NAME=NUMBER`` values of ``option`` (``names`` allowed) as a mapping."""
    bounds = {}
    for value in values:
        name, _, bound = value.partition("=")
        if name not in names:
            raise BadInput(f"{option} {value!r}: metric must be one of {', '.join(names)}")
        try:
            bounds[name] = float(bound)
        except ValueError:
            raise BadInput(f"{option} {value!r}: bound must be a number, e.g. {example}") from None
    return bounds


def check_link_base(value: str) -> None:
    """The markdown's links start with ``value``: nothing, or an http(s) URL."""
    if value and not value.startswith(("https://", "http://")):
        raise BadInput(
            f"--link-base {value!r}: must be an http(s) URL, e.g. the blob URL of a commit"
        )


def check_report_url(value: str, markdown: Path | None) -> str:
    """``--report-url``: the http(s) page of a stored code report, for ``--markdown``."""
    if markdown is None:
        problem = "only --markdown links to it; add --markdown"
    else:
        problem = "must be an http(s) URL, e.g. http://127.0.0.1:8000/code/1"
    if value and (markdown is None or not value.startswith(("https://", "http://"))):
        raise BadInput(f"--report-url {value!r}: {problem}")
    return value.rstrip("/")


def parse_max_increase(values: list[str]) -> dict[str, float]:
    return parse_bounds("--max-increase", values, BOUNDED, "erosion=0.005")


def _named(change: Change) -> str:
    f = change.finding
    what = f.rule if f.kind == "hit" else "block" if f.kind == "clone" else f.subject
    cc = f", CC {change.after}" if change.after is not None else ""
    return f"`{what}` ({f.path}:{f.start}{cc})"


def gate_failures(report: DiffReport, kinds: set[str], bounds: dict[str, float]) -> list[str]:
    """What failed, one phrase per gate (empty: every gate passed)."""
    failed = []
    for kind in sorted(kinds):
        found = [c for c in report.added if c.kind == kind]
        if found:
            named = ", ".join(_named(c) for c in found[:NAMED])
            more = f" +{len(found) - NAMED} more" if len(found) > NAMED else ""
            failed.append(f"{kind}: {named}{more}")
    for name, bound in bounds.items():
        before, after = report.totals[name]
        if before is not None and after is not None and after - before > bound:
            failed.append(
                f"{name} rose {after - before:+.4f} ({before:.3f} → {after:.3f}) > {bound}"
            )
    return failed


def _read_baseline(path: Path | None) -> frozenset[str] | None:
    if path is None:
        return None
    from slopmark.code.measure.baseline import read_baseline

    return read_baseline(path)


def apply_baseline(report: DiffReport, known: frozenset[str] | None) -> DiffReport:
    """The report without added findings whose fingerprints are ``known`` (a baseline)."""
    if known is None:
        return report
    from dataclasses import replace

    kept = tuple(c for c in report.added if c.finding.fingerprint not in known)
    return replace(report, added=kept, suppressed=len(report.added) - len(kept))


def diff(
    base: str | None = typer.Argument(
        None, help="Base revision (default HEAD), or a folder when HEAD is one too."
    ),
    head: str | None = typer.Argument(
        None, help="Head revision or folder (default: the work tree; the index with --staged)."
    ),
    staged: bool = typer.Option(False, "--staged", help="Compare BASE with the staged files."),
    repo: Path = typer.Option(
        Path("."), "--repo", "-C", help="The git repository (default: here)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the whole comparison as JSON."),
    sarif: Path | None = typer.Option(
        None, "--sarif", help="Write the new findings as SARIF 2.1.0 to this file."
    ),
    markdown: Path | None = typer.Option(
        None, "--markdown", help="Write a pull-request comment (markdown) to this file."
    ),
    link_base: str = typer.Option(
        "",
        "--link-base",
        help="Prefix of the markdown's file links (default: repository-relative).",
    ),
    report_url: str = typer.Option(
        "",
        "--report-url",
        help="The page of the head side's stored code report (`code measure --store`, "
        "served at /code/ID): the markdown links to it and each finding to its rule or table.",
    ),
    fail_on: list[str] = typer.Option(
        [],
        "--fail-on",
        help="Exit 1 on these new findings: "
        "new-complex,cc-rise,new-hits,new-clones,new-suppressions.",
    ),
    max_increase: list[str] = typer.Option(
        [],
        "--max-increase",
        help="Exit 1 when a metric rises more, e.g. erosion=0.005 (repeatable).",
    ),
    top: int = typer.Option(20, "--top", min=0, help="Findings and files listed (0: all)."),
    baseline: Path | None = BASELINE,
    exclude: list[str] = EXCLUDE,
    cc_threshold: int = CC_THRESHOLD,
    jobs: int = JOBS,
    language: list[str] = LANGUAGE,
    scope: list[str] = SCOPE,
    no_cache: bool = NO_CACHE,
    rules_set: str = RULES_SET,
) -> None:
    """What a change adds: new complex callables, CC rises, rule hits, clones, and the
    suppressions it adds to its own measurement (both sides are measured with the base
    side's settings); totals. Changed files are listed by what they added: most new
    findings first, then the largest rise in erosion, then by name."""
    from slopmark.cli.code_cache import close_cache, open_cache
    from slopmark.cli.diff_view import describe, diff_json, diff_markdown, render_diff
    from slopmark.cli.options import none_empty
    from slopmark.cli.output import output_file, print_json, write_file
    from slopmark.cli.progress import progress_bar
    from slopmark.code.measure.cache.rules import cached_catalog
    from slopmark.code.measure.measure_diff import DiffRequest, diff_sides
    from slopmark.code.measure.measure_tree import MeasureOptions

    kinds, bounds = parse_fail_on(fail_on), parse_max_increase(max_increase)
    check_link_base(link_base)
    report_url = check_report_url(report_url, markdown)
    none_empty(exclude, "--exclude")
    chosen, chosen_scopes = languages(language), scopes(scope)
    measured_with = settings(cc_threshold, "sqrt", rules_set)
    for path, option in ((sarif, "--sarif"), (markdown, "--markdown")):
        if path is not None:
            output_file(path, option)
    known = _read_baseline(baseline)  # before any work
    cache = open_cache(no_cache)
    request = DiffRequest(repo, base, head, staged)
    try:
        # measured with, and described in the SARIF
        catalog = cached_catalog(cache, (), measured_with.rule_set)
        options = MeasureOptions(
            excludes=exclude,
            settings=measured_with,
            jobs=jobs,
            languages=chosen,
            scopes=chosen_scopes,
            cache=cache,
            catalog=catalog,
        )
        with progress_bar("measuring") as advance:
            report = apply_baseline(diff_sides(request, options, advance), known)
    finally:
        close_cache(cache)
    words = lambda change: describe(change, report.cc_threshold)  # noqa: E731
    if sarif is not None:
        from slopmark.cli.sarif import diff_sarif

        write_file(sarif, json.dumps(diff_sarif(report, catalog, str(repo), words)), "--sarif")
    if markdown is not None:
        write_file(markdown, diff_markdown(report, top, link_base, report_url), "--markdown")
    if as_json:
        print_json(diff_json(report))
    else:
        from slopmark.cli.tables import sized_console

        render_diff(report, sized_console(), top)
    failed = gate_failures(report, kinds, bounds)
    if failed:
        raise CheckFailed("code diff: " + "; ".join(failed))
