"""Load and validate rule files written in ast-grep's YAML rule format.

A file holds one rule (or several separated by ``---``). Besides ast-grep's
own keys, slopmark reads these from ``metadata``: ``category``, the
documentation sections (``what``, ``why``, ``example``, ``use_instead``,
``false_positives``), ``min_hits`` (the rule only counts in a file where it
hits at least that many times), ``set`` (``pedantic``: the rule runs only in the
pedantic set; absent, the default set) and ``min_level`` (the language level its
suggestion needs: it only counts in a project built for that level or newer,
`slopmark.code.measure.levels`).

Three rule sets (`RULE_SETS`): ``default``, the packs' rules less the pedantic ones (what
`measure`, `diff` and `history` run); ``pedantic``, every rule of the packs; ``paper``, a
frozen copy of the packs as they were before their precision was measured (``paper/``,
whose README says why), which the coding-agent benchmark and the study run so that their
numbers stay comparable with the paper's.

The files are read by the native core with the YAML parser ast-grep reads its own rule
files with, all of a folder's files at once and in parallel (`native/src/yaml.rs`): a rule
file means what it means to ast-grep, and the pack's few hundred files take a few
milliseconds. As everywhere in slopmark, YAML aliases are refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from slopmark import _core
from slopmark.code.measure import languages, levels
from slopmark.errors import BadInput, did_you_mean
from slopmark.regular import Unreadable, read_text

PACK_DIR = Path(__file__).parent / "pack"
#: The packs of the other languages: ``lang/<language>/<category>/<rule-id>.yml``.
LANG_DIR = Path(__file__).parent / "lang"
#: The frozen packs of the ``paper`` set, laid out as ``pack/`` and ``lang/`` are.
PAPER_DIR = Path(__file__).parent / "paper"
#: The rule sets `load_catalog` knows, and the ``metadata.set`` a rule file may name.
RULE_SETS = ("paper", "default", "pedantic")
_FILE_SETS = ("default", "pedantic")
#: The ``language:`` a rule may name, as the core says (a JavaScript rule also runs on
#: TypeScript and TSX).
RULE_LANGUAGES = languages.RULE_LANGUAGES
DOC_SECTIONS = ("what", "why", "example", "use_instead", "false_positives")
#: A rule file larger than this is refused (a rule is a few hundred bytes).
MAX_RULE_BYTES = 2**20
_SEVERITIES = ("error", "warning", "info", "hint")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: its id, how it reads, its docs and the YAML ast-grep runs."""

    id: str
    severity: str
    message: str
    category: str
    min_hits: int
    docs: tuple[tuple[str, str], ...]
    source: str
    yaml_text: str
    language: str = "python"
    #: ``default`` or ``pedantic`` (``metadata.set``); ``paper`` for a rule of the frozen set
    rule_set: str = "default"
    #: the project language level the rule's suggestion needs (None: any)
    min_level: str | None = None

    def doc(self, section: str) -> str:
        return dict(self.docs).get(section, "")

    def engine_text(self, grammar: str) -> str:
        """The rule as the core compiles it for ``grammar`` (its ``language:`` replaced)."""
        if grammar == self.language:
            return self.yaml_text
        return _engine_text({**json.loads(self.yaml_text), "language": grammar})


def parse_rules(text: str, source: str) -> list[Rule]:
    """Parse the rule documents in ``text``; ``source`` names the file in errors."""
    return _rules(_core.yaml_documents([text])[0], source)


def _rules(documents: list[str] | str, source: str) -> list[Rule]:
    """The rules of a file's documents as the core read them (JSON texts), or BadInput
    with why the file is not valid YAML."""
    if isinstance(documents, str):
        raise BadInput(f"{source}: not valid YAML: {documents}; fix the file or drop it")
    parsed = (json.loads(document) for document in documents)
    return [_rule(doc, source) for doc in parsed if doc is not None]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise BadInput(message)


def _rule_id(doc: Any, source: str) -> str:
    _require(isinstance(doc, dict), f"{source}: a rule must be a mapping, got {type(doc).__name__}")
    rule_id = doc.get("id")
    _require(
        isinstance(rule_id, str) and bool(rule_id),
        f"{source}: field 'id' is missing; every rule needs a unique id",
    )
    return str(rule_id)


def _rule(doc: Any, source: str) -> Rule:
    rule_id = _rule_id(doc, source)
    where = f"{source}: rule '{rule_id}'"
    language = str(doc.get("language", "")).lower()
    _require(
        language in RULE_LANGUAGES,
        f"{where}: 'language' must be one of {', '.join(RULE_LANGUAGES)}, got {language!r}",
    )
    _require("rule" in doc, f"{where}: field 'rule' is missing")
    severity = doc.get("severity", "warning")
    _require(
        severity in _SEVERITIES,
        f"{where}: severity {severity!r} is not one of {', '.join(_SEVERITIES)}",
    )
    meta = doc.get("metadata") or {}
    min_hits = meta.get("min_hits", 1)
    _require(
        isinstance(min_hits, int) and min_hits >= 1,
        f"{where}: metadata.min_hits must be an integer >= 1",
    )
    rule_set = meta.get("set", "default")
    _require(
        rule_set in _FILE_SETS,
        f"{where}: metadata.set {rule_set!r} is not a rule set; write 'pedantic' or leave "
        "it out (the default set)",
    )
    min_level = _min_level(meta, language, where)
    return Rule(
        id=rule_id,
        severity=severity,
        message=str(doc.get("message", rule_id)),
        category=str(meta.get("category", "custom")),
        min_hits=min_hits,
        docs=tuple((k, str(meta[k]).strip()) for k in DOC_SECTIONS if meta.get(k)),
        source=source,
        yaml_text=_engine_text({**doc, "language": language}),
        language=language,
        rule_set=rule_set,
        min_level=min_level,
    )


def _min_level(meta: dict[str, Any], language: str, where: str) -> str | None:
    """``metadata.min_level`` as given, or BadInput when it names no level of the rule's
    language (`slopmark.code.measure.levels.scale_of`)."""
    value = meta.get("min_level")
    if value is None:
        return None
    _require(
        isinstance(value, str) and levels.scale_of(language, value) is not None,
        f"{where}: metadata.min_level {value!r} is not a {language} level; write it as a "
        'string such as "16" (Java), "1.21" (Go), "1.65" or "edition2021" (Rust), '
        '"ES2022" (TypeScript/JavaScript)',
    )
    return str(value)


def _engine_text(doc: dict[str, Any]) -> str:
    """The rule as ast-grep reads it: JSON, which is YAML too (every value the core reads
    from YAML is one JSON holds)."""
    return json.dumps(doc, ensure_ascii=False)


def _rule_files(directory: Path) -> list[Path]:
    if not directory.is_dir():
        raise BadInput(f"{directory}: rule directory not found; pass an existing folder to --rules")
    found = (p for p in directory.rglob("*") if p.suffix in (".yml", ".yaml"))
    return sorted(p for p in found if p.exists() and not p.is_dir())  # a FIFO: refused


def _read(path: Path) -> str:
    """A rule file's text; BadInput when it is not a regular UTF-8 file within the limit (a
    FIFO named ``x.yml`` is refused, not waited for)."""
    try:
        return read_text(path, MAX_RULE_BYTES)
    except Unreadable as error:
        message = f"{path}: cannot read the rule file ({error.reason}); fix the file or drop it"
        raise BadInput(message) from error


def check_rule_set(name: str, where: str = "--rules-set") -> str:
    """``name`` when it is one of `RULE_SETS`; `BadInput` naming the closest one otherwise."""
    if name not in RULE_SETS:
        hint = did_you_mean(name, RULE_SETS) or f"choose {', '.join(RULE_SETS)}"
        raise BadInput(f"{where}: unknown rule set {name!r}; {hint}")
    return name


def set_dirs(rule_set: str) -> tuple[Path, Path]:
    """The built-in folders of ``rule_set``: the frozen copy for ``paper``."""
    check_rule_set(rule_set)
    if rule_set == "paper":
        return PAPER_DIR / "pack", PAPER_DIR / "lang"
    return PACK_DIR, LANG_DIR


def load_catalog(extra_dirs: Sequence[Path] = (), rule_set: str = "default") -> tuple[Rule, ...]:
    """Every rule of ``rule_set``'s built-in packs plus ``extra_dirs``, sorted by id: the
    default set leaves out the rules marked pedantic (of ``extra_dirs`` too)."""
    rules = _load((*set_dirs(rule_set), *extra_dirs))
    if rule_set == "paper":
        frozen = str(PAPER_DIR)
        rules = [replace(r, rule_set="paper") if r.source.startswith(frozen) else r for r in rules]
    elif rule_set == "default":
        rules = [r for r in rules if r.rule_set == "default"]
    return tuple(rules)


def _load(directories: Sequence[Path]) -> list[Rule]:
    """The rules of ``directories``' files, sorted by id; an id defined twice is refused."""
    rules: dict[str, Rule] = {}
    for directory in directories:
        paths = _rule_files(directory)
        texts = [_read(path) for path in paths]
        for path, documents in zip(paths, _core.yaml_documents(texts), strict=True):
            for rule in _rules(documents, str(path)):
                if rule.id in rules:
                    raise BadInput(
                        f"{path}: rule id '{rule.id}' is already defined in {rules[rule.id].source}"
                    )
                rules[rule.id] = rule
    return sorted(rules.values(), key=lambda r: r.id)


def choose(
    catalog: Sequence[Rule], select: Iterable[str] = (), ignore: Iterable[str] = ()
) -> tuple[Rule, ...]:
    """The rules of ``catalog`` kept by ``--select`` / ``--ignore`` ids."""
    select, ignore = tuple(select), tuple(ignore)
    known = [r.id for r in catalog]
    for rule_id in (*select, *ignore):
        check_rule_id(rule_id, known, "option")
    return tuple(r for r in catalog if (not select or r.id in select) and r.id not in ignore)


def check_rule_id(rule_id: str, known: Iterable[str], where: str) -> None:
    """Raise `BadInput` naming the closest known id when ``rule_id`` is unknown."""
    known = list(known)
    if rule_id in known:
        return
    hint = did_you_mean(rule_id, known) or "see `slopmark code rules`"
    raise BadInput(f"{where}: unknown rule id '{rule_id}'; {hint}")
