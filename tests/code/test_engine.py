"""The adapter over the native core: input order and progress while the core works."""

from __future__ import annotations

from slopmark import _core
from slopmark.code.measure.fileanalysis import FileAnalysis
from slopmark.code.measure.native import Engine


def _source(functions: int) -> bytes:
    body = "".join(
        f"def f{i}(x):\n    if x:\n        return {i}\n    return x\n" for i in range(functions)
    )
    return body.encode()


def test_outcomes_keep_input_order_and_progress_reaches_the_total() -> None:
    # sizes out of order: the core runs big files first, outcomes must not move
    sources = [(_source(n), f"m{n}.py") for n in (3, 40, 1, 12, 0, 25)]
    seen: list[tuple[int, int]] = []
    with_progress = Engine([]).analyze_sources(
        sources, lambda done, total: seen.append((done, total))
    )
    without = Engine([]).analyze_sources(sources)
    assert [o.path for o in with_progress] == [path for _, path in sources]
    counts = [len(o.callables) for o in with_progress if isinstance(o, FileAnalysis)]
    assert counts == [3, 40, 1, 12, 0, 25]
    assert [len(o.callables) for o in without if isinstance(o, FileAnalysis)] == counts
    assert seen[-1] == (len(sources), len(sources))
    assert all(done <= total for done, total in seen)


def _all(stream: _core.Stream) -> list[tuple[int, _core.Record]]:
    found = []
    while batch := stream.next(len(stream)):
        found.extend(batch)
    return found


def _fields(record: _core.Record) -> tuple[object, ...]:
    """A record's fields by name, to compare records."""
    names = [n for n in dir(type(record)) if not n.startswith("_")]
    return (type(record).__name__, *(getattr(record, n) for n in names))


def test_streamed_records_equal_each_file_analysed_alone() -> None:
    sources = [_source(n) for n in (5, 0, 30, 2, 17, 9, 1)] + [b"def f(:\n", b"x = '\xff'\n"]
    streamed = dict(_all(_core.stream("python", sources, jobs=2)))
    assert sorted(streamed) == list(range(len(sources)))
    for index, source in enumerate(sources):
        [(at, alone)] = _all(_core.stream("python", [source], jobs=1))
        assert at == 0 and _fields(alone) == _fields(streamed[index])
    kinds = [getattr(streamed[i], "kind", None) for i in range(len(sources))]
    assert kinds == [None] * 7 + ["syntax", "not-utf8"]


def test_records_are_typed_and_name_their_fields() -> None:
    source = b"# -*- coding: latin-1 -*-\ndef f(x):\n    if x:\n        return 1\n    return x\n"
    found = _all(_core.stream("python", [source, b"def f(:\n"]))
    [(_, measured), (_, failed)] = sorted(found, key=lambda item: item[0])
    assert isinstance(measured, _core.Measured) and isinstance(failed, _core.Failed)
    assert measured.sloc[:6] == bytes([0, 0, 1, 1, 1, 1]) and measured.sloc.count(1) == 4
    assert measured.callables == [("f", 2, 5, 2, 4)]
    assert measured.hits == [] and measured.ignores == [] and measured.syntax is None
    assert measured.declares_encoding
    assert (failed.kind, failed.line) == ("syntax", 1)


def test_a_stream_hands_out_every_record_once_then_nothing() -> None:
    sources = [_source(n) for n in range(40)]
    stream = _core.stream("python", sources)
    assert len(stream) == 40
    first = stream.next(1)
    assert 1 <= len(first) <= 40
    rest = _all(stream)
    assert sorted(i for i, _ in first + rest) == list(range(40))
    assert stream.next(5) == [] and stream.next(5, 0.0) == []


def test_a_wait_with_a_timeout_returns_what_is_there() -> None:
    # two files of 32k lines on one thread: about a second, far longer than the call
    stream = _core.stream("python", [_source(8000)] * 2, jobs=1)
    taken = stream.next(2, 0.0)  # does not wait: at most what finished already
    assert len(taken) < 2
    assert len(taken) + len(_all(stream)) == 2


def test_a_stream_dropped_early_leaves_the_core_usable() -> None:
    stream = _core.stream("python", [_source(300)] * 200, jobs=2)
    assert stream.next(1)
    del stream  # its threads stop taking files; a new analysis is not held up
    again = Engine([]).analyze_sources([(_source(3), "a.py")])
    assert isinstance(again[0], FileAnalysis) and len(again[0].callables) == 3
