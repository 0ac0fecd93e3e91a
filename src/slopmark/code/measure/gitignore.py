"""``.gitignore`` patterns, matched as git matches them (pure: text in, answers out).

`code measure` on a folder leaves out what the project's ``.gitignore`` files ignore, as
ruff and ripgrep do, so a tree on disk and its commit are measured alike. The syntax is
git's (``git help gitignore``): ``#`` comments, ``!`` negation, a trailing ``/`` for
folders only, a pattern with a ``/`` anywhere but its end anchored to the file's folder,
``*``, ``?``, ``[...]`` within one path component and ``**`` across them. A deeper
``.gitignore`` and a later line win; a file under an ignored folder is never re-included
(the folder is not entered).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pattern:
    """One line of a ``.gitignore``: its text, and how it matches a path relative to the
    file's folder."""

    text: str
    regex: re.Pattern[str]
    negated: bool
    folders_only: bool


def parse(text: str) -> tuple[Pattern, ...]:
    """The patterns of a ``.gitignore`` file's ``text`` (blank lines, comments dropped)."""
    found = []
    for raw in text.splitlines():
        line = _trimmed(raw)
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        body = line[1:] if negated else line
        if body.startswith(("\\#", "\\!")):
            body = body[1:]
        folders_only = body.endswith("/")
        body = body.rstrip("/")
        if body:
            found.append(Pattern(raw.strip(), _regex(body), negated, folders_only))
    return tuple(found)


def _trimmed(line: str) -> str:
    """``line`` without its trailing spaces, unless a backslash escapes the last one."""
    stripped = line.rstrip(" \t\r")
    if stripped.endswith("\\") and len(stripped) < len(line.rstrip("\r")):
        return stripped[:-1] + " "
    return stripped


def _regex(body: str) -> re.Pattern[str]:
    """The regex of a pattern's ``body``: anchored to the file's folder when it holds a
    ``/``, else matching the last components of any path below it."""
    anchored = "/" in body
    body = body.lstrip("/")
    parts = body.split("/")
    pieces = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            pieces.append(".*" if last else "(?:.*/)?")
        else:
            pieces.append(_component(part) + ("" if last else "/"))
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(prefix + "".join(pieces) + r"\Z", re.DOTALL)


def _component(part: str) -> str:
    """One path component's glob as a regex (``*`` and ``?`` never cross a ``/``)."""
    out, index = [], 0
    while index < len(part):
        char = part[index]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (end := part.find("]", index + 2)) != -1:
            inner = part[index + 1 : end]
            inner = "^" + inner[1:] if inner.startswith("!") else inner
            out.append(f"[{inner.replace(chr(92), chr(92) * 2)}]")
            index = end
        elif char == "\\" and index + 1 < len(part):
            index += 1
            out.append(re.escape(part[index]))
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


@dataclass(frozen=True)
class Ignores:
    """The ``.gitignore`` files met on the way down: (folder relative to the root, with a
    trailing ``/`` or empty for the root; its patterns), outermost first."""

    layers: tuple[tuple[str, tuple[Pattern, ...]], ...] = ()

    def below(self, folder: str, patterns: Sequence[Pattern]) -> Ignores:
        """These ignores with the ``.gitignore`` of ``folder`` added (none: unchanged)."""
        return Ignores((*self.layers, (folder, tuple(patterns)))) if patterns else self

    def match(self, path: str, is_folder: bool) -> Pattern | None:
        """The pattern that ignores the relative posix ``path`` (the last that matches,
        deepest file first), None when it is not ignored or a ``!`` line re-includes it."""
        for folder, patterns in reversed(self.layers):
            if not path.startswith(folder):
                continue
            rest = path[len(folder) :]
            for pattern in reversed(patterns):
                if pattern.folders_only and not is_folder:
                    continue
                if pattern.regex.match(rest):
                    return None if pattern.negated else pattern
        return None
