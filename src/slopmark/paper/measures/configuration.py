"""Is a displayed block configuration (settings), not material a model consumed or produced?

Evidence gap counts "a display environment carrying consumed or produced
material" as an exhibit ("Science or Slop?", Appendix A): a prompt, an input, a
model's output, a transcript — something a reader can inspect to see "individual
successes and failures" (Section 3.1). A ``verbatim`` or listing block of
optimizer settings or hyperparameters is neither input nor output material: it
says how the experiment was run, not what a model saw or said. Such a block is
recognised by its lines (`is_configuration`):

- a setting is ``name: value``, ``name = value`` or ``--flag [value]`` with a
  short value (at most `MAX_VALUE_WORDS` words: a number, a name, a short list),
  or a line of braces and brackets alone (YAML/JSON structure);
- a block is configuration when it has at least `MIN_SETTINGS` settings, they
  make at least `SHARE` of its non-blank, non-comment lines, and at least half
  of them hold a number or a boolean (``lr: 3e-4``, ``use_amp = true``).

A dialogue (``User: What is the capital of France?``) has sentences as values
and is kept as an exhibit; so is an output of one or two ``key: value`` lines,
and any block with a line keyed by an input/output word (`IO_KEYS`: ``Q: 2+2``,
``Output: 4``), whatever its values.
"""

from __future__ import annotations

import re

MIN_SETTINGS = 3
SHARE = 0.8
MAX_VALUE_WORDS = 3

#: Keys that mark input or output material, not a setting.
IO_KEYS = frozenset({
    "q", "a", "question", "answer", "input", "output", "user", "assistant", "system", "human",
    "ai", "bot", "prompt", "response", "completion", "target", "prediction", "predicted",
    "label", "gold", "query", "example", "generated",
})  # fmt: skip

_SETTING = re.compile(
    r"""^\s*(?:-\s+)?["']?(?P<key>[A-Za-z_][\w.\-/\[\]]*)["']?\s*[:=]\s*(?P<value>\S.*?)\s*,?\s*$"""
    r"|^\s*--[A-Za-z][\w-]*(?:[ =](?P<flag>\S+))?\s*$"
)
_STRUCTURE = re.compile(r"^\s*[{}\[\]()]+,?\s*$")
_COMMENT = re.compile(r"^\s*(?:#|//|%)")
_NUMERIC = re.compile(
    r"^[\[(\"']*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|^(?:true|false|yes|no|none|null)\b",
    re.I,
)
_LATEX_WRAPPER = re.compile(r"\\(?:begin|end)\{[^}]*\}(?:\[[^\]]*\]|\{[^}]*\})*|\\\\\s*$", re.M)


def _setting_value(line: str) -> str | None:
    """The value of a setting line ("" for a bare ``--flag``), None when it is not one."""
    found = _SETTING.match(line)
    if found is None:
        return None
    value = found["value"] if found["value"] is not None else (found["flag"] or "")
    return value if len(value.split()) <= MAX_VALUE_WORDS else None


def _io_key(line: str) -> bool:
    """Is the line keyed by an input/output word (``Q:``, ``Output:``)?"""
    found = _SETTING.match(line)
    return found is not None and (found["key"] or "").lower() in IO_KEYS


def is_configuration(source: str) -> bool:
    """Is the block's text (its LaTeX wrapper included or not) a list of settings?"""
    lines = [line for line in _LATEX_WRAPPER.sub("", source).splitlines()
             if line.strip() and not _COMMENT.match(line)]  # fmt: skip
    if any(map(_io_key, lines)):
        return False
    values = [v for v in map(_setting_value, lines) if v is not None]
    structure = sum(1 for line in lines if _STRUCTURE.match(line))
    if len(values) < MIN_SETTINGS or len(values) + structure < SHARE * len(lines):
        return False
    return sum(1 for v in values if _NUMERIC.match(v.strip())) * 2 >= len(values)
