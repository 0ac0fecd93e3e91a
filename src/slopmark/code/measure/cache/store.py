"""The content cache of per-file results (adapter: one SQLite file on disk).

A measured file's analysis is kept under a key made of its content's SHA-256 and a
*profile*: the format of this cache, slopmark's version, the native core's build, the
rule pack's texts, the clone settings and the file's suffix (its language). A result is
thus reused only when nothing that decides it has changed, whatever the file's path or
the command that measured it (`measure`, `history`, `diff`, the bench's quality step).

Two side tables avoid reading files that were already hashed: a stat index like git's
(absolute path, size, mtime, ctime, inode → content digest) for files on disk, and git
object id → content digest for blobs. A stat entry is trusted only when the file had not
been modified for `RACY_NS` before it was hashed (git's "racily clean" problem).

Writes go into one transaction at the end of a run, so two runs sharing the folder
never see half an entry (SQLite's locking; WAL journal). Every entry carries a checksum:
a corrupt or foreign one reads as a miss and is rewritten. A database SQLite finds
corrupt (when it is opened or on any later read or write) is deleted and started anew,
once a run, with one note. A folder that cannot be written (read-only, full) turns the
cache off for the run with its reason, and the measurement goes on without it.

The cache is never opened through a symlink, and a SQLite database that is not a
slopmark cache (another `APPLICATION_ID`, or tables that are not ours) is left
untouched: the cache is off for the run and says why.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Bump when the layout of the tables or of an entry changes.
FORMAT = 1
FILE_NAME = f"code-v{FORMAT}.sqlite3"
#: The database and the files SQLite keeps beside it.
FILE_NAMES = (FILE_NAME, f"{FILE_NAME}-wal", f"{FILE_NAME}-shm", f"{FILE_NAME}-journal")
#: ``PRAGMA application_id`` of a slopmark cache (the bytes ``slpm``).
APPLICATION_ID = 0x736C706D
#: A file modified less than this before it was hashed is hashed again next time.
RACY_NS = 2_000_000_000
#: Seconds a run waits for another run's write transaction.
BUSY_TIMEOUT = 30.0
#: Seconds between two tries of the switch to WAL mode (see `_use_wal`).
WAL_RETRY_SECONDS = 0.01
#: Keys per SELECT (well under SQLite's bound on host parameters).
CHUNK = 500

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS results (key BLOB PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS stats (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER,"
    " ctime_ns INTEGER, ino INTEGER, digest BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS blobs (oid TEXT PRIMARY KEY, digest BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS trees (key BLOB PRIMARY KEY, value BLOB NOT NULL,"
    " used INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS catalogs (key BLOB PRIMARY KEY, value BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS reports (key BLOB PRIMARY KEY, value BLOB NOT NULL)",
    # apart from the reports: marking one used does not rewrite its megabytes
    "CREATE TABLE IF NOT EXISTS report_uses (key BLOB PRIMARY KEY, used INTEGER NOT NULL)"
    " WITHOUT ROWID",
)
#: Our tables: a database without our `APPLICATION_ID` is adopted only when it holds no others
#: (a cache written before the id was set).
TABLES = frozenset(("results", "stats", "blobs", "trees", "catalogs", "reports", "report_uses"))
#: Tree summaries kept (the most recently used; each is a few MiB for a big tree).
MAX_TREES = 8
#: Parsed rule catalogs kept (the most recently written; see `slopmark.code.measure.cache.rules`).
MAX_CATALOGS = 8
#: Whole tree reports kept (the most recently used; see `slopmark.code.measure.cache.reports`).
MAX_REPORTS = 8


def default_location(environ: Mapping[str, str] = os.environ) -> Path:
    """``$SLOPMARK_CACHE``, else the user's cache folder (XDG, macOS, Windows) + slopmark."""
    if environ.get("SLOPMARK_CACHE"):
        return Path(environ["SLOPMARK_CACHE"])
    home = Path(environ.get("HOME") or Path.home())
    if sys.platform == "win32":
        base = Path(environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
        return base / "slopmark" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "slopmark"
    return Path(environ.get("XDG_CACHE_HOME") or home / ".cache") / "slopmark"


def content_digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


@dataclass(frozen=True, slots=True)
class StatKey:
    """What the file system says about a file; equal keys mean unchanged content."""

    size: int
    mtime_ns: int
    ctime_ns: int
    ino: int

    @classmethod
    def of(cls, result: os.stat_result) -> StatKey:
        return cls(result.st_size, result.st_mtime_ns, result.st_ctime_ns, result.st_ino)


@dataclass
class _Pending:
    results: dict[bytes, bytes] = field(default_factory=dict)
    stats: dict[str, tuple[StatKey, bytes]] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)
    trees: dict[bytes, bytes] = field(default_factory=dict)
    used: set[bytes] = field(default_factory=set)
    catalogs: dict[bytes, bytes] = field(default_factory=dict)
    reports: dict[bytes, bytes] = field(default_factory=dict)
    reports_used: set[bytes] = field(default_factory=set)

    def __bool__(self) -> bool:
        tables = (self.results, self.stats, self.blobs, self.trees, self.used, self.catalogs)
        return any((*tables, self.reports, self.reports_used))


class ResultCache:
    """One cache folder. ``off`` holds why it is not used (None while it works)."""

    def __init__(self, location: Path) -> None:
        self.location = location
        self.off: str | None = None
        self.reopened: str | None = None
        self._pending = _Pending()
        self._db: sqlite3.Connection | None = None
        try:
            self._db = self._connect()
        except (OSError, sqlite3.Error) as error:
            self._turn_off(error)

    @property
    def path(self) -> Path:
        return self.location / FILE_NAME

    def _connect(self) -> sqlite3.Connection | None:
        """The open database; None (with ``off`` saying why) when it must not be used."""
        self.location.mkdir(parents=True, exist_ok=True)
        try:
            self.off = _refusal(self.location)
            return None if self.off else _open(self.path)
        except sqlite3.DatabaseError as error:
            if not _corrupt(error):
                raise
            return self._renew(error)

    def _renew(self, error: sqlite3.DatabaseError) -> sqlite3.Connection:
        """Delete the corrupt database and start a new one in its place (once a run)."""
        if self.reopened is not None:
            raise error
        self.reopened = f"{self.path} was corrupt ({error}); deleted it and started a new cache"
        self._disconnect()
        for name in FILE_NAMES:
            (self.location / name).unlink(missing_ok=True)
        return _open(self.path)

    def _failed(self, error: sqlite3.Error) -> bool:
        """After a failed statement: True when the database was corrupt and is new now,
        else the cache is off."""
        if not (isinstance(error, sqlite3.DatabaseError) and _corrupt(error)):
            self._turn_off(error)
            return False
        try:
            self._db = self._renew(error)
        except (OSError, sqlite3.Error) as again:
            self._turn_off(again)
            return False
        return True

    def _turn_off(self, error: BaseException) -> None:
        reason = getattr(error, "strerror", None) or str(error)
        self.off = f"{self.location}: {reason}"
        self._disconnect()

    def _disconnect(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()

    # reads -------------------------------------------------------------------------

    def results(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        """The stored entries of ``keys`` that exist (checksummed payloads, see `seal`)."""
        rows = self._select("SELECT key, value FROM results WHERE key IN ({})", keys)
        return {k: v for k, v in rows if isinstance(k, bytes) and isinstance(v, bytes)}

    def blob_digests(self, oids: Sequence[str]) -> dict[str, bytes]:
        rows = self._select("SELECT oid, digest FROM blobs WHERE oid IN ({})", oids)
        return {k: v for k, v in rows if isinstance(k, str) and isinstance(v, bytes)}

    def stat_digests(self, paths: Sequence[str]) -> dict[str, tuple[StatKey, bytes]]:
        """Known (stat key, digest) of each absolute path; only entries hashed well after
        their last modification are returned (see `RACY_NS`)."""
        query = "SELECT path, size, mtime_ns, ctime_ns, ino, digest FROM stats WHERE path IN ({})"
        found = {}
        for path, size, mtime, ctime, ino, digest in self._select(query, paths):
            if isinstance(path, str) and isinstance(digest, bytes):
                found[path] = (StatKey(size, mtime, ctime, ino), digest)
        return found

    def tree(self, key: bytes) -> bytes | None:
        """A stored tree summary (`slopmark.code.measure.summary`), marked as used."""
        return self._used_entry("trees", key, self._pending.used)

    def report(self, key: bytes) -> bytes | None:
        """A stored tree report (`slopmark.code.measure.cache.reports`), marked as used."""
        return self._used_entry("reports", key, self._pending.reports_used)

    def _used_entry(self, table: str, key: bytes, used: set[bytes]) -> bytes | None:
        """The value of ``key`` in ``table`` (one of ours), its use noted in ``used``."""
        rows = self._select(f"SELECT key, value FROM {table} WHERE key IN ({{}})", [key])
        if not rows or not isinstance(rows[0][1], bytes):
            return None
        used.add(key)
        return rows[0][1]

    def catalog(self, key: bytes) -> bytes | None:
        """A stored rule catalog (`slopmark.code.measure.cache.rules`)."""
        rows = self._select("SELECT key, value FROM catalogs WHERE key IN ({})", [key])
        return rows[0][1] if rows and isinstance(rows[0][1], bytes) else None

    def _select(self, query: str, keys: Sequence[object]) -> list[tuple[Any, ...]]:
        if self._db is None:
            return []
        rows: list[tuple[Any, ...]] = []
        try:
            for start in range(0, len(keys), CHUNK):
                part = keys[start : start + CHUNK]
                marks = ",".join("?" * len(part))
                rows.extend(self._db.execute(query.format(marks), part))
        except sqlite3.Error as error:
            self._failed(error)  # a new database holds nothing: every key is a miss
            return []
        return rows

    # writes (kept until `flush`) ----------------------------------------------------

    def put_result(self, key: bytes, value: bytes) -> None:
        if self._db is not None:
            self._pending.results[key] = value

    def put_stat(self, path: str, stat: StatKey, digest: bytes, hashed_ns: int) -> None:
        """Remember ``path``'s digest unless it was modified too shortly before hashing."""
        if self._db is not None and stat.mtime_ns + RACY_NS < hashed_ns:
            self._pending.stats[path] = (stat, digest)

    def put_blob(self, oid: str, digest: bytes) -> None:
        if self._db is not None:
            self._pending.blobs[oid] = digest

    def flush(self) -> None:
        """Write what this run learned in one transaction (into a new database when this
        one is corrupt; the cache turns off on any other failure)."""
        pending, self._pending = self._pending, _Pending()
        if self._db is None or not pending:
            return
        try:
            self._write(pending)
        except sqlite3.Error as error:
            if self._failed(error):
                self._pending = pending
                self.flush()

    def _write(self, pending: _Pending) -> None:
        assert self._db is not None
        stats = [(p, *astuple(s), d) for p, (s, d) in pending.stats.items()]
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO results VALUES (?, ?)", pending.results.items()
            )
            self._db.executemany("INSERT OR REPLACE INTO stats VALUES (?,?,?,?,?,?)", stats)
            self._db.executemany(
                "INSERT OR REPLACE INTO blobs VALUES (?, ?)", pending.blobs.items()
            )
            self._write_trees(pending)
            self._write_catalogs(pending)
            self._write_reports(pending)

    def put_tree(self, key: bytes, value: bytes) -> None:
        if self._db is not None:
            self._pending.trees[key] = value

    def _write_trees(self, pending: _Pending) -> None:
        """New tree summaries and the use of old ones; only `MAX_TREES` are kept."""
        if self._db is None or not (pending.trees or pending.used):
            return
        used = now_ns()
        rows = [(key, value, used) for key, value in pending.trees.items()]
        self._db.executemany("INSERT OR REPLACE INTO trees VALUES (?, ?, ?)", rows)
        self._db.executemany("UPDATE trees SET used = ? WHERE key = ?",
                             [(used, key) for key in pending.used])  # fmt: skip
        self._db.execute(
            "DELETE FROM trees WHERE key NOT IN (SELECT key FROM trees ORDER BY used DESC LIMIT ?)",
            (MAX_TREES,),
        )

    def put_report(self, key: bytes, value: bytes) -> None:
        if self._db is not None:
            self._pending.reports[key] = value
            self._pending.reports_used.add(key)

    def _write_reports(self, pending: _Pending) -> None:
        """New tree reports and the use of old ones; only `MAX_REPORTS` are kept."""
        if self._db is None or not pending.reports_used:
            return
        used = now_ns()
        self._db.executemany("INSERT OR REPLACE INTO reports VALUES (?, ?)",
                             pending.reports.items())  # fmt: skip
        self._db.executemany("INSERT OR REPLACE INTO report_uses VALUES (?, ?)",
                             [(key, used) for key in pending.reports_used])  # fmt: skip
        if not pending.reports:
            return
        kept = "SELECT key FROM report_uses ORDER BY used DESC LIMIT ?"
        self._db.execute(f"DELETE FROM report_uses WHERE key NOT IN ({kept})", (MAX_REPORTS,))
        self._db.execute("DELETE FROM reports WHERE key NOT IN (SELECT key FROM report_uses)")

    def put_catalog(self, key: bytes, value: bytes) -> None:
        if self._db is not None:
            self._pending.catalogs[key] = value

    def _write_catalogs(self, pending: _Pending) -> None:
        if self._db is None or not pending.catalogs:
            return
        self._db.executemany(
            "INSERT OR REPLACE INTO catalogs VALUES (?, ?)", pending.catalogs.items()
        )
        self._db.execute(
            "DELETE FROM catalogs WHERE rowid NOT IN"
            " (SELECT rowid FROM catalogs ORDER BY rowid DESC LIMIT ?)",
            (MAX_CATALOGS,),
        )

    def close(self) -> None:
        self.flush()
        self._disconnect()

    def size_on_disk(self) -> int:
        """Bytes of the cache's files (the database and its journal)."""
        names = (FILE_NAME, FILE_NAME + "-wal", FILE_NAME + "-shm")
        return sum(
            (self.location / n).stat().st_size for n in names if (self.location / n).exists()
        )


def astuple(stat: StatKey) -> tuple[int, int, int, int]:
    return stat.size, stat.mtime_ns, stat.ctime_ns, stat.ino


def _open(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
    try:
        _use_wal(db)
        db.execute("PRAGMA synchronous=NORMAL")
        # Transactions that write take the write lock as they begin, waiting for it: one that
        # reads first (the schema's IF NOT EXISTS) and then writes fails at once, without
        # waiting, when another run wrote in between (two runs starting on a new cache).
        db.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA:
            db.execute(statement)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("COMMIT")
        db.isolation_level = "IMMEDIATE"
    except sqlite3.Error:
        db.close()
        raise
    return db


def _refusal(folder: Path) -> str | None:
    """Why the cache in ``folder`` must not be opened: one of its files is a symlink, or
    its database is not a slopmark cache; None when it may be."""
    for name in FILE_NAMES:
        if (folder / name).is_symlink():
            return f"{folder / name} is a symlink; a cache is never opened through one: delete it"
    path = folder / FILE_NAME
    if path.is_file() and path.stat().st_size > 0:
        return _foreign(path)
    return None


def _foreign(path: Path) -> str | None:
    """What shows the database at ``path`` is not a slopmark cache (looked at read-only:
    it is not changed), or None for ours."""
    uri = f"{path.absolute().as_uri()}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT)) as db:
        application, version = (db.execute(f"PRAGMA {p}").fetchone()[0]
                                for p in ("application_id", "user_version"))  # fmt: skip
        listed = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {row[0] for row in listed}
    if application == APPLICATION_ID or (application == version == 0 and tables <= TABLES):
        return None
    found = ", ".join(sorted(tables)) or "none"
    return (
        f"{path} is a SQLite database that is not slopmark's cache (application_id "
        f"{application}, tables: {found}); left untouched: move it away or set SLOPMARK_CACHE"
    )


def _corrupt(error: sqlite3.DatabaseError) -> bool:
    """SQLite found the file corrupt or not a database at all."""
    if isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _use_wal(db: sqlite3.Connection) -> None:
    """Put the database in WAL mode. Unlike other statements the switch does not wait for a
    lock: SQLite answers "database is locked" at once while another run opens a new cache,
    so it is tried again until `BUSY_TIMEOUT`."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_SECONDS)


# entries -------------------------------------------------------------------------------


def seal(payload: bytes) -> bytes:
    """An entry: a checksum of the payload, then the payload."""
    return hashlib.blake2b(payload, digest_size=16).digest() + payload


def unseal(entry: object) -> bytes | None:
    """The payload of a stored entry, or None when it is corrupt or not ours."""
    if not isinstance(entry, bytes) or len(entry) < 16:
        return None
    payload = entry[16:]
    if hashlib.blake2b(payload, digest_size=16).digest() != entry[:16]:
        return None
    return payload


def profile_digest(parts: Iterable[bytes | str]) -> bytes:
    """A digest of everything besides the content that decides a result."""
    digest = hashlib.sha256(f"slopmark-cache-{FORMAT}".encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.digest()


def result_key(profile: bytes, suffix: str, content: bytes) -> bytes:
    return hashlib.blake2b(profile + suffix.encode() + b"\0" + content, digest_size=20).digest()


def now_ns() -> int:
    return time.time_ns()
