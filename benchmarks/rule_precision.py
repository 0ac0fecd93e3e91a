"""Measured precision of the verbosity rules: real hits, labelled by reviewers.

For every language, `benchmarks/rule_precision/packages.json` pins real packages from
their registries. `sample` runs the rule pack over them with the shipped CLI and keeps,
per rule, up to ``--per-rule`` hits in ``rule_precision/<language>.jsonl``: the labelled
rows that still hit (their line updated), the rows that no longer hit dropped (the
effect of a fix), and seeded random new hits (label null) where a rule has too few. A
reviewer labels each row ``tp`` (a reviewer would clearly flag this line) or ``fp``,
with a one-line reason. The report then gives each rule's precision with its Wilson
interval, and each language's precision of the default pack (and of the pedantic rules
apart), stratified by rule so that a frequent rule weighs as much as it would in a
reviewer's random sample of the language's hits.

    .venv/bin/python benchmarks/rule_precision.py [--json OUT]     # the report
    .venv/bin/python benchmarks/rule_precision.py --write          # the shipped precision.json
    .venv/bin/python benchmarks/rule_precision.py sample --language go [--per-rule 10] [--seed 36]

**Stratified precision.** With hits h_r and labelled sample tp_r of n_r for each rule r
of a set that has labels, P = Σ h_r·(tp_r/n_r) / Σ h_r. Its coverage is the share of the
set's hits whose rule has labels. The 95% interval is the stratified Jeffreys one: each
rule's precision drawn from its Jeffreys posterior Beta(tp_r + ½, n_r − tp_r + ½), the
draws weighted w_r = h_r/Σh and summed, and the 2.5th and 97.5th percentiles of
``DRAWS`` such sums taken (seeded, so the report is reproducible); with one rule it is
that rule's Jeffreys interval (Brown, Cai and DasGupta 2001 recommend it for small n).
As in Jeffreys' interval, the upper bound is 1 when every labelled hit is a true
positive and the lower bound 0 when none is, so a small perfect sample gets a wide lower
tail rather than certainty. Many small perfect strata pull the posterior below the
plug-in P (each Beta's mean is (tp + ½)/(n + 1)); the interval is then widened to hold
P, so its upper bound reads as "at most what was observed". A rule's own interval is
Wilson's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tarfile
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from lang_anchors import CACHE, AnchorUnavailable, log, run
from lang_fidelity import FETCHERS, PACKAGES, Package

from slopmark.code.measure import languages as language_table
from slopmark.code.measure.rules import Rule, load_catalog
from slopmark.code.study.intervals import wilson
from slopmark.errors import BadInput

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "rule_precision"
PACKAGE_FILE = DATA / "packages.json"
SHIPPED = ROOT / "src" / "slopmark" / "code" / "measure" / "rules" / "precision.json"
LANGUAGES = ("python", "javascript", "typescript", "go", "java", "rust")
SETS = ("default", "pedantic")
LABELS = ("tp", "fp", None)
TARGET = 0.80
#: Draws of the stratified Jeffreys interval (module doc): its percentiles move by < 0.01.
DRAWS = 4000


class Hit(NamedTuple):
    """One rule hit in a package, where a reviewer finds it."""

    rule: str
    package: str
    path: str
    line: int
    text: str


# --- packages and hits ----------------------------------------------------------------


def fetch_pypi(package: Package) -> Path:
    """The unpacked source distribution of a PyPI package (``pip download`` of the sdist)."""
    target = PACKAGES / "pypi" / package.label
    if not target.is_dir():
        downloads = PACKAGES / "pypi" / "sdists"
        run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--no-binary", ":all:", "-d", str(downloads), f"{package.name}=={package.version}"],
            "pip download",
        )  # fmt: skip
        _unpack(_sdist(downloads, package), target)
    tops = [p for p in target.iterdir() if p.is_dir()]
    return tops[0] if len(tops) == 1 else target


def _sdist(downloads: Path, package: Package) -> Path:
    """The downloaded sdist of ``package`` (names normalise ``-`` to ``_`` since PEP 625)."""
    stems = {package.name.lower(), package.name.lower().replace("-", "_")}
    for path in downloads.iterdir():
        name = path.name.lower()
        if any(name.startswith(f"{stem}-{package.version}.") for stem in stems):
            return path
    raise AnchorUnavailable(f"pip download: no sdist of {package.label} in {downloads}")


def _unpack(archive: Path, target: Path) -> None:
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as opened:
            opened.extractall(target)
    else:
        with tarfile.open(archive) as opened:
            opened.extractall(target, filter="data")


ALL_FETCHERS = {**FETCHERS, "pypi": fetch_pypi}


def package_id(package: Package) -> str:
    return f"{package.manager}:{package.name}@{package.version}"


def load_packages(path: Path = PACKAGE_FILE) -> dict[str, list[Package]]:
    """The pinned packages of every language in ``packages.json``."""
    listed = json.loads(path.read_text(encoding="utf-8"))
    for language, entries in listed.items():
        for entry in entries:
            if entry.get("manager") not in ALL_FETCHERS:
                raise BadInput(
                    f"{path}: {language}: manager {entry.get('manager')!r} of "
                    f"{entry.get('name')!r} is not one of {', '.join(ALL_FETCHERS)}; fix the entry"
                )
    return {
        language: [Package(language, p["manager"], p["name"], p["version"], p.get("folder", ""))
                   for p in entries]
        for language, entries in listed.items()
    }  # fmt: skip


def package_hits(package: Package) -> list[Hit]:
    """Every hit of the pack on ``package``'s files of its language, as `code measure
    --json` reports them (the same library and rules a user runs)."""
    source = ALL_FETCHERS[package.manager](package)
    tree = source / package.folder if package.folder else source
    _level_pom(tree, package_levels().get(package_id(package)))
    binary = Path(sys.executable).parent / "slopmark"
    argv = [str(binary), "code", "measure", str(tree), "--json", "--language", package.language]
    report = json.loads(run([*argv, *RULES_SET_ARGS], "slopmark code measure", ok=(0, 1)))
    prefix = f"{package.folder.strip('/')}/" if package.folder else ""
    hits = []
    for found in report["files"]:
        lines = _lines(tree / found["path"])
        for hit in found["hits"]:
            text = lines[hit["start"] - 1].strip() if hit["start"] <= len(lines) else ""
            hits.append(
                Hit(hit["rule"], package_id(package), prefix + found["path"], hit["start"], text)
            )
    return hits


def package_levels(path: Path = PACKAGE_FILE) -> dict[str, str]:
    """The Java level each Maven package was published for (``"level"`` in packages.json,
    read from its published pom or build; a source jar carries no build file)."""
    listed = json.loads(path.read_text(encoding="utf-8"))
    return {f"{p['manager']}:{p['name']}@{p['version']}": p["level"]
            for entries in listed.values() for p in entries if "level" in p}  # fmt: skip


def _level_pom(tree: Path, level: str | None) -> None:
    """A minimal pom.xml beside a source jar's files saying the published Java level, so
    that rules with a ``min_level`` count as in the project's own tree
    (`slopmark.code.measure.levels`)."""
    pom = tree / "pom.xml"
    if level is None:
        return
    release = f"<maven.compiler.release>{level}</maven.compiler.release>"
    text = f"<project><properties>{release}</properties></project>\n"
    if not pom.is_file() or pom.read_text(encoding="utf-8") != text:  # a changed level too
        pom.write_text(text, encoding="utf-8")


#: The rule set `sample` runs: every rule, the pedantic ones too (they are measured apart).
RULES_SET_ARGS = ("--rules-set", "pedantic")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def language_rules(language: str, catalog: Sequence[Rule] | None = None) -> dict[str, str]:
    """Rule id → its set, for the rules that run on ``language``'s files."""
    grammars = language_table.grammars_of([language])
    applies = {r for g in language_table.GRAMMARS if g.name in grammars for r in g.rule_languages}
    rules = catalog if catalog is not None else load_catalog(rule_set="pedantic")
    return {r.id: r.rule_set for r in rules if r.language in applies}


# --- sampling -------------------------------------------------------------------------


def _key(row: Mapping[str, Any]) -> tuple[str, str, str, int]:
    return (row["rule"], row["package"], row["path"], row["line"])


def resample(
    rows: Sequence[Mapping[str, Any]], hits: Sequence[Hit], per_rule: int, seed: int
) -> list[dict[str, Any]]:
    """The new sample: rows that still hit (matched by rule, package, path and text, the
    nearest line first; line updated), then seeded random unlabelled hits until each rule
    has ``per_rule`` rows or no more hits. Sorted by (rule, package, path, line)."""
    free: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for hit in hits:
        free[(hit.rule, hit.package, hit.path, hit.text)].append(hit.line)
    kept = [_match(row, free) for row in rows]
    sample = [row for row in kept if row is not None]
    have = Counter(row["rule"] for row in sample)
    left = sorted(Hit(k[0], k[1], k[2], line, k[3]) for k, ls in free.items() for line in ls)
    by_rule: dict[str, list[Hit]] = defaultdict(list)
    for hit in left:
        by_rule[hit.rule].append(hit)
    for rule, candidates in sorted(by_rule.items()):
        drawn = random.Random(f"{seed}:{rule}").sample(candidates, len(candidates))
        sample += [_new_row(hit) for hit in drawn[: max(0, per_rule - have[rule])]]
    return sorted(sample, key=_key)


def _match(
    row: Mapping[str, Any], free: dict[tuple[str, str, str, str], list[int]]
) -> dict[str, Any] | None:
    """``row`` with the line of the nearest current hit of the same text (taken from
    ``free``), or None when it no longer hits."""
    lines = free.get((row["rule"], row["package"], row["path"], row["text"]))
    if not lines:
        return None
    line = min(lines, key=lambda at: (abs(at - row["line"]), at))
    lines.remove(line)
    return {**row, "line": line}


def _new_row(hit: Hit) -> dict[str, Any]:
    return {**hit._asdict(), "label": None, "reason": ""}


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a labels file (none when it does not exist); a bad row is refused
    with its line number."""
    if not path.exists():
        return []
    rows = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text.strip():
            rows.append(_checked(json.loads(text), f"{path}:{number}"))
    return rows


def _checked(row: dict[str, Any], where: str) -> dict[str, Any]:
    missing = {"rule", "package", "path", "line", "text", "label", "reason"} - row.keys()
    if missing:
        raise BadInput(f"{where}: fields {sorted(missing)} are missing; every row needs them")
    if row["label"] not in LABELS:
        raise BadInput(f"{where}: label {row['label']!r} is not tp, fp or null; fix the row")
    return row


def write_rows(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    fields = ("rule", "package", "path", "line", "text", "label", "reason")
    lines = [json.dumps({f: row[f] for f in fields}, ensure_ascii=False) for row in rows]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def sample(language: str, per_rule: int, seed: int) -> None:
    """Fetch the language's packages, run the pack, write its labels file and counts."""
    packages = load_packages().get(language, [])
    if not packages:
        raise BadInput(f"{PACKAGE_FILE}: no packages for {language!r}; add some first")
    hits: list[Hit] = []
    for package in packages:
        log(f"{language}: {package_id(package)}")
        hits += package_hits(package)
    labels = DATA / f"{language}.jsonl"
    rows = resample(read_rows(labels), hits, per_rule, seed)
    write_rows(labels, rows)
    counts = Counter(hit.rule for hit in hits)
    totals = {rule: counts.get(rule, 0) for rule in sorted(language_rules(language))}
    (DATA / f"{language}.counts.json").write_text(json.dumps(totals, indent=1) + "\n")
    log(f"{labels}: {len(rows)} rows, {sum(r['label'] is None for r in rows)} unlabelled")


# --- the report -----------------------------------------------------------------------


@dataclass(frozen=True)
class RuleStats:
    """One rule's hits and labelled sample in one language."""

    rule: str
    rule_set: str
    hits: int
    n: int
    tp: int

    @property
    def precision(self) -> float | None:
        return self.tp / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.tp, self.n)


@dataclass(frozen=True)
class Pooled:
    """A set's stratified precision over the rules with labels (None: no labelled hits)."""

    precision: float | None
    low: float | None
    high: float | None
    #: the share of the set's hits whose rule has labels (None: the set has no hits)
    coverage: float | None
    rules: int
    labelled_rules: int
    n: int


def rule_stats(
    rows: Sequence[Mapping[str, Any]], counts: Mapping[str, int], sets: Mapping[str, str]
) -> list[RuleStats]:
    """Per rule of ``sets``: its hits (``counts``) and its labelled rows' tp and n."""
    n, tp = Counter[str](), Counter[str]()
    for row in rows:
        if row["label"] is not None:
            n[row["rule"]] += 1
            tp[row["rule"]] += row["label"] == "tp"
    return [
        RuleStats(rule, sets[rule], counts.get(rule, 0), n[rule], tp[rule]) for rule in sorted(sets)
    ]


def pooled(stats: Sequence[RuleStats], draws: int = DRAWS) -> Pooled:
    """The stratified precision of ``stats`` with its interval (module doc)."""
    labelled = [s for s in stats if s.n and s.hits]
    total, covered = sum(s.hits for s in stats), sum(s.hits for s in labelled)
    coverage = covered / total if total else None
    n = sum(s.n for s in stats)
    if not covered:
        return Pooled(None, None, None, coverage, len(stats), len(labelled), n)
    estimate = sum(s.hits * s.tp / s.n for s in labelled) / covered
    low, high = jeffreys_stratified(labelled, covered, draws)
    return Pooled(estimate, min(low, estimate), max(high, estimate), coverage, len(stats),
                  len(labelled), n)  # fmt: skip


def jeffreys_stratified(
    labelled: Sequence[RuleStats], covered: int, draws: int
) -> tuple[float, float]:
    """The 95% stratified Jeffreys interval of the rules' hit-weighted precision."""
    rng = random.Random(f"jeffreys:{covered}:{len(labelled)}")
    sums = sorted(
        sum(s.hits * rng.betavariate(s.tp + 0.5, s.n - s.tp + 0.5) for s in labelled) / covered
        for _ in range(draws)
    )
    low, high = sums[int(0.025 * (draws - 1))], sums[int(0.975 * (draws - 1))]
    if all(s.tp == s.n for s in labelled):
        high = 1.0
    if all(s.tp == 0 for s in labelled):
        low = 0.0
    return low, high


def language_report(language: str, sets: Mapping[str, str]) -> dict[str, Any]:
    """One language's per-rule table and its pooled precision per set."""
    rows = read_rows(DATA / f"{language}.jsonl")
    counts_file = DATA / f"{language}.counts.json"
    counts = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    stats = rule_stats(rows, counts, sets)
    return {
        "language": language,
        "unlabelled": sum(row["label"] is None for row in rows),
        "sets": {name: vars(pooled([s for s in stats if s.rule_set == name])) for name in SETS},
        "rules": [_stats_json(s) for s in stats],
    }


def _stats_json(s: RuleStats) -> dict[str, Any]:
    low, high = s.interval or (None, None)
    return {"rule": s.rule, "set": s.rule_set, "hits": s.hits, "n": s.n, "tp": s.tp,
            "precision": s.precision, "low": low, "high": high}  # fmt: skip


def report(catalog: Sequence[Rule]) -> list[dict[str, Any]]:
    return [language_report(lang, language_rules(lang, catalog)) for lang in LANGUAGES]


def shipped_precision(languages: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """precision.json: per labelled rule, its n, tp, hits (summed over the languages it
    runs on: a JavaScript rule also runs on TypeScript) and precision with Wilson's
    interval, rounded to 4 places, sorted by id."""
    n, tp, hits = Counter[str](), Counter[str](), Counter[str]()
    for language in languages:
        for row in language["rules"]:
            n[row["rule"]] += row["n"]
            tp[row["rule"]] += row["tp"]
            hits[row["rule"]] += row["hits"]
    shipped = {}
    for rule in sorted(r for r in n if n[r]):
        low, high = wilson(tp[rule], n[rule]) or (0.0, 1.0)
        share = tp[rule] / n[rule]
        bounds = {"low": round(low, 4), "high": round(high, 4)}
        shipped[rule] = {"n": n[rule], "tp": tp[rule], "precision": round(share, 4), **bounds,
                         "hits": hits[rule]}  # fmt: skip
    return shipped


def shipped_text(shipped: Mapping[str, Any]) -> str:
    return json.dumps(shipped, indent=1, sort_keys=True) + "\n"


def _percent(value: float | None) -> str:
    return f"{value:6.1%}" if value is not None else "     -"


def _pooled_line(name: str, found: Mapping[str, Any]) -> str:
    if found["precision"] is None:
        coverage = _percent(found["coverage"])
        return f"  {name:<9} not measured ({found['rules']} rules, coverage {coverage})"
    verdict = "ok" if found["precision"] >= TARGET else "MISSED"
    return (
        f"  {name:<9} precision {_percent(found['precision'])} "
        f"[{_percent(found['low'])}, {_percent(found['high'])}]  n={found['n']}  "
        f"rules {found['labelled_rules']}/{found['rules']}  coverage "
        f"{_percent(found['coverage'])}  {verdict if name == 'default' else ''}"
    ).rstrip()


def print_report(languages: Sequence[Mapping[str, Any]]) -> None:
    for language in languages:
        print(f"{language['language']}  ({language['unlabelled']} rows unlabelled)")
        for name in SETS:
            print(_pooled_line(name, language["sets"][name]))
        print(f"    {'rule':<40} {'set':<9} {'hits':>6} {'n':>4} {'tp':>4} {'prec':>6}  interval")
        shown = [row for row in language["rules"] if row["hits"] or row["n"]]
        for row in sorted(shown, key=lambda r: (-r["hits"], r["rule"])):
            interval = f"[{_percent(row['low'])}, {_percent(row['high'])}]" if row["n"] else ""
            print(f"    {row['rule']:<40} {row['set']:<9} {row['hits']:>6} {row['n']:>4} "
                  f"{row['tp']:>4} {_percent(row['precision'])}  {interval}")  # fmt: skip
        print(f"    ({len(language['rules']) - len(shown)} rules neither hit nor labelled)\n")


# --- command line ---------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the report as JSON")
    parser.add_argument(
        "--write", action="store_true", help=f"regenerate {SHIPPED.relative_to(ROOT)}"
    )
    commands = parser.add_subparsers(dest="command")
    sampler = commands.add_parser("sample", help="fetch, run the pack, refresh a labels file")
    sampler.add_argument("--language", required=True, choices=LANGUAGES)
    sampler.add_argument("--per-rule", type=int, default=10)
    sampler.add_argument("--seed", type=int, default=36)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    try:
        return run_command(parse_args(argv))
    except BadInput as error:
        log(f"rule_precision: error: {error}")
        return 2


def run_command(args: argparse.Namespace) -> int:
    if args.command == "sample":
        try:
            sample(args.language, args.per_rule, args.seed)
        except AnchorUnavailable as error:
            log(f"cannot sample: {error}")
            return 1
        return 0
    languages = report(load_catalog(rule_set="pedantic"))
    print_report(languages)
    if args.json:
        args.json.write_text(json.dumps(languages, indent=1) + "\n")
    if args.write:
        SHIPPED.write_text(shipped_text(shipped_precision(languages)))
        log(f"wrote {SHIPPED}")
    return 0


if __name__ == "__main__":
    CACHE.mkdir(parents=True, exist_ok=True)
    sys.exit(main())
