"""The prompt templates that put a checkpoint's spec in front of an agent.

A template is a Jinja file (``prompts/<name>.jinja`` for the built-ins, or any
``.jinja`` file given by path) rendered with exactly three variables:

- ``spec``: the checkpoint's specification text;
- ``is_continuation``: True from the second checkpoint on, when the workspace
  holds the agent's own earlier code;
- ``entry_file``: the file the program is run as (``python {{ entry_file }}``).

Any other variable is an error (`jinja2.StrictUndefined`), found when the
template is loaded: `load_prompt` renders it once for a first and a later
checkpoint before handing it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import jinja2

from slopmark.errors import BadInput, did_you_mean

_SUFFIX = ".jinja"
_ENVIRONMENT = jinja2.Environment(
    undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False
)


@dataclass(frozen=True)
class PromptTemplate:
    """A loaded template; ``origin`` is its name or path, for error messages."""

    name: str
    origin: str
    source: str
    _template: jinja2.Template = field(repr=False, compare=False)

    def render(self, *, spec: str, is_continuation: bool, entry_file: str) -> str:
        """The prompt for one checkpoint; BadInput if the template uses an unknown variable."""
        try:
            return self._template.render(
                spec=spec, is_continuation=is_continuation, entry_file=entry_file
            )
        except jinja2.UndefinedError as error:
            raise BadInput(
                f"prompt {self.origin}: {error.message}; a prompt may only use"
                " spec, is_continuation and entry_file"
            ) from None


def _builtin_folder() -> Traversable:
    return resources.files("slopmark.code.bench") / "prompts"


def prompt_names() -> list[str]:
    """The built-in templates, by name (``just-solve``, ``anti-slop``, ``plan-first``)."""
    entries = (entry.name for entry in _builtin_folder().iterdir())
    return sorted(name.removesuffix(_SUFFIX) for name in entries if name.endswith(_SUFFIX))


def load_prompt(name_or_path: str) -> PromptTemplate:
    """A built-in template by name, or a ``.jinja`` file by path; BadInput says what is wrong."""
    names = prompt_names()
    if name_or_path in names:
        source = (_builtin_folder() / f"{name_or_path}{_SUFFIX}").read_text(encoding="utf-8")
        return _compile(name_or_path, f"'{name_or_path}'", source)
    if name_or_path.endswith(_SUFFIX) or "/" in name_or_path:
        return _load_file(Path(name_or_path))
    hint = did_you_mean(name_or_path, names)
    raise BadInput(
        f"unknown prompt '{name_or_path}'"
        + (f"; {hint}" if hint else "")
        + f" (prompts: {', '.join(names)}; or give the path of a {_SUFFIX} file)"
    )


def _load_file(path: Path) -> PromptTemplate:
    if not path.is_file():
        raise BadInput(f"{path}: no such prompt file; give an existing {_SUFFIX} file")
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"{path}: cannot read the prompt file ({error})") from None
    return _compile(path.stem, str(path), source)


def _compile(name: str, origin: str, source: str) -> PromptTemplate:
    try:
        template = _ENVIRONMENT.from_string(source)
    except jinja2.TemplateSyntaxError as error:
        raise BadInput(
            f"prompt {origin}:{error.lineno}: not a valid Jinja template ({error.message})"
        ) from None
    prompt = PromptTemplate(name=name, origin=origin, source=source, _template=template)
    for is_continuation in (False, True):
        prompt.render(spec="spec", is_continuation=is_continuation, entry_file="main.py")
    return prompt
