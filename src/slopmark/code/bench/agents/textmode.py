"""The text protocol of the `loop` agent, for models without function calling.

Small local models (SmolLM2 under llama.cpp, say) cannot emit OpenAI tool
calls, so the model writes fenced blocks instead:

- a block whose info string is ``file:PATH`` writes PATH with the block's text;
- a block tagged ``shell`` (or ``sh``, ``bash``) runs its text as one command;
- when a reply has no ``file:`` block but a ``python`` one, its last
  ``python`` block is taken as the whole entry file — what small models
  usually write when asked for a program.

Blocks run in the order they appear; their results go back in one user
message. A reply without any block ends the session. A block ends at the
first line that is just ```` ``` ````, so a file cannot itself hold such a line.
"""

from __future__ import annotations

import re

from slopmark.code.bench.agents.tools import ToolCall, ToolResult

_BLOCK = re.compile(r"^```[ \t]*([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_SHELLS = frozenset({"shell", "sh", "bash"})
_FILE_TAG = "file:"


def system_prompt(entry_file: str) -> str:
    return f"""You are a programmer working alone in a workspace folder. You act by writing \
fenced blocks in your reply; nothing else you write has any effect.

To create or overwrite a file, write its whole content in a block tagged file:PATH:
```file:{entry_file}
print("hello")
```
To run a shell command in the workspace (no network), write a block tagged shell:
```shell
python {entry_file}
```
After each reply you get the results of your blocks: files written, each command's exit \
code and output. Check that the program works, fix what fails, and when the program is \
complete reply without any block."""


def actions(reply: str, entry_file: str) -> list[ToolCall]:
    """The tool calls ``reply``'s blocks stand for, in order."""
    blocks = [(info.strip(), body) for info, body in _BLOCK.findall(reply)]
    calls = [call for info, body in blocks if (call := _call(info, body)) is not None]
    if any(call.name == "write_file" for call in calls):
        return calls
    python = [body for info, body in blocks if info.lower() in {"python", "py", "python3"}]
    if python:
        calls.insert(0, ToolCall("write_file", {"path": entry_file, "content": python[-1]}))
    return calls


def _call(info: str, body: str) -> ToolCall | None:
    if info.lower().startswith(_FILE_TAG):
        path = info[len(_FILE_TAG) :].strip()
        return ToolCall("write_file", {"path": path, "content": body}) if path else None
    if info.lower() in _SHELLS and body.strip():
        return ToolCall("shell", {"command": body.strip()})
    return None


def results_message(calls: list[ToolCall], results: list[ToolResult]) -> str:
    """The user message reporting what each block did."""
    pairs = zip(calls, results, strict=True)
    parts = [f"[{_label(call)}]\n{result.text}" for call, result in pairs]
    return (
        "Results of your blocks:\n\n"
        + "\n\n".join(parts)
        + "\n\nContinue. Reply without any block when the program is complete."
    )


def _label(call: ToolCall) -> str:
    if call.name == "shell":
        return f"shell: {call.arguments.get('command', '')}"
    return f"file:{call.arguments.get('path', '')}"
