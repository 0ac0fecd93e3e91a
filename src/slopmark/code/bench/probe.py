"""The evaluator's own probe of its registries: is a failed fetch the network's fault?

A fetch of the dependency phase that says it could not reach its source is the
environment's error only if the registries the evaluator configured cannot be
reached either. The submission controls the manifest and the workspace's own
configuration (``.cargo/config.toml``, ``.npmrc``, git or tarball sources), so
it could name a source that never answers and have a failing checkpoint taken
for an environment error. The probe runs the same tool, in the same sandbox
with the network on, from a folder the harness writes (so no workspace
configuration applies), asking each registry for a package none holds: an
answer — "no such package" — proves the registry is in reach.

Which registries: cargo's ``crates-io`` when the manifest takes a crate from
it, and every registry the evaluator names in the session's variables
(``CARGO_REGISTRIES_<NAME>_INDEX``, set by the problem's ``env:``; variables win
over any configuration file); npm's registry as the session's variables and
the tool's own configuration give it (``npm_config_registry``).
"""

from __future__ import annotations

import re
import shutil
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.network import unreachable
from slopmark.sandbox.base import Limits, Mount, Sandbox

#: A package no registry holds: a registry that answers for it is in reach.
ABSENT = "slopmark-probe-absent"
#: A registry the evaluator names (`CARGO_REGISTRIES_<NAME>_INDEX`).
NAMED_REGISTRY = re.compile(r"CARGO_REGISTRIES_([A-Z0-9_]+)_INDEX")
PROBE_LIMITS = Limits(wall_s=120.0, memory_mb=2048, max_procs=64, network=True)
DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
CARGO_PACKAGE = '[package]\nname = "slopmark-probe"\nversion = "0.0.0"\nedition = "2021"\n'
NPM_PACKAGE = '{"name": "slopmark-probe", "version": "0.0.0", "dependencies": {"%s": "*"}}\n'


@dataclass(frozen=True)
class Probe:
    """Where and how to probe: the harness's folder, the sandbox's mounts and variables."""

    sandbox: Sandbox
    folder: Path
    mounts: list[Mount]
    env: Mapping[str, str]

    def reaches(self, argv: list[str], files: Mapping[str, str]) -> bool:
        """Whether ``argv``, run in a fresh folder holding ``files``, reached its registry."""
        shutil.rmtree(self.folder, ignore_errors=True)
        for name, text in files.items():
            (self.folder / name).parent.mkdir(parents=True, exist_ok=True)
            (self.folder / name).write_text(text, encoding="utf-8")
        done = self.sandbox.run(
            argv, workdir=self.folder, mounts=self.mounts, limits=PROBE_LIMITS, env=dict(self.env)
        )
        return done.limit is None and not unreachable(done.stderr + done.stdout)


def _dependency_tables(manifest: Mapping[str, object]) -> Iterator[Mapping[str, object]]:
    for owner in [manifest, *_mappings(manifest.get("target"))]:
        for name in DEPENDENCY_TABLES:
            table = owner.get(name) if isinstance(owner, Mapping) else None
            if isinstance(table, Mapping):
                yield table
    workspace = manifest.get("workspace")
    if isinstance(workspace, Mapping) and isinstance(workspace.get("dependencies"), Mapping):
        yield workspace["dependencies"]


def _mappings(value: object) -> list[Mapping[str, object]]:
    return [item for item in value.values() if isinstance(item, Mapping)] if isinstance(
        value, Mapping
    ) else []  # fmt: skip


def _from_crates_io(spec: object) -> bool:
    if isinstance(spec, str):
        return True
    return isinstance(spec, Mapping) and not ({"registry", "git", "path", "workspace"} & set(spec))


def uses_crates_io(manifest: Path) -> bool:
    """Whether ``manifest`` takes a crate from crates.io (a version with no other source);
    an unreadable manifest is taken to."""
    try:
        parsed = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True
    return any(
        _from_crates_io(spec) for table in _dependency_tables(parsed) for spec in table.values()
    )


def cargo_registries(manifest: Path, env: Mapping[str, str]) -> list[str | None]:
    """The registries to probe for a cargo fetch of ``manifest`` (None: crates.io)."""
    named: list[str | None] = [
        found.group(1).lower() for name in sorted(env) if (found := NAMED_REGISTRY.fullmatch(name))
    ]
    return [*([None] if uses_crates_io(manifest) else []), *named]


def _cargo_files(registry: str | None) -> dict[str, str]:
    where = "" if registry is None else f', registry = "{registry}"'
    dependency = f'probe = {{ package = "{ABSENT}", version = "*"{where} }}\n'
    return {"Cargo.toml": f"{CARGO_PACKAGE}\n[dependencies]\n{dependency}", "src/lib.rs": ""}


def registries_answer(probe: Probe, tool: str, manifest: Path) -> bool:
    """Whether every registry the evaluator configured for ``tool`` answers the probe."""
    if tool == "cargo":
        return all(
            probe.reaches(["cargo", "generate-lockfile"], _cargo_files(registry))
            for registry in cargo_registries(manifest, probe.env)
        )  # fmt: skip
    argv = ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--fetch-retries=0"]
    return probe.reaches(argv, {"package.json": NPM_PACKAGE % ABSENT})
