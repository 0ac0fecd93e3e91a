"""The tools of the built-in `loop` agent, and their OpenAI function schemas.

``shell`` runs a command through the task's sandbox in the workspace, network
off, under a per-command timeout (never past the session's wall clock), with
its output clipped. The file tools (``write_file``, ``read_file``,
``list_files``, ``edit_file``) work on host paths and refuse any path that
resolves outside the workspace (``..``, absolute paths, symlinks pointing out).
``finish`` ends the session. A tool never raises for what the model asked: a
bad call (or an OS error such as writing over a folder) comes back as a result
starting with ``error:``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from slopmark.sandbox.base import Execution, Limits, Mount, Sandbox
from slopmark.sandbox.private import hidden_mounts, path_tools

#: Host variables the shell tool's commands get (no API keys: the network is off).
SHELL_ENV = ("PATH", "LANG", "LC_ALL", "HOME")
OUTPUT_LIMIT = 6000
READ_LIMIT = 30000
LIST_LIMIT = 300
_SKIPPED_DIRS = frozenset({".git", "__pycache__", ".venv", "venv", "node_modules", ".pytest_cache"})


@dataclass(frozen=True)
class ToolCall:
    """One call the model made; ``id`` is the native call's id (None in text mode)."""

    name: str
    arguments: Mapping[str, Any]
    id: str | None = None


@dataclass(frozen=True)
class ToolResult:
    text: str
    finished: bool = False


class ToolError(Exception):
    """A call the tool cannot carry out; its message goes back to the model."""


def _string(arguments: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = arguments.get(key, default)
    if not isinstance(value, str):
        raise ToolError(f"argument '{key}' must be a string")
    return value


def clip(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, keeping its head and (longer) tail."""
    if len(text) <= limit:
        return text
    head, tail = limit // 4, limit - limit // 4
    return f"{text[:head]}\n… [{len(text) - limit} characters cut] …\n{text[-tail:]}"


@dataclass(frozen=True)
class Toolbox:
    """The tools bound to one workspace, sandbox and session deadline (``time.monotonic``)."""

    workspace: Path
    sandbox: Sandbox
    limits: Limits
    deadline: float
    command_timeout_s: float = 120.0
    #: Host folders the shell's sandbox hides (see `AgentTask.hidden`).
    hidden: tuple[Path, ...] = ()

    def call(self, call: ToolCall) -> ToolResult:
        handler = self._handlers().get(call.name)
        if handler is None:
            return ToolResult(f"error: unknown tool '{call.name}'; tools: {', '.join(TOOL_NAMES)}")
        try:
            return handler(call.arguments)
        except (ToolError, OSError, UnicodeDecodeError) as error:
            return ToolResult(f"error: {error}")

    def _handlers(self) -> dict[str, Callable[[Mapping[str, Any]], ToolResult]]:
        return {
            "shell": self.shell,
            "write_file": self.write_file,
            "read_file": self.read_file,
            "list_files": self.list_files,
            "edit_file": self.edit_file,
            "finish": lambda _arguments: ToolResult("finished", finished=True),
        }

    def resolve(self, raw: str) -> Path:
        """``raw`` as a host path inside the workspace; ToolError when it points outside."""
        root = self.workspace.resolve()
        target = (root / raw).resolve()
        if not target.is_relative_to(root):
            raise ToolError(f"path {raw!r} is outside the workspace; use a path inside it")
        return target

    def shell(self, arguments: Mapping[str, Any]) -> ToolResult:
        command = _string(arguments, "command")
        timeout = max(0.5, min(self.command_timeout_s, self.deadline - time.monotonic()))
        execution = self.sandbox.run(
            ["/bin/sh", "-c", command],
            workdir=self.workspace,
            mounts=[
                *hidden_mounts(self.hidden), Mount(self.workspace, writable=True),
                *path_tools(os.environ.get("PATH", "")),
            ],  # fmt: skip
            limits=replace(self.limits, wall_s=timeout, network=False),
            env=_shell_env(),
        )
        return ToolResult(_describe(execution, timeout))

    def write_file(self, arguments: Mapping[str, Any]) -> ToolResult:
        target = self.resolve(_string(arguments, "path"))
        content = _string(arguments, "content")
        if target.exists() and not target.is_file():  # a folder, or a FIFO that would block
            raise ToolError(f"{_shown(target, self.workspace)} is not a regular file")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        return ToolResult(f"wrote {_shown(target, self.workspace)} ({len(content)} characters)")

    def read_file(self, arguments: Mapping[str, Any]) -> ToolResult:
        target = self._existing_file(_string(arguments, "path"))
        return ToolResult(clip(target.read_text(encoding="utf-8", errors="replace"), READ_LIMIT))

    def list_files(self, arguments: Mapping[str, Any]) -> ToolResult:
        folder = self.resolve(_string(arguments, "path", "."))
        found = sorted(_shown(path, self.workspace) for path in _files(folder))
        if not found:
            return ToolResult("(no files)")
        shown = found[:LIST_LIMIT]
        more = f"\n… and {len(found) - LIST_LIMIT} more" if len(found) > LIST_LIMIT else ""
        return ToolResult("\n".join(shown) + more)

    def edit_file(self, arguments: Mapping[str, Any]) -> ToolResult:
        target = self._existing_file(_string(arguments, "path"))
        old, new = _string(arguments, "old"), _string(arguments, "new")
        text = target.read_text(encoding="utf-8")
        found = text.count(old) if old else 0
        if found != 1:
            raise ToolError(
                f"'old' must occur exactly once in {_shown(target, self.workspace)}, it occurs"
                f" {found} times; quote more surrounding lines to make it unique"
            )
        target.write_text(text.replace(old, new, 1), encoding="utf-8")
        return ToolResult(f"edited {_shown(target, self.workspace)}")

    def _existing_file(self, raw: str) -> Path:
        target = self.resolve(raw)
        if not target.is_file():
            raise ToolError(f"no file {raw!r} in the workspace")
        return target


def _files(folder: Path) -> Iterator[Path]:
    for path in folder.iterdir():
        if path.is_dir() and not path.is_symlink():
            if path.name not in _SKIPPED_DIRS:
                yield from _files(path)
        else:
            yield path


def _shown(path: Path, workspace: Path) -> str:
    return path.relative_to(workspace.resolve()).as_posix()


def _shell_env() -> dict[str, str]:
    env = {name: os.environ[name] for name in SHELL_ENV if name in os.environ}
    return env | {"PYTHONDONTWRITEBYTECODE": "1"}


def _describe(execution: Execution, timeout_s: float) -> str:
    if execution.limit == "timeout":
        head = f"stopped: the command ran past its {timeout_s:.0f}s timeout"
    elif execution.limit is not None:
        head = f"stopped by the sandbox's {execution.limit} limit"
    else:
        head = f"exit code {execution.returncode}"
    parts = [head]
    for label, text in (("stdout", execution.stdout), ("stderr", execution.stderr)):
        if text:
            parts.append(f"{label}:\n{clip(text, OUTPUT_LIMIT)}")
    return "\n".join(parts)


def _function(
    name: str, description: str, properties: dict[str, str], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    fields = {key: {"type": "string", "description": text} for key, text in properties.items()}
    required = [key for key in properties if key not in optional]
    parameters = {"type": "object", "properties": fields, "required": required}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


_PATH = {"path": "path relative to the workspace"}

#: The tools in OpenAI's ``tools`` format.
TOOL_SCHEMAS = (
    _function(
        "shell",
        "Run a shell command in the workspace (no network); returns its exit code and output.",
        {"command": "the command line, e.g. `python main.py --help`"},
    ),
    _function(
        "write_file",
        "Create or overwrite a file in the workspace.",
        _PATH | {"content": "the whole new content of the file"},
    ),
    _function("read_file", "Read a file of the workspace.", _PATH),
    _function(
        "list_files",
        "List the files under a folder of the workspace (default: all of it).",
        {"path": "folder relative to the workspace (default .)"},
        optional=("path",),
    ),
    _function(
        "edit_file",
        "Replace one exact piece of text, which must occur once, in a file.",
        _PATH | {"old": "the exact text to replace", "new": "the replacement text"},
    ),
    _function(
        "finish",
        "End the session once the program is complete and checked.",
        {"summary": "one line on what you did"},
        optional=("summary",),
    ),
)
TOOL_NAMES = tuple(schema["function"]["name"] for schema in TOOL_SCHEMAS)
