"""Fan-out of independent work items: one interface, a local process pool by default."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def default_jobs() -> int:
    """One worker per available core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def map_chunks(
    work: Callable[[list[Item]], list[Result]],
    chunks: Sequence[list[Item]],
    jobs: int,
) -> Iterator[list[Result]]:
    """Run ``work`` on each chunk, yielding results as chunks finish.

    With one job (or one chunk) everything runs in this process: a pool costs
    more to start than small work saves.
    """
    if jobs <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield work(chunk)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(work, chunk) for chunk in chunks]
        for future in as_completed(futures):
            yield future.result()


def balanced_chunks(items: Sequence[Item], weights: Sequence[int], count: int) -> list[list[Item]]:
    """Split ``items`` into about ``count`` chunks of similar total weight, heaviest first."""
    order = sorted(range(len(items)), key=lambda i: -weights[i])
    chunks: list[list[Item]] = [[] for _ in range(max(1, count))]
    loads = [0] * len(chunks)
    for index in order:
        target = loads.index(min(loads))
        chunks[target].append(items[index])
        loads[target] += weights[index]
    return [c for c in chunks if c]
