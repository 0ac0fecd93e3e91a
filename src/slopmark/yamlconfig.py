"""Reading YAML files safely, with errors that name the file and the field.

Every YAML slopmark reads (task files, bench problems' ``config.yaml``, model
configs) goes through `NoAliasLoader`: a safe loader that refuses aliases
(``*name``); rule files are read by the native core with ast-grep's own parser,
which refuses them too (`slopmark.code.measure.rules.catalog`). An alias repeats a whole
node, so a 1 KB file of nested aliases ("billion laughs") expands to billions of
values; none of our formats needs one, so any alias is a `yaml.YAMLError` naming
its line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from slopmark.errors import BadInput, did_you_mean
from slopmark.regular import Unreadable, read_text

__all__ = [
    "NoAliasLoader", "load_yaml", "load_yaml_all", "read_mapping", "reject_unknown", "yaml_problem",
]

_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: A configuration file larger than this is refused (one is a few KiB).
MAX_CONFIG_BYTES = 10 * 2**20


class NoAliasLoader(yaml.SafeLoader):
    """`yaml.SafeLoader` that raises on the first alias instead of expanding it."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None,
                None,
                f"found the alias *{event.anchor}: YAML aliases are not allowed here; "
                "write the value out",
                event.start_mark,
            )
        return super().compose_node(parent, index)


def _loader(text: str) -> type[yaml.SafeLoader]:
    """The C loader when the text holds no alias, else `NoAliasLoader` (which names the
    alias's line).

    Without an anchor (``&``) no alias can resolve; with one (or a ``&`` in a value), the
    C parser's events are read first (parsing twice in C is cheaper than once in Python)
    and the C loader is used only when none of them is an alias."""
    if "&" not in text or not _has_alias(text):
        return _FAST_LOADER
    return NoAliasLoader


def _has_alias(text: str) -> bool:
    """Whether ``text`` holds an alias; True too when it is invalid YAML (the slow loader
    then says where)."""
    try:
        return any(isinstance(e, yaml.AliasEvent) for e in yaml.parse(text, Loader=_FAST_LOADER))
    except yaml.YAMLError:
        return True


def load_yaml(text: str, loader: type[NoAliasLoader] | None = None) -> Any:
    """The one YAML document in ``text`` (read by ``loader``, a `NoAliasLoader`, when given);
    `yaml.YAMLError` when invalid, nested too deeply or using an alias."""
    with _depth_guard():
        return yaml.load(text, Loader=loader or _loader(text))  # noqa: S506 - safe loaders


def load_yaml_all(text: str) -> list[Any]:
    """Every YAML document in ``text``; `yaml.YAMLError` when invalid or one uses an alias."""
    with _depth_guard():
        return list(yaml.load_all(text, Loader=_loader(text)))  # noqa: S506 - safe loaders


@contextmanager
def _depth_guard() -> Iterator[None]:
    """A document nested past Python's recursion limit is a `yaml.YAMLError`, not a crash."""
    try:
        yield
    except RecursionError:
        raise yaml.YAMLError("the document is nested too deeply to read") from None


def yaml_problem(error: yaml.YAMLError | str) -> str:
    """A YAML error (or its problem) on one line."""
    return " ".join(str(error).split())


def read_mapping(path: Path, expected: str) -> dict[str, Any]:
    """The YAML mapping in ``path``; BadInput when unreadable, invalid or not a mapping.

    ``expected`` says what the mapping should hold, for the message.
    """
    try:
        data = load_yaml(read_text(path, MAX_CONFIG_BYTES))
    except Unreadable as error:
        message = f"{path}: cannot read the file ({error.reason}); pass a YAML file"
        raise BadInput(message) from error
    except yaml.YAMLError as error:
        raise BadInput(f"{path}: not valid YAML ({yaml_problem(error)})") from error
    if not isinstance(data, dict):
        raise BadInput(f"{path}: expected a mapping with {expected}, got {type(data).__name__}")
    return data


def reject_unknown(names: Iterable[Any], known: Iterable[str], where: str, what: str) -> None:
    """BadInput for the first of ``names`` not in ``known``: ``{where}{name}: unknown {what}``."""
    known = list(known)
    for name in names:
        if name not in known:
            hint = did_you_mean(str(name), known)
            extra = f"; {hint}" if hint else f" (known: {', '.join(known)})"
            raise BadInput(f"{where}{name}: unknown {what}{extra}")
