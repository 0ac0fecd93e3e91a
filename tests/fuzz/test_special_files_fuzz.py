"""Bounded fuzzing of every reader with trees of special files (hypothesis, fixed seed):
FIFOs, character devices, sockets and symlinks in, out, to a device, looping or dangling
never hang a reader, never end in a traceback, and each one left unread is named
(`fuzz.special`)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from fuzz.special import KINDS, READERS, SUFFIXES, Entry, build, entries

pytestmark = pytest.mark.slow  # starts python

#: Trees per reader: each runs the real CLI once (about a second).
EXAMPLES = 6
#: One tree with every kind of entry under every suffix.
EVERY = [Entry(f"{kind}{suffix}", kind) for kind in KINDS for suffix in SUFFIXES]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_kind_under_every_suffix_at_once(reader: str, tmp_path: Path) -> None:
    READERS[reader](build(tmp_path, EVERY), EVERY)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_no_reader_hangs_on_special_files_or_leaves_one_unnamed(reader: str) -> None:
    @seed(20261229)
    @settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(entries())
    def check(drawn: list[Entry]) -> None:
        with tempfile.TemporaryDirectory(prefix="special-") as name:
            READERS[reader](build(Path(name), drawn), drawn)

    check()
