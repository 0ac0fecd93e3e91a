"""The adapter over the native core: input order and progress while the core works."""

from __future__ import annotations

from slopmark.code.analysis import FileAnalysis
from slopmark.code.engine import Engine


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
