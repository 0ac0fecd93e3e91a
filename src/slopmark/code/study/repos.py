"""The REPOS file of a study: one repository per line (a local path or a git URL).

A repository may be followed by its group, ``REPO  group=NAME`` (e.g. a star
tier, ``group=tier1``; NAME of letters, digits, ``.``, ``_``, ``-``, up to 40): the
report gives every statistic per group too. A line without one is in no group,
so a REPOS file written before groups reads as it did.

Blank lines and ``#`` comments (a whole line, or after a space) are skipped.
A local path is taken relative to the file's folder. A URL must use https,
http, ssh, git or file, or the scp form ``user@host:path``; it is cloned by the
worker that measures it. A line that is none of these, holds spaces, starts
with ``-``, is followed by anything but one ``group=NAME``, or repeats an earlier
repository is refused with its line number.

Two lines name the same repository (`same_repository`) when they resolve to
the same folder (a path and its ``file://`` URL; a work tree and its
``.git`` folder) or the same remote: host (and
port) and path alike, whatever the scheme, user or credentials, with a
trailing ``/`` or ``.git`` dropped (``https://host/a/b`` is
``git@host:a/b.git``). Such a REPOS file is refused, naming both lines, before
anything is measured.

Credentials in a URL (``https://user:token@host/r.git``) are used to clone and
nowhere else: the repository is shown, stored and named in messages as
``https://***@host/r.git`` (`redact_credentials`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

from slopmark.errors import BadInput

URL_SCHEMES = ("https", "http", "ssh", "git", "file")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_SCP = re.compile(r"[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/].*")
_TRANSPORT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*::")
_GROUP = re.compile(r"[A-Za-z0-9._-]{1,40}")
#: The user part of a URL (``scheme://user:password@``): up to the last ``@`` before a ``/``
#: (a password may hold a raw ``@`` or a space: too much is hidden rather than too little).
_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)[^/\n]*@")


def redact_credentials(text: str) -> str:
    """``text`` with the user part of every ``scheme://user:password@host`` URL as ``***``."""
    return _USERINFO.sub(r"\1***@", text)


@dataclass(frozen=True)
class RepoEntry:
    """One line of a REPOS file: ``repo`` is an absolute path or a URL without its
    credentials (what is shown and stored); ``url`` is the URL to clone, as written."""

    line: int
    repo: str
    is_url: bool
    url: str = field(default="", repr=False, compare=False)
    #: the line's ``group=NAME`` (None: in no group)
    group: str | None = None


def _strip_comment(text: str) -> str:
    if text.lstrip().startswith("#"):
        return ""
    return re.split(r"\s#", text, maxsplit=1)[0].strip()


#: What makes a line unusable, and what to say about it.
_REFUSED: tuple[tuple[Callable[[str], bool], str], ...] = (
    (lambda text: text.startswith("-"), "starts with '-'; write a path (./-name) or a URL"),
    (lambda text: any(ord(c) < 32 for c in text), "holds a control character"),
    (lambda text: bool(_TRANSPORT.match(text)) and not _SCHEME.match(text),
     "git remote helpers (name::address) are not allowed; give a URL"),
)  # fmt: skip


def _group(fields: list[str]) -> str | None:
    """The group the fields after a repository name (``group=NAME``); ValueError if not one."""
    if not fields:
        return None
    key, equals, name = fields[0].partition("=")
    if len(fields) > 1 or key != "group" or not equals:
        raise ValueError("holds spaces; write one repository per line, then at most group=NAME")
    if not _GROUP.fullmatch(name):
        raise ValueError(f"group {name[:50]!r}: use 1 to 40 letters, digits, '.', '_' or '-'")
    return name


def _entry(folder: Path, number: int, line: str) -> RepoEntry:
    """The repository a non-empty line names; ValueError says why a line is unusable."""
    text, *fields = line.split()
    group = _group(fields)  # first: a line of several words is told as such
    return replace(_repository(folder, number, text), group=group)


def _repository(folder: Path, number: int, text: str) -> RepoEntry:
    """The repository ``text`` names: a path under ``folder`` or a URL."""
    for refused, why in _REFUSED:
        if refused(text):
            raise ValueError(why)
    scheme = _SCHEME.match(text)
    if scheme is None:
        if _SCP.fullmatch(text):
            return RepoEntry(number, text, True, text)
        return RepoEntry(number, str((folder / text).resolve()), False)
    if scheme.group(1).lower() not in URL_SCHEMES:
        known = ", ".join(URL_SCHEMES)
        raise ValueError(f"URL scheme {scheme.group(1)!r} is not one of {known}")
    return RepoEntry(number, redact_credentials(text), True, text)


def same_repository(entry: RepoEntry) -> str:
    """What makes two lines the same repository: a folder's resolved path, or a remote's
    ``host[:port]/path`` without a trailing ``/`` or ``.git``."""
    if not entry.is_url:
        return _folder(Path(entry.repo))
    text = entry.url or entry.repo
    if _SCP.fullmatch(text):
        host, _, where = text.partition("@")[2].partition(":")
        return _remote(host.lower(), where)
    parts = urlsplit(text)
    if parts.scheme.lower() == "file":
        return _folder(Path(unquote(parts.path)).resolve())
    port = f":{parts.port}" if parts.port else ""
    return _remote(f"{(parts.hostname or '').lower()}{port}", parts.path)


def _folder(path: Path) -> str:
    """A work tree's folder for itself or its ``.git`` folder (the same repository)."""
    return str(path.parent if path.name == ".git" else path)


def _remote(host: str, path: str) -> str:
    path = path.strip("/")
    return f"{host}/{path.removesuffix('.git').rstrip('/')}"


def read_repos(path: Path) -> list[RepoEntry]:
    """Every repository ``path`` names, in order; BadInput naming the first bad line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"{path}: cannot read the REPOS file ({error})") from None
    entries: list[RepoEntry] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = _strip_comment(raw)
        if not text:
            continue
        try:
            entry = _entry(path.resolve().parent, number, text)
            key = same_repository(entry)
        except ValueError as error:
            raise BadInput(f"{path}:{number}: {redact_credentials(text)!r} {error}") from None
        if key in seen:
            shown = redact_credentials(text)
            raise BadInput(
                f"{path}:{number}: {shown!r} repeats line {seen[key]} (the same repository: "
                f"{redact_credentials(key)}); list each repository once"
            )
        seen[key] = number
        entries.append(entry)
    if not entries:
        raise BadInput(f"{path}: names no repository; write one path or git URL per line")
    return entries
