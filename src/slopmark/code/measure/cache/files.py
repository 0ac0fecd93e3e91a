"""File versions → analyses, through the content cache (adapter).

A `Version` is one file's content as a command meets it: a file on disk, a git blob or
bytes in hand. The `Analyzer` finds each version's content digest (the cache's stat
index or blob table first, else by reading it), takes the results the cache holds and
hands only the rest to the native core (`Engine`), whose results it then stores. An
analysis is stored without its path, so a renamed or copied file is a hit too.

Without a cache the files go straight to the engine, exactly as `Engine` measures them.
"""

from __future__ import annotations

import marshal
import os
import posixpath
from collections.abc import Callable as Callable_
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol

from slopmark import __version__, _core
from slopmark.code.measure.cache.store import (
    ResultCache,
    StatKey,
    content_digest,
    now_ns,
    profile_digest,
    result_key,
    seal,
    unseal,
)
from slopmark.code.measure.discovery import MAX_FILE_BYTES
from slopmark.code.measure.fileanalysis import (
    MIN_CLONE_SLOC,
    Callable,
    FileAnalysis,
    Fingerprint,
    Skipped,
)
from slopmark.code.measure.hits import RuleHit
from slopmark.code.measure.languages import grammar_of, rule_targets
from slopmark.code.measure.native import DEFAULT_GRAMMAR, Each, Engine, Outcome, Progress
from slopmark.code.measure.rules import Rule
from slopmark.regular import Unreadable, read_stat


class BlobSource(Protocol):
    """Where git blobs are read (`slopmark.code.measure.git.Repository`)."""

    def blobs(self, blobs: list[str]) -> Iterator[tuple[str, bytes]]: ...


@dataclass(slots=True)
class Version:
    """One file's content to analyse; ``path`` names it in reports. Exactly one of
    ``location`` (a file on disk), ``oid`` (a git blob) or ``data`` is given."""

    path: str
    location: str | None = None
    oid: str | None = None
    data: bytes | None = None
    digest: bytes | None = None
    #: why the content could not be read
    error: str | None = None
    #: the suffix that names the file's language, when ``path`` does not end with it
    suffix: str | None = None


class Analyzer:
    """The engine behind the cache (``cache`` None: no cache, every file analysed); a file
    on disk is read only when it is a regular file of at most ``max_file_bytes``."""

    def __init__(
        self,
        rules: Sequence[Rule],
        jobs: int = 0,
        cache: ResultCache | None = None,
        blobs: BlobSource | None = None,
        max_file_bytes: int = MAX_FILE_BYTES,
    ) -> None:
        self.rules = tuple(rules)
        self.jobs = jobs
        self.max_file_bytes = max_file_bytes
        self.cache = cache if cache is not None and cache.off is None else None
        self.blob_source = blobs
        self._engine: Engine | None = None
        #: files this analyzer handed to the engine (the rest came from the cache)
        self.analysed = 0
        #: what decides a result besides the content (see `engine_profile`): the whole
        #: pack's, and each grammar's (only the rules that run on a file decide its result)
        self.profile = engine_profile(self.rules, max_file_bytes) if self.cache is not None else b""
        self._profiles: dict[str, bytes] = {}

    @property
    def engine(self) -> Engine:
        """Built on first use: a warm run compiles no rule pack."""
        if self._engine is None:
            self._engine = Engine(self.rules, self.jobs, self.max_file_bytes)
        return self._engine

    def analyze(
        self,
        versions: Sequence[Version],
        progress: Progress | None = None,
        each: Each | None = None,
    ) -> list[Outcome]:
        """Each version's outcome, in order; ``each`` sees those the engine makes."""
        if self.cache is None and all(v.location and v.data is None for v in versions):
            pairs = [(v.location or "", v.path) for v in versions]
            return self.engine.analyze_paths(pairs, progress, each)
        keys = self.keys(versions)
        outcomes = self._known_outcomes(versions, keys)
        missing = [i for i, o in enumerate(outcomes) if o is None]
        done = len(versions) - len(missing)
        if progress is not None and done:
            progress(done, len(versions))
        shifted = _shifted(progress, done, len(versions))
        fresh = self._analyse([versions[i] for i in missing], shifted, each)
        for index, outcome in zip(missing, fresh, strict=True):
            outcomes[index] = outcome
            self._store(keys[index], outcome)
        if self.cache is not None:
            self.cache.flush()
        return [o for o in outcomes if o is not None]

    def _known_outcomes(
        self, versions: Sequence[Version], keys: Sequence[bytes | None]
    ) -> list[Outcome | None]:
        """Each version's outcome the cache holds, or why it cannot be read (its bytes
        read here otherwise); None where the engine has to analyse it."""
        stored = self.cache.results([k for k in keys if k]) if self.cache else {}
        outcomes = [
            decode(v.path, stored[k]) if k in stored else None
            for v, k in zip(versions, keys, strict=True)
        ]
        self.read([v for v, o in zip(versions, outcomes, strict=True) if o is None])
        return [
            Skipped(v.path, v.error or "unreadable") if o is None and v.data is None else o
            for v, o in zip(versions, outcomes, strict=True)
        ]

    def _analyse(
        self, versions: Sequence[Version], progress: Progress | None, each: Each | None = None
    ) -> list[Outcome]:
        """The engine's outcomes for ``versions`` (their bytes read already)."""
        self.analysed += len(versions)
        if not versions:
            return []
        sources = [(v.data or b"", v.path) for v in versions]
        return self.engine.analyze_sources(sources, progress, each)

    def _store(self, key: bytes | None, outcome: Outcome) -> None:
        """Keep an outcome: an analysis, or why the engine left the content out (a syntax
        error is one on every run: a warm run need not compile the rule pack for it)."""
        if key is None or self.cache is None:
            return
        payload = encode(outcome)
        if payload is not None:
            self.cache.put_result(key, seal(payload))

    def digests(self, versions: Sequence[Version]) -> None:
        """Set each version's content digest (read from the cache's indexes when it can)."""
        self._known_digests(versions)
        self.read([v for v in versions if v.digest is None])

    def keys(self, versions: Sequence[Version]) -> list[bytes | None]:
        """Each version's result key (None without a cache, or when its content could not
        be read)."""
        self.digests(versions)
        return [self._key(v) for v in versions]

    def _key(self, version: Version) -> bytes | None:
        if self.cache is None or version.digest is None:
            return None
        suffix = (version.suffix or posixpath.splitext(version.path)[1]).lower()
        return result_key(self._grammar_profile(suffix), suffix, version.digest)

    def _grammar_profile(self, suffix: str) -> bytes:
        """The profile of the rules that run on files with ``suffix`` (so `measure`, which
        compiles only the rules of the languages present, shares entries with `diff`)."""
        grammar = grammar_of("file" + suffix) or DEFAULT_GRAMMAR
        if grammar not in self._profiles:
            rules = [r for r in self.rules if grammar in rule_targets(r.language)]
            self._profiles[grammar] = engine_profile(rules, self.max_file_bytes)
        return self._profiles[grammar]

    def _known_digests(self, versions: Sequence[Version]) -> None:
        if self.cache is None:
            return
        on_disk = {
            os.path.abspath(v.location): v
            for v in versions
            if v.digest is None and v.location is not None
        }
        for path, (stat, digest) in self.cache.stat_digests(list(on_disk)).items():
            if stat == _stat(path):
                on_disk[path].digest = digest
        blobs = [v for v in versions if v.digest is None and v.oid is not None]
        found = self.cache.blob_digests([v.oid or "" for v in blobs])
        for version in blobs:
            version.digest = found.get(version.oid or "")

    def read(self, versions: Sequence[Version]) -> None:
        """Read each version's bytes and digest (``error`` says why one cannot be read)."""
        oids = [v.oid for v in versions if v.data is None and v.oid is not None]
        if oids and self.blob_source is not None:
            read = dict(self.blob_source.blobs(sorted(set(oids))))
            for version in versions:
                if version.oid in read:
                    version.data = read[version.oid]
                    version.digest = content_digest(version.data)
                    if self.cache is not None:
                        self.cache.put_blob(version.oid, version.digest)
        for version in versions:
            if version.data is None and version.location is not None:
                self._read_file(version)
            elif version.data is None and version.error is None:
                version.error = f"unreadable: git object {version.oid} could not be read"
            elif version.data is not None and version.digest is None:
                version.digest = content_digest(version.data)

    def _read_file(self, version: Version) -> None:
        """Its bytes, when it is still a regular file within the limit (the walk said it
        was; a file swapped for a FIFO, a device or a symlink since is not read)."""
        location = version.location or ""
        started = now_ns()
        try:
            data, found = read_stat(location, self.max_file_bytes, follow=False)
        except Unreadable as error:
            version.error = error.reason
            return
        stat = StatKey.of(found)
        version.data, version.digest = data, content_digest(data)
        if self.cache is not None:
            self.cache.put_stat(os.path.abspath(location), stat, version.digest, started)


def _shifted(progress: Progress | None, done: int, total: int) -> Progress | None:
    if progress is None:
        return None
    return lambda n, _: progress(done + n, total)


def _stat(location: str) -> StatKey | None:
    try:
        return StatKey.of(os.stat(location))
    except OSError:
        return None


# what decides a result, besides the content ----------------------------------------------


def engine_profile(rules: Sequence[Rule], max_file_bytes: int = _core.MAX_FILE_BYTES) -> bytes:
    """Digest of slopmark's version, the core's build, the entry shape, the size limit (a
    limit past the default lifts the core's parse budget) and the rule pack (each rule's
    set too: the same rule in the paper set and the default set keys apart)."""
    parts: list[bytes | str] = [__version__, _core.__version__, _core_build(), _shape()]
    parts.extend((str(MIN_CLONE_SLOC), str(max_file_bytes)))
    for rule in rules:
        parts.extend((rule.id, rule.yaml_text, rule.message, rule.severity, rule.rule_set))
    return profile_digest(parts)


def _core_build() -> str:
    """The native extension's file identity (size, modification time, inode): a rebuilt
    core never reuses old results, and no run reads the whole library to know it."""
    location = getattr(_core, "__file__", None)
    if not location:
        return ""
    found = os.stat(location)
    return f"{found.st_size}:{found.st_mtime_ns}:{found.st_ino}"


def _shape() -> str:
    names = [(FileAnalysis.__name__, [f.name for f in fields(FileAnalysis)])]
    names.extend((c.__name__, list(c._fields)) for c in (Callable, Fingerprint, RuleHit))
    return ";".join(f"{name}:{','.join(fields_)}" for name, fields_ in names)


# entries ------------------------------------------------------------------------------

#: The named tuples an analysis holds, by field (stored as plain tuples).
_NESTED: dict[str, Callable_[[Any], Any]] = {
    "callables": Callable._make,
    "fingerprints": Fingerprint._make,
}
_FIELDS = tuple(f.name for f in fields(FileAnalysis) if f.name != "path")


#: The first item of a stored `Skipped` (an analysis's first item is never a string).
_SKIPPED = "skipped"


def encode(analysis: Outcome) -> bytes | None:
    """An outcome without its path, as marshal data (None: a field it cannot hold)."""
    if isinstance(analysis, Skipped):
        return marshal.dumps((_SKIPPED, analysis.reason))
    values: list[Any] = []
    for name in _FIELDS:
        value = getattr(analysis, name)
        if name in _NESTED:
            value = tuple(map(tuple, value))
        elif name == "hits":
            value = tuple((h.rule, h.start, h.end, h.message, h.severity) for h in value)
        values.append(value)
    try:
        return marshal.dumps(tuple(values))
    except ValueError:
        return None


def decode(path: str, entry: object) -> Outcome | None:
    """The stored outcome as the file at ``path`` (None: corrupt or foreign entry)."""
    payload = unseal(entry)
    if payload is None:
        return None
    try:
        values = marshal.loads(payload)
        if isinstance(values, tuple) and len(values) == 2 and values[0] == _SKIPPED:
            return Skipped(path, str(values[1]))
        return _build(path, values)
    except (ValueError, EOFError, TypeError):
        return None


def _build(path: str, values: tuple[Any, ...]) -> FileAnalysis:
    if not isinstance(values, tuple) or len(values) != len(_FIELDS):
        raise ValueError("entry shape")
    given: dict[str, Any] = {"path": path}
    for name, value in zip(_FIELDS, values, strict=True):
        if name in _NESTED:
            value = tuple(map(_NESTED[name], value))
        elif name == "hits":
            value = tuple(RuleHit(r, path, s, e, m, sev) for r, s, e, m, sev in value)
        given[name] = value
    return FileAnalysis(**given)
