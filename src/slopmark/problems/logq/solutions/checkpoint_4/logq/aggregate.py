"""Group matching records and compute aggregate columns (count, sum, avg, ...)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from logq.errors import UsageError
from logq.records import Record
from logq.table import Cell, Column, Table
from logq.values import parse_number

Reducer = Callable[[Sequence[Decimal]], Decimal]


def _percentile(percent: int) -> Reducer:
    """Nearest rank: the value at 1-based position ceil(percent / 100 * n) of the sorted values."""

    def reduce(values: Sequence[Decimal]) -> Decimal:
        rank = math.ceil(Decimal(percent) * len(values) / 100)
        return sorted(values)[max(rank, 1) - 1]

    return reduce


REDUCERS: dict[str, Reducer] = {
    "sum": lambda values: sum(values, Decimal(0)),
    "avg": lambda values: sum(values, Decimal(0)) / len(values),
    "min": min,
    "max": max,
    "p50": _percentile(50),
    "p95": _percentile(95),
}
COUNT = "count"


@dataclass(frozen=True)
class AggSpec:
    """One ``--agg`` column: ``count`` or ``FUNCTION:FIELD`` (named as written)."""

    name: str
    function: str
    field: str | None = None


@dataclass(frozen=True)
class Plan:
    """What to aggregate: the group-by fields and the aggregate columns."""

    group_by: tuple[str, ...]
    aggs: tuple[AggSpec, ...]

    def columns(self) -> tuple[Column, ...]:
        groups = [Column(name, is_group=True) for name in self.group_by]
        return (*groups, *(Column(spec.name, is_group=False) for spec in self.aggs))


def parse_agg(text: str) -> AggSpec:
    """Parse ``count`` or ``FUNCTION:FIELD``; raise :class:`UsageError` naming the problem."""
    function, separator, field_name = text.partition(":")
    if function == COUNT:
        if separator:
            raise UsageError(f"invalid --agg {text!r}: count takes no field")
        return AggSpec(text, COUNT)
    if function not in REDUCERS:
        known = ", ".join([COUNT, *REDUCERS])
        raise UsageError(f"invalid --agg {text!r}: unknown function {function!r} (use {known})")
    if not field_name:
        raise UsageError(f"invalid --agg {text!r}: expected {function}:FIELD")
    return AggSpec(text, function, field_name)


def parse_group_by(arguments: Iterable[str]) -> tuple[str, ...]:
    """Split comma-separated ``--group-by`` arguments into field names, in order."""
    names = tuple(name for argument in arguments for name in argument.split(","))
    if "" in names:
        raise UsageError("invalid --group-by: empty field name")
    return names


def build_plan(group_by: tuple[str, ...], agg_texts: Sequence[str]) -> Plan:
    """Combine the options into a plan; ``count`` is the default aggregate."""
    aggs = tuple(parse_agg(text) for text in agg_texts) or (AggSpec(COUNT, COUNT),)
    names = [spec.name for spec in aggs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise UsageError(f"--agg {duplicates[0]!r} given more than once")
    return Plan(group_by, aggs)


@dataclass
class _Group:
    """Running state of one group: how many records, and the numeric values seen."""

    count: int = 0
    numbers: dict[str, list[Decimal]] = field(default_factory=dict)

    def add(self, record: Record, fields: Iterable[str]) -> None:
        self.count += 1
        for name in fields:
            number = parse_number(record.fields.get(name, ""))
            if number is not None:
                self.numbers.setdefault(name, []).append(number)

    def value(self, spec: AggSpec) -> Decimal | None:
        if spec.field is None:
            return Decimal(self.count)
        values = self.numbers.get(spec.field)
        return REDUCERS[spec.function](values) if values else None


def aggregate(records: Iterable[Record], plan: Plan) -> Table:
    """Group ``records`` by the plan's fields (first-appearance order) and compute each row."""
    numeric_fields = {spec.field for spec in plan.aggs if spec.field is not None}
    groups: dict[tuple[str | None, ...], _Group] = {}
    for record in records:
        key = tuple(record.fields.get(name) for name in plan.group_by)
        groups.setdefault(key, _Group()).add(record, numeric_fields)
    if not plan.group_by and not groups:
        groups[()] = _Group()
    rows = tuple(_row(key, group, plan) for key, group in groups.items())
    return Table(plan.columns(), rows)


def _row(key: tuple[str | None, ...], group: _Group, plan: Plan) -> tuple[Cell, ...]:
    return (*key, *(group.value(spec) for spec in plan.aggs))
