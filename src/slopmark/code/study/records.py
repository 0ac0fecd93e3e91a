"""What a study stores per repository and per sampled commit, and its settings."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from slopmark import __version__
from slopmark.code.measure.languages import LANGUAGES
from slopmark.code.measure.measure_history import Selection
from slopmark.code.measure.measure_tree import MeasureOptions
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.scopes import SCOPES

OK, FAILED = "ok", "failed"


@dataclass(frozen=True)
class StudySettings:
    """How every repository of a study is measured (the paper: a sample of up to 30)."""

    last: int | None = None
    sample: int | None = 30
    seed: int = 0
    cc_threshold: int = 10
    size_term: str = "sqrt"
    timeout_s: float = 600.0
    #: languages measured (`--language`); empty: every language
    languages: tuple[str, ...] = ()
    #: scopes measured (`--scope`); empty: every scope
    scopes: tuple[str, ...] = ()
    #: every reachable commit instead of the first-parent line (``--all-branches``)
    all_branches: bool = False
    #: the rule set (``--rules-set``): the paper's frozen pack, so that a study's numbers
    #: stay comparable with the paper's tables
    rule_set: str = "paper"

    def selection(self) -> Selection:
        return Selection(last=self.last, sample=None if self.last else self.sample,
                         seed=self.seed, all_branches=self.all_branches)  # fmt: skip

    def options(self) -> MeasureOptions:
        """One process per repository: the sweep spreads repositories over the cores."""
        return MeasureOptions(
            settings=Settings(self.cc_threshold, self.size_term, rule_set=self.rule_set),
            jobs=1,
            languages=tuple(self.languages) or LANGUAGES,
            scopes=tuple(self.scopes) or SCOPES,
        )

    def identity(self) -> dict[str, Any]:
        """What makes two studies the same (the time limit does not change a number; every
        language and scope, the default, leaves the identity as it was before they could be
        chosen, so earlier studies resume; so does the paper's rule set, the one they ran)."""
        found = asdict(self)
        del found["timeout_s"]
        for name in ("languages", "scopes"):
            if not found[name]:
                del found[name]
        if found["rule_set"] == "paper":
            del found["rule_set"]
        return found


def study_id(repos_file: Path, settings: StudySettings) -> str:
    """``<REPOS file stem>-<digest>``: the same file and settings name the same study,
    so running the same command again resumes it."""
    identity = {"repos": str(repos_file.resolve()), "slopmark": __version__, **settings.identity()}
    digest = hashlib.blake2b(json.dumps(identity, sort_keys=True).encode(), digest_size=5)
    stem = "".join(c if c.isalnum() or c in "._-" else "-" for c in repos_file.stem)[:40]
    return f"{stem or 'study'}-{digest.hexdigest()}"


@dataclass(frozen=True)
class CommitPoint:
    position: int
    sha: str
    date: str
    subject: str
    files: int
    sloc: int
    callables: int
    complex_callables: int
    erosion: float | None
    verbosity: float | None
    #: mainline, branch or second-root (`slopmark.code.measure.mainline`); None before 0012
    lineage: str | None = None
    #: each scope's files, SLOC, erosion and verbosity, measured apart; None before 0013
    by_scope: dict[str, Any] | None = None
    #: the files ``--language``/``--scope`` left out, by language and by scope (as
    #: ``code history --json``'s ``excluded``); None before 0013
    excluded: dict[str, Any] | None = None


@dataclass(frozen=True)
class RepoRecord:
    """One repository's outcome: its sampled commits (``ok``) or why it ``failed``.

    ``node`` and ``seconds`` say where and how long it was measured; they are
    kept out of reports, which must not depend on where a unit ran.
    """

    repo: str
    line: int
    status: str
    error: str | None = None
    head: str | None = None
    candidates: int | None = None
    blobs_measured: int | None = None
    erosion_slope: float | None = None
    verbosity_slope: float | None = None
    erosion_rose: bool | None = None
    verbosity_rose: bool | None = None
    commits: tuple[CommitPoint, ...] = ()
    node: str | None = None
    seconds: float | None = None
    #: the parentless commits behind HEAD, the first-parent line's root first
    roots: tuple[str, ...] | None = None
