"""Read a problem in the public SlopCodeBench layout.

```
<problem>/config.yaml           name, description, entry_file, timeout, checkpoints, ...
<problem>/checkpoint_N.md       the spec the agent sees
<problem>/tests/conftest.py     --entrypoint / --checkpoint options
<problem>/tests/test_checkpoint_N.py
<problem>/solutions/checkpoint_N/ (or solution/)   reference solutions
```
Older problems keep the spec at ``checkpoint_N/spec.md``; both are read.

slopmark's own optional ``evaluation:`` mapping says how the hidden tests run
(see `Evaluation`): ``profile`` (scb or native), ``python`` (X.Y),
``toolchains`` (the commands the tests need) and ``network`` (off by default).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from slopmark.code.bench.pythons import check_version
from slopmark.confine import inside
from slopmark.errors import BadInput
from slopmark.regular import Unreadable, read_text
from slopmark.yamlconfig import load_yaml, yaml_problem

_CHECKPOINT_NAME = re.compile(r"checkpoint_(\d+)")
DEFAULT_TIMEOUT_S = 30.0
PROFILES = ("scb", "native")
#: How the entry point runs: the workspace's venv (slopmark's default) or ``uv run`` (SCB's).
ENTRYPOINTS = ("venv", "uv")


@dataclass(frozen=True)
class Evaluation:
    """A problem's own evaluation settings; None leaves the choice to the run and the profile."""

    profile: str | None = None
    python: str | None = None
    #: The toolchain commands the tests need (None: all of the profile's).
    toolchains: tuple[str, ...] | None = None
    #: Whether the tests need the network (None: not said, off unless the run turns it on).
    network: bool | None = None
    #: How the entry point runs (one of `ENTRYPOINTS`; None: the run's choice, else venv).
    entrypoint: str | None = None


@dataclass(frozen=True)
class Checkpoint:
    name: str
    order: int
    version: int
    state: str
    spec_path: Path
    timeout_s: float | None = None
    include_prior_tests: bool = True
    #: Variables the tests run with (SCB's ``BaseConfig.env``), over the problem's.
    env: dict[str, str] = field(default_factory=dict)

    @property
    def spec(self) -> str:
        return self.spec_path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Problem:
    name: str
    root: Path
    description: str
    entry_file: str
    timeout_s: float
    checkpoints: tuple[Checkpoint, ...]
    test_dependencies: tuple[str, ...] = ()
    static_assets: dict[str, Path] = field(default_factory=dict)
    #: Custom markers: marker name → group (CORE, FUNCTIONALITY, ERROR, REGRESSION).
    markers: dict[str, str] = field(default_factory=dict)
    #: Variables every checkpoint's tests run with (SCB's ``BaseConfig.env``).
    env: dict[str, str] = field(default_factory=dict)
    version: int = 1
    #: Where the problem comes from, for the board's source filter: original (ours)
    #: or community (anyone else's, e.g. SlopCodeBench's own problems).
    source: str = "community"
    evaluation: Evaluation = field(default_factory=Evaluation)

    @property
    def tests_dir(self) -> Path:
        return self.root / "tests"

    @property
    def entry_script(self) -> str:
        """The entry file's name in the workspace (``main.py`` for ``entry_file: main``)."""
        return self.entry_file if self.entry_file.endswith(".py") else f"{self.entry_file}.py"

    def checkpoint(self, name: str) -> Checkpoint:
        for checkpoint in self.checkpoints:
            if checkpoint.name == name:
                return checkpoint
        known = ", ".join(c.name for c in self.checkpoints)
        raise BadInput(f"problem '{self.name}' has no checkpoint '{name}' (it has {known})")

    def test_files(self, checkpoint: Checkpoint) -> list[Path]:
        """The hidden test files run at ``checkpoint``: its own, then earlier ones."""
        own = [self.tests_dir / f"test_{checkpoint.name}.py"]
        if not checkpoint.include_prior_tests:
            return own
        earlier = [c for c in self.checkpoints if c.order < checkpoint.order]
        return own + [self.tests_dir / f"test_{c.name}.py" for c in earlier]

    def solution_dir(self, checkpoint: Checkpoint) -> Path | None:
        """The reference solution of ``checkpoint``, or None when the problem has none."""
        candidates = [
            self.root / "solutions" / checkpoint.name,
            self.root / checkpoint.name / "solution",
        ]
        if checkpoint.order == self.checkpoints[-1].order:
            candidates.append(self.root / "solution")
        return next((path for path in candidates if path.is_dir()), None)


#: A config.yaml longer than this is not read.
MAX_CONFIG_BYTES = 1024 * 1024


def _fail(config: Path, what: str) -> BadInput:
    return BadInput(f"{config}: {what}")


def _mapping(value: Any, config: Path, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(config, f"'{where}' must be a mapping, got {type(value).__name__}")
    return value


def _number(config: Path, where: str, value: Any, kind: type[int] | type[float]) -> Any:
    """``value`` as an int or a finite float; `BadInput` naming the field otherwise."""
    try:
        number = kind(value)
    except (TypeError, ValueError, OverflowError):
        raise _fail(config, f"'{where}' must be a number, got {str(value)[:80]!r}") from None
    if isinstance(value, bool) or number != number or abs(number) == float("inf"):
        raise _fail(config, f"'{where}' must be a finite number, got {str(value)[:80]!r}")
    return number


def _inside(root: Path, config: Path, where: str, relative: Any) -> Path:
    """``root / relative`` when it stays inside the problem folder (symlinks resolved)."""
    path = root / str(relative)
    if not inside(root, path):
        raise _fail(config, f"'{where}' {str(relative)[:80]!r} leaves the problem folder {root}")
    return path


def _spec_path(root: Path, config: Path, name: str, entry: dict[str, Any]) -> Path:
    candidates = [_inside(root, config, f"checkpoints.{name} (its {name}.md)", f"{name}.md")]
    folder = _inside(root, config, f"checkpoints.{name}.path", entry.get("path", name))
    where = f"checkpoints.{name}.specification"
    candidates.append(_inside(folder, config, where, entry.get("specification", "spec.md")))
    return next((path for path in candidates if path.is_file()), candidates[0])


def _checkpoint(root: Path, config: Path, name: str, entry: Any) -> Checkpoint:
    entry = _mapping(entry if entry is not None else {}, config, f"checkpoints.{name}")
    match = _CHECKPOINT_NAME.fullmatch(name)
    if match is None:
        raise _fail(config, f"checkpoint '{name}' must be named checkpoint_N")
    spec = _spec_path(root, config, name, entry)
    if not spec.is_file():
        raise _fail(config, f"checkpoint '{name}' has no spec; write {spec}")
    timeout = entry.get("timeout")
    where = f"checkpoints.{name}"
    if timeout is not None:
        timeout = _number(config, f"{where}.timeout", timeout, float)
    return Checkpoint(
        name=name,
        order=_number(config, f"{where}.order", entry.get("order", match.group(1)), int),
        version=_number(config, f"{where}.version", entry.get("version", 1), int),
        state=str(entry.get("state", "")),
        spec_path=spec,
        timeout_s=timeout,
        include_prior_tests=bool(entry.get("include_prior_tests", True)),
        env=_env(config, f"{where}.env", entry.get("env")),
    )


def _env(config: Path, where: str, raw: Any) -> dict[str, str]:
    """``env:``, a mapping of variable names to text (numbers are written as text)."""
    entries = _mapping(raw if raw is not None else {}, config, where)
    found = {}
    for name, value in entries.items():
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise _fail(config, f"'{where}.{name}' is {value!r}; give the variable a text value")
        found[str(name)] = str(value)
    return found


def _checkpoints(root: Path, config: Path, raw: Any) -> tuple[Checkpoint, ...]:
    if isinstance(raw, list):
        raw = {str(name): None for name in raw}
    entries = _mapping(raw, config, "checkpoints")
    if not entries:
        raise _fail(config, "'checkpoints' is empty; list checkpoint_1 at least")
    found = sorted(
        (_checkpoint(root, config, str(name), entry) for name, entry in entries.items()),
        key=lambda checkpoint: checkpoint.order,
    )
    orders = [checkpoint.order for checkpoint in found]
    if len(set(orders)) != len(orders):
        raise _fail(config, f"checkpoint orders repeat: {orders}")
    return tuple(found)


def _assets(root: Path, config: Path, raw: Any) -> dict[str, Path]:
    assets = {}
    for name, entry in _mapping(raw or {}, config, "static_assets").items():
        relative = entry.get("path") if isinstance(entry, dict) else entry
        path = _inside(root, config, f"static_assets.{name}", relative)
        if not path.exists():
            raise _fail(config, f"static asset '{name}' points to missing {path}")
        assets[str(name)] = path
    return assets


def _markers(config: Path, raw: Any) -> dict[str, str]:
    markers = {}
    for name, entry in _mapping(raw or {}, config, "markers").items():
        group = str(entry.get("group", "FUNCTIONALITY") if isinstance(entry, dict) else entry)
        if group.upper() not in {"CORE", "FUNCTIONALITY", "ERROR", "REGRESSION"}:
            raise _fail(config, f"marker '{name}' has unknown group '{group}'")
        markers[str(name)] = group.upper()
    return markers


_EVALUATION_KEYS = ("profile", "python", "toolchains", "network", "entrypoint")


def _choice(config: Path, entry: dict[str, Any], key: str, allowed: tuple[Any, ...]) -> Any:
    value = entry.get(key)
    if value is not None and value not in allowed:
        words = " or ".join(str(option).lower() for option in allowed)
        raise _fail(config, f"'evaluation.{key}' is {value!r}; use {words}")
    return value


def _toolchains(config: Path, tools: Any) -> tuple[str, ...] | None:
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise _fail(config, "'evaluation.toolchains' must be a list of commands, e.g. [uv, cargo]")
    return tuple(str(tool) for tool in tools)


def _python(config: Path, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):  # YAML reads 3.10 as the number 3.1
        raise _fail(config, f"'evaluation.python' is {value!r}; quote the version: python: '3.12'")
    return check_version(value, f"{config}: 'evaluation.python'")


def _evaluation(config: Path, raw: Any) -> Evaluation:
    entry = _mapping(raw if raw is not None else {}, config, "evaluation")
    unknown = sorted(set(entry) - set(_EVALUATION_KEYS))
    if unknown:
        keys = ", ".join(_EVALUATION_KEYS)
        raise _fail(config, f"'evaluation' has unknown key(s) {', '.join(unknown)}; use {keys}")
    return Evaluation(
        profile=_choice(config, entry, "profile", PROFILES),
        python=_python(config, entry.get("python")),
        toolchains=_toolchains(config, entry.get("toolchains")),
        network=_choice(config, entry, "network", (True, False)),
        entrypoint=_choice(config, entry, "entrypoint", ENTRYPOINTS),
    )


def _source(config: Path, value: Any) -> str:
    if value not in ("original", "community"):
        raise _fail(config, f"'source' is {value!r}; use original or community")
    return str(value)


def _entry_file(config: Path, value: Any) -> str:
    """``entry_file``: a relative path that stays in the workspace (no ``..``, not absolute)."""
    text = str(value)
    path = PurePosixPath(text)
    if not text.strip() or path.is_absolute() or ".." in path.parts or "\0" in text:
        raise _fail(
            config, f"'entry_file' {text[:80]!r} must be a file inside the workspace, e.g. main"
        )
    return text


def _confined(root: Path, config: Path, folder: Path) -> None:
    """BadInput when a link under ``folder`` (or ``folder`` itself) leaves the problem folder:
    the harness copies tests and reference solutions, and a link out would bring a host
    file into the test session."""
    if not inside(root, folder):
        raise _fail(config, f"'{folder.name}' leaves the problem folder {root}")
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() and not inside(root, path):
            where = path.relative_to(root)
            raise _fail(config, f"'{where}' links outside the problem folder {root}; remove it")


def _read_config(root: Path, config: Path) -> dict[str, Any]:
    """``config.yaml`` as a mapping: a regular file inside the problem folder, valid YAML."""
    if not config.is_file():
        raise BadInput(f"{root}: not a problem folder (no config.yaml)")
    if not inside(root, config):
        raise _fail(config, f"links outside the problem folder {root}; make it a file")
    try:
        raw = load_yaml(read_text(config, MAX_CONFIG_BYTES, advice="fix it"))
    except Unreadable as error:
        raise _fail(config, f"cannot be read as UTF-8 text ({error.reason})") from None
    except yaml.YAMLError as error:
        raise _fail(config, f"not valid YAML ({yaml_problem(error)})") from None
    return _mapping(raw, config, "config.yaml")


def _check_layout(root: Path, config: Path, raw: dict[str, Any]) -> None:
    for key in ("entry_file", "checkpoints"):
        if key not in raw:
            raise _fail(config, f"missing required field '{key}'")
    if not (root / "tests").is_dir():
        raise _fail(config, f"the problem has no tests folder ({root / 'tests'})")
    for folder in (root / "tests", root / "solutions"):
        if folder.exists():
            _confined(root.resolve(), config, folder)


def load_problem(root: Path) -> Problem:
    """Read ``root/config.yaml``; BadInput names the file and field that is wrong."""
    config = root / "config.yaml"
    raw = _read_config(root, config)
    _check_layout(root, config, raw)
    return Problem(
        name=str(raw.get("name", root.name)),
        root=root.resolve(),
        description=str(raw.get("description", "")).strip(),
        entry_file=_entry_file(config, raw["entry_file"]),
        timeout_s=_number(config, "timeout", raw.get("timeout", DEFAULT_TIMEOUT_S), float),
        checkpoints=_checkpoints(root.resolve(), config, raw["checkpoints"]),
        test_dependencies=tuple(str(dep) for dep in raw.get("test_dependencies") or ()),
        static_assets=_assets(root.resolve(), config, raw.get("static_assets")),
        markers=_markers(config, raw.get("markers")),
        version=_number(config, "version", raw.get("version", 1), int),
        source=_source(config, raw.get("source", "community")),
        evaluation=_evaluation(config, raw.get("evaluation")),
        env=_env(config, "env", raw.get("env")),
    )


@dataclass(frozen=True)
class Invalid:
    """A problem folder that could not be read, and why."""

    folder: Path
    error: str


def scan_problems(folder: Path) -> tuple[list[Problem], list[Invalid]]:
    """Every problem under ``folder`` (each subfolder with a config.yaml), and apart the
    folders that are not valid problems: one bad problem hides no other."""
    if (folder / "config.yaml").is_file():
        return [load_problem(folder)], []
    if not folder.is_dir():
        raise BadInput(f"{folder}: no such problems folder")
    folders = [sub for sub in sorted(folder.iterdir()) if (sub / "config.yaml").is_file()]
    if not folders:
        raise BadInput(f"{folder}: no problems here (no subfolder has a config.yaml)")
    found, invalid = [], []
    for sub in folders:
        try:
            found.append(load_problem(sub))
        except BadInput as error:
            invalid.append(Invalid(sub, str(error)))
    return found, invalid


def load_problems(folder: Path, names: list[str] | None = None) -> list[Problem]:
    """The problems under ``folder`` named ``names`` (every one when None): BadInput when
    one of those is not valid (an invalid problem that was not asked for is left out)."""
    found, invalid = scan_problems(folder)
    if not names:
        if invalid:
            more = f" (and {len(invalid) - 1} more)" if len(invalid) > 1 else ""
            raise BadInput(f"{invalid[0].error}{more}; fix it, or pick others with --problem")
        return found
    return _named(folder, found, invalid, names)


def _named(
    folder: Path, found: list[Problem], invalid: list[Invalid], names: list[str]
) -> list[Problem]:
    by_name = {problem.name: problem for problem in found}
    broken = {bad.folder.name: bad for bad in invalid}
    for name in names:
        if name not in by_name and name in broken:
            raise BadInput(broken[name].error)
    missing = [name for name in names if name not in by_name]
    if missing:
        raise BadInput(
            f"{folder}: no problem named {', '.join(missing)} (there are {', '.join(by_name)})"
        )
    return [by_name[name] for name in names]
