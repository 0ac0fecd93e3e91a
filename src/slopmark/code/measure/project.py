"""A measured project's own settings: ``[tool.slopmark]`` of its pyproject.toml (pure).

`code diff` reads the settings of both sides but measures both with the base side's:
the change under review never configures its own measurement
(`slopmark.code.measure.suppressions` reports what it would have changed).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass

from slopmark.code.measure.discovery import excluded
from slopmark.errors import BadInput

#: Where a project keeps its settings, relative to its root.
CONFIG_FILE = "pyproject.toml"


@dataclass(frozen=True)
class ProjectConfig:
    """The settings of one side: where they were read, the file's text (None: no file)
    and its ``exclude`` globs."""

    where: str = CONFIG_FILE
    text: bytes | None = None
    excludes: tuple[str, ...] = ()


def project_config(text: bytes | None, where: str) -> ProjectConfig:
    """The settings in ``text``, a pyproject.toml read from ``where`` (None: no file)."""
    if text is None:
        return ProjectConfig(where)
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        message = f"{where}: not valid TOML: {error}; fix it or remove [tool.slopmark]"
        raise BadInput(message) from None
    tool = data.get("tool")
    section = tool.get("slopmark") if isinstance(tool, dict) else None
    found = section.get("exclude", []) if isinstance(section, dict) else []
    if not isinstance(found, list) or not all(isinstance(e, str) for e in found):
        raise BadInput(f"{where}: [tool.slopmark] exclude must be a list of glob strings")
    return ProjectConfig(where, text, tuple(found))


def hidden_by(path: str, globs: Sequence[str]) -> bool:
    """True when ``globs`` leave the relative posix ``path`` out, as `code measure` does:
    the path, its name, or one of its folders matches a glob."""
    if not globs:
        return False
    parts = path.split("/")
    folders = ("/".join(parts[:end]) for end in range(1, len(parts)))
    return excluded(path, globs) or any(excluded(folder, globs) for folder in folders)
