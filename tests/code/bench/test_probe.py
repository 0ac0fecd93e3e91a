"""Which registries the evaluator's probe asks (`slopmark.code.bench.probe`)."""

from __future__ import annotations

from pathlib import Path

from slopmark.code.bench.probe import cargo_registries, uses_crates_io

LOOPBACK = {"CARGO_REGISTRIES_LOOPBACK_INDEX": "sparse+http://127.0.0.1:1/index/", "HOME": "/h"}


def manifest(tmp_path: Path, dependencies: str) -> Path:
    path = tmp_path / "Cargo.toml"
    path.write_text(f'[package]\nname = "app"\nversion = "0.1.0"\n\n{dependencies}')
    return path


def test_a_crate_with_a_version_and_no_other_source_comes_from_crates_io(tmp_path: Path) -> None:
    assert uses_crates_io(manifest(tmp_path, '[dependencies]\nserde = "1"\n'))
    assert uses_crates_io(manifest(tmp_path, '[dev-dependencies]\nrand = { version = "0.8" }\n'))
    target = "[target.'cfg(unix)'.build-dependencies]\ncc = \"1\"\n"
    assert uses_crates_io(manifest(tmp_path, target))
    assert uses_crates_io(manifest(tmp_path, '[workspace.dependencies]\nlog = "0.4"\n'))


def test_crates_from_elsewhere_do_not_make_the_probe_ask_crates_io(tmp_path: Path) -> None:
    others = (
        '[dependencies]\na = { path = "../a" }\nb = { git = "https://example.invalid/b" }\n'
        'c = { version = "1", registry = "decoy" }\nd = { workspace = true }\n'
    )  # fmt: skip
    path = manifest(tmp_path, others)
    assert not uses_crates_io(path)
    assert cargo_registries(path, LOOPBACK) == ["loopback"]


def test_the_evaluators_named_registries_are_asked_with_crates_io(tmp_path: Path) -> None:
    path = manifest(tmp_path, '[dependencies]\nserde = "1"\n')
    assert cargo_registries(path, LOOPBACK) == [None, "loopback"]
    assert cargo_registries(path, {}) == [None]


def test_an_unreadable_manifest_is_taken_to_use_crates_io(tmp_path: Path) -> None:
    assert uses_crates_io(manifest(tmp_path, "[dependencies\n"))
    assert uses_crates_io(tmp_path / "missing.toml")
