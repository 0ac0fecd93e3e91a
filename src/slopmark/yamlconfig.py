"""Reading small YAML configuration files with errors that name the file and the field."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from slopmark.errors import BadInput, did_you_mean


def read_mapping(path: Path, expected: str) -> dict[str, Any]:
    """The YAML mapping in ``path``; BadInput when unreadable, invalid or not a mapping.

    ``expected`` says what the mapping should hold, for the message.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"{path}: cannot read the file ({error})") from error
    except yaml.YAMLError as error:
        raise BadInput(f"{path}: not valid YAML ({' '.join(str(error).split())})") from error
    if not isinstance(data, dict):
        raise BadInput(f"{path}: expected a mapping with {expected}, got {data!r}")
    return data


def reject_unknown(names: Iterable[Any], known: Iterable[str], where: str, what: str) -> None:
    """BadInput for the first of ``names`` not in ``known``: ``{where}{name}: unknown {what}``."""
    known = list(known)
    for name in names:
        if name not in known:
            hint = did_you_mean(str(name), known)
            extra = f"; {hint}" if hint else f" (known: {', '.join(known)})"
            raise BadInput(f"{where}{name}: unknown {what}{extra}")
