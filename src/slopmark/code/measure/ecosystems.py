"""Which folders and files each ecosystem's own tools leave out, and why (pure).

docs/languages.md ("Discovery") is the user's view. No folder is dropped for its name
alone when real source could live there: a folder is left out when what it is can be
told, and every such exclusion is reported with its reason.

- Installed packages and tool caches (``node_modules``, ``site-packages``, ``.tox``...):
  folders tools create and own; no project names a package so.
- A virtual environment: a folder holding ``pyvenv.cfg`` (venv, virtualenv) or
  ``conda-meta/`` (conda), whatever its name.
- Build output: ``build``/``dist`` beside a Python or npm project file, ``target``
  beside ``Cargo.toml`` or ``pom.xml``, ``build`` beside a Gradle build; a folder named
  ``build`` anywhere else (commons-io's package ``org.apache.commons.io.build``) is source.
- Go: the go tool ignores ``vendor/``, ``testdata/`` and folders or files whose names
  start with ``.`` or ``_`` (``go help packages``); their ``.go`` files are left out.

Version-control data and bytecode caches (``.git``, ``__pycache__``...) hold no source
and are not entered, unreported.
"""

from __future__ import annotations

from collections.abc import Callable

#: Folders that hold no source files by construction: not entered and not reported.
NOT_TREES = frozenset({".git", ".hg", ".svn", "__pycache__"})
#: Folders tools create and own, with what they hold.
TOOL_FOLDERS = {
    "node_modules": "installed packages (npm)",
    "site-packages": "installed packages (pip)",
    ".tox": "tool environments (tox)",
    ".nox": "tool environments (nox)",
    ".mypy_cache": "tool cache (mypy)",
    ".pytest_cache": "tool cache (pytest)",
    ".ruff_cache": "tool cache (ruff)",
}
#: Files or folders that make the folder holding them a virtual environment.
VENV_MARKERS = ("pyvenv.cfg", "conda-meta")
#: Project file → the build-output folders its tool writes beside it.
BUILD_OUTPUT = {
    "pyproject.toml": ("build", "dist"),
    "setup.py": ("build", "dist"),
    "setup.cfg": ("build", "dist"),
    "package.json": ("build", "dist"),
    "Cargo.toml": ("target",),
    "pom.xml": ("target",),
    "build.gradle": ("build",),
    "build.gradle.kts": ("build",),
}
_OUTPUT_NAMES = frozenset(name for names in BUILD_OUTPUT.values() for name in names)
#: Folder names the go tool does not enter (``go help packages``).
GO_IGNORED = ("vendor", "testdata")


def folder_reason(path: str, exists: Callable[[str], bool]) -> str | None:
    """Why the folder at the relative posix ``path`` is not measured, None to enter it;
    ``exists`` tells whether a relative path is there (on disk, or in a listing)."""
    parent, _, name = path.rpartition("/")
    if name in TOOL_FOLDERS:
        return TOOL_FOLDERS[name]
    for marker in VENV_MARKERS:
        if exists(f"{path}/{marker}"):
            return f"virtual environment ({marker})"
    if name in _OUTPUT_NAMES:
        for project, outputs in BUILD_OUTPUT.items():
            if name in outputs and exists(f"{parent}/{project}" if parent else project):
                return f"build output (beside {project})"
    return None


def go_reason(path: str) -> str | None:
    """Why the go tool leaves out the ``.go`` file at the relative posix ``path``, None
    when it builds it (or it is no Go file)."""
    if not path.endswith(".go"):
        return None
    *folders, name = path.split("/")
    for folder in folders:
        if folder in GO_IGNORED:
            return f"Go: the go tool ignores {folder}/ (go help packages)"
        if folder.startswith((".", "_")):
            return f"Go: the go tool ignores folders starting with '{folder[0]}' (go help packages)"
    if name.startswith((".", "_")):
        return f"Go: the go tool ignores files starting with '{name[0]}' (go help packages)"
    return None


def tracked_reason(path: str) -> str | None:
    """Why a file git tracks is not measured, None to measure it: in a tool-owned folder
    (vendored packages), or left out by the go tool. A commit's files are what the project
    holds, so the rules that need a look beside a folder (virtual environments, build
    output) are not applied to them."""
    for folder in path.split("/")[:-1]:
        if folder in TOOL_FOLDERS:
            return f"{TOOL_FOLDERS[folder]}: {folder}/"
    return go_reason(path)
