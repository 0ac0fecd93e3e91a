"""`command`: any coding-agent CLI, run from a command-line template.

The template is a ``/bin/sh`` command line with these placeholders, each
replaced by a shell-quoted value:

- ``{prompt_file}``: a file holding the rendered prompt (``prompt.md`` in the log dir);
- ``{prompt}``: the prompt text itself;
- ``{workspace}``: the workspace folder (also the working directory);
- ``{model}``: the ``--model`` given to the run (an error when none was).

Other braces are left alone, so JSON in a command line needs no escaping.
The command runs in ``task.sandbox`` with the workspace and its ``HOME``
writable, the log dir read-only, ``task.hidden`` (the problems, the run
folder) hidden, network on (agents call their APIs) and ``task.limits``; its
stdout and stderr are saved to ``agent.stdout`` / ``agent.stderr`` in the log
dir (by the harness, which follows no link the command left there).

Host files and folders the template names by absolute path (a script, a
config) are mounted read-only, so the sandbox's private ``/tmp`` or a
container does not hide them; see `named_paths`.

Environment: only `PASSED_ENV` and the names given by option ``env=A,B`` are
passed from the host. ``HOME`` is a fresh ``home/`` folder in the log dir
(option ``home=private``, the default), so a CLI can keep its state without
reading the host's; ``home=host`` passes the host's home, mounted writable, for
CLIs logged in there.

Presets (`claude-code`, `codex`, built by `presets.Preset`) are
`CommandAgent`s with a report reader that takes cost, tokens and turns from
what the CLI prints.
"""

from __future__ import annotations

import os
import shlex
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from slopmark.code.bench.agents import options as opts
from slopmark.code.bench.agents.base import (
    AgentOutcome,
    AgentStatus,
    AgentTask,
    register,
)
from slopmark.errors import BadInput
from slopmark.sandbox.base import Execution, Mount
from slopmark.sandbox.private import hidden_mounts, path_tools

#: Host variables every command agent gets: the basics, then API keys and endpoints.
PASSED_ENV = (
    "PATH",
    "LANG",
    "LC_ALL",
    "TERM",
    "TZ",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENROUTER_API_KEY",
    "CODEX_API_KEY",
    "GEMINI_API_KEY",
    "SLOPMARK_API_KEY",
)
PROMPT_FILE = "prompt.md"
HOMES = ("private", "host")
_STDERR_EXCERPT = 300


@dataclass(frozen=True)
class Report:
    """What an agent CLI says it spent. Unknown numbers are None; ``error`` when it failed."""

    cost_usd: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    steps: int | None = None
    error: str | None = None


#: Reads a CLI's stdout (and the run's model) into a `Report`; None when it printed none.
ReportReader = Callable[[str, str | None], Report | None]


class MissingModel(Exception):
    """The template needs ``{model}`` but the run has no model."""


@dataclass  # not frozen: the Agent protocol declares `name` a plain attribute
class CommandAgent:
    """Runs ``template`` per checkpoint; see the module docstring."""

    name: str
    template: str
    #: The template used when the run names no model (presets then drop their model flag).
    template_without_model: str | None = None
    extra_env: tuple[str, ...] = ()
    home: str = "private"
    read_report: ReportReader | None = None

    def run(self, task: AgentTask) -> AgentOutcome:
        started = time.monotonic()
        self._home(task).mkdir(parents=True, exist_ok=True)
        prompt_file = task.log_dir / PROMPT_FILE
        prompt_file.write_text(task.prompt, encoding="utf-8")
        try:
            line = self.command_line(task, prompt_file)
        except MissingModel:
            message = f"the command of agent '{self.name}' uses {{model}}; pass --model"
            return AgentOutcome("error", time.monotonic() - started, error=message)
        (task.log_dir / "command.sh").write_text(line + "\n", encoding="utf-8")
        execution = self._execute(task, line)
        report = self.read_report(execution.stdout, task.model) if self.read_report else None
        return self._outcome(execution, report, time.monotonic() - started, task)

    def template_for(self, task: AgentTask) -> str:
        """The template this task runs (without the model flag when it has no model)."""
        if task.model is None and self.template_without_model is not None:
            return self.template_without_model
        return self.template

    def command_line(self, task: AgentTask, prompt_file: Path) -> str:
        """The template with its placeholders filled in, shell-quoted."""
        template = self.template_for(task)
        if task.model is None and "{model}" in template:
            raise MissingModel
        values = {
            "{prompt_file}": str(prompt_file),
            "{prompt}": task.prompt,
            "{workspace}": str(task.workspace),
            "{model}": task.model or "",
        }
        for placeholder, value in values.items():
            template = template.replace(placeholder, shlex.quote(value))
        return template

    def environment(self, task: AgentTask) -> dict[str, str]:
        """The allowed host variables, with ``HOME`` set as option ``home`` says."""
        names = (*PASSED_ENV, *self.extra_env)
        env = {name: os.environ[name] for name in names if name in os.environ}
        return env | {"HOME": str(self._home(task))}

    def _home(self, task: AgentTask) -> Path:
        return Path.home() if self.home == "host" else task.log_dir / "home"

    def mounts(self, task: AgentTask) -> list[Mount]:
        """The hidden folders; the log dir read-only; the workspace and the home writable;
        the tool folders its PATH reaches in the homes and the host paths it names,
        read-only."""
        writable = [task.workspace, self._home(task)]
        named = named_paths(self.template_for(task), [*writable, task.log_dir, *task.hidden])
        tools = path_tools(os.environ.get("PATH", ""))
        return [
            *hidden_mounts(task.hidden), Mount(task.log_dir),
            *(Mount(path, writable=True) for path in writable), *tools, *(Mount(p) for p in named),
        ]  # fmt: skip

    def _execute(self, task: AgentTask, line: str) -> Execution:
        execution = task.sandbox.run(
            ["/bin/sh", "-c", line],
            workdir=task.workspace,
            mounts=self.mounts(task),
            limits=replace(task.limits, network=True),
            env=self.environment(task),
        )
        write_log(task.log_dir / "agent.stdout", execution.stdout)
        write_log(task.log_dir / "agent.stderr", execution.stderr)
        return execution

    def _outcome(
        self, execution: Execution, report: Report | None, wall_s: float, task: AgentTask
    ) -> AgentOutcome:
        spent = report or Report()
        status: AgentStatus = "ok"
        error = self._failure(execution, report)
        if execution.limit == "timeout":
            status, error = "timeout", f"stopped after the {task.limits.wall_s:g}s wall clock"
        elif error is not None:
            status = "error"
        return AgentOutcome(
            status,
            wall_s,
            error,
            spent.cost_usd,
            spent.input_tokens,
            spent.output_tokens,
            spent.steps,
        )

    def _failure(self, execution: Execution, report: Report | None) -> str | None:
        if execution.limit is not None:
            return f"stopped by the sandbox's {execution.limit} limit"
        if report is not None and report.error is not None:
            return report.error
        if execution.returncode != 0:
            return f"exit code {execution.returncode}: {last_line(execution.stderr)}"
        if self.read_report is not None and report is None:
            return f"'{self.name}' printed no report on stdout (see agent.stdout in the log dir)"
        return None


def write_log(path: Path, text: str) -> None:
    """Write the harness's log ``path`` in a folder the agent could write to: whatever the
    agent left there under that name (a link out, a FIFO) is removed, never followed."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def named_paths(template: str, writable: list[Path]) -> list[Path]:
    """The existing host files and folders a command line names by absolute path.

    They are mounted read-only so the command sees them even where the sandbox
    hides them (bwrap's private ``/tmp``, a container's own file system).
    Skipped: paths through a symlink (a sandbox cannot mount over a link), the
    system's pseudo file systems, and paths that hold or lie in a writable or a
    hidden mount (``writable`` holds both).
    """
    try:
        words = shlex.split(template)
    except ValueError:
        return []
    found = {Path(word) for word in words if word.startswith("/")}
    return sorted(path for path in found if _mountable(path, writable))


def _mountable(path: Path, writable: list[Path]) -> bool:
    if path.parts[1:2] in (("dev",), ("proc",), ("sys",), ()) or path.resolve() != path:
        return False
    overlaps = any(path.is_relative_to(w) or w.is_relative_to(path) for w in writable)
    return (path.is_file() or path.is_dir()) and not overlaps


def last_line(text: str) -> str:
    """The last non-blank line of ``text`` (shortened), or "(no output)"."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return "(no output)"
    line = lines[-1]
    return line if len(line) <= _STDERR_EXCERPT else line[: _STDERR_EXCERPT - 1] + "…"


@register(
    "command",
    summary="any agent CLI from a command-line template ({prompt_file}, {prompt}, ...)",
    options={
        "template": "the /bin/sh command line; placeholders {prompt_file} {prompt}"
        " {workspace} {model}",
        "env": "extra host variables to pass, comma-separated (e.g. env=AIDER_MODEL)",
        "home": "private (default: a fresh HOME in the log dir) or host (the host's HOME)",
    },
)
def build(options: Mapping[str, str]) -> CommandAgent:
    template = options.get("template", "")
    if "{prompt_file}" not in template and "{prompt}" not in template:
        raise BadInput(
            f"agent 'command': option template={template!r} must contain {{prompt_file}} or"
            " {prompt}, e.g. template='aider --message-file {prompt_file} --yes'"
        )
    return CommandAgent(
        name="command",
        template=template,
        extra_env=opts.names(options.get("env")),
        home=opts.choice("command", options, "home", HOMES),
    )
