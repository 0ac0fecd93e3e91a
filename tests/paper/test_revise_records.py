"""Records lookup: lines of result files that hold a reported number as a whole token."""

from __future__ import annotations

from pathlib import Path

import pytest

from slopmark.errors import BadInput
from slopmark.paper.revise.records import MAX_BYTES, record_lines


def _records(root: Path) -> Path:
    (root / "runs").mkdir(parents=True)
    (root / "results.csv").write_text("model,acc,f1\nours,81.2,0.93\nbase,79.5,10.935\n")
    (root / "runs" / "log.txt").write_text("step 3000 loss 0.930\nepoch 2: gain 12%\r\n")
    (root / "weights.bin").write_bytes(b"\x00\x0181.2\x00" * 10)
    (root / "huge.txt").write_text("81.2\n" * (MAX_BYTES // 5 + 1))
    (root / ".git").mkdir()
    (root / ".git" / "notes").write_text("81.2\n")
    return root


def test_numbers_match_as_whole_tokens_in_path_order(tmp_path: Path) -> None:
    root = _records(tmp_path / "records")
    assert record_lines(root, ["0.93", "81.2"]) == [("results.csv", 2, "ours,81.2,0.93")]


def test_latex_forms_of_numbers_are_looked_up_as_records_write_them(tmp_path: Path) -> None:
    root = _records(tmp_path / "records")
    assert record_lines(root, ["3{,}000", "12\\%"]) == [
        ("runs/log.txt", 1, "step 3000 loss 0.930"),
        ("runs/log.txt", 2, "epoch 2: gain 12%"),
    ]


def test_no_numbers_or_no_match_gives_nothing(tmp_path: Path) -> None:
    root = _records(tmp_path / "records")
    assert record_lines(root, []) == []
    assert record_lines(root, ["0.9", "10.93"]) == []


def test_a_single_records_file_is_read(tmp_path: Path) -> None:
    root = _records(tmp_path / "records")
    assert record_lines(root / "results.csv", ["10.935"]) == [
        ("results.csv", 3, "base,79.5,10.935")
    ]


def test_a_missing_records_folder_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="no such records folder"):
        record_lines(tmp_path / "absent", ["1"])
