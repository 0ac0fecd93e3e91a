"""The rule catalog through the content cache (a warm run parses no YAML).

Parsing the rule pack's YAML is a tenth of a second, most of a warm `code diff`'s own
work. The parsed catalog is kept in the cache under a digest of everything it comes from:
the rule set, slopmark's version, every file of the rules package (the loader and the
packs) and every file of the extra rule folders, by path and content. A bad rule is
never stored (the loader raises first), so its error is reported on every run.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterator, Sequence
from dataclasses import astuple, fields
from pathlib import Path

from slopmark import __version__
from slopmark.code.measure.cache.store import ResultCache, seal, unseal
from slopmark.code.measure.rules import Rule, load_catalog
from slopmark.code.measure.rules import catalog as catalog_module
from slopmark.code.measure.rules.catalog import MAX_RULE_BYTES
from slopmark.regular import Unreadable, read_regular

_RULE_FIELDS = tuple(f.name for f in fields(Rule))


def cached_catalog(
    cache: ResultCache | None, extra_dirs: Sequence[Path] = (), rule_set: str = "default"
) -> tuple[Rule, ...]:
    """`load_catalog(extra_dirs, rule_set)`, from the cache when its sources are unchanged."""
    if cache is None:
        return load_catalog(extra_dirs, rule_set)
    key = _catalog_key(extra_dirs, rule_set)
    stored = unseal(cache.catalog(key))
    found = _decode(stored) if stored is not None else None
    if found is not None:
        return found
    rules = load_catalog(extra_dirs, rule_set)
    cache.put_catalog(key, seal(_encode(rules)))
    return rules


def _catalog_key(extra_dirs: Sequence[Path], rule_set: str) -> bytes:
    digest = hashlib.sha256(f"slopmark-catalog\0{__version__}\0{rule_set}\0".encode())
    digest.update(repr(_RULE_FIELDS).encode())
    package = Path(catalog_module.__file__).parent
    for folder in (package, *extra_dirs):
        digest.update(b"\1" + os.fsencode(folder))
        for path in _files(folder):
            data = _content(path)
            digest.update(os.fsencode(path) + b"\0" + len(data).to_bytes(8, "big") + data)
    return digest.digest()


def _content(path: str) -> bytes:
    """A file's bytes, or why it is not read (a FIFO, a device, over the rule file limit):
    the loader refuses such a rule file, and a file that is no rule changes the key by
    its kind."""
    try:
        return read_regular(path, MAX_RULE_BYTES)
    except Unreadable as error:
        return b"\1" + error.reason.encode()


def _files(folder: Path) -> Iterator[str]:
    """The files under ``folder`` in a stable order (nothing when it is not a folder: the
    loader then says so)."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            yield os.path.join(root, name)


def _encode(rules: Sequence[Rule]) -> bytes:
    return marshal.dumps([astuple(rule) for rule in rules])


def _decode(payload: bytes) -> tuple[Rule, ...] | None:
    """The stored catalog (None: not one this slopmark can read)."""
    try:
        rows = marshal.loads(payload)
        return tuple(Rule(**dict(zip(_RULE_FIELDS, row, strict=True))) for row in rows)
    except (ValueError, EOFError, TypeError):
        return None
