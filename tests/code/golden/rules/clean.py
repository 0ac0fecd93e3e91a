"""Idiomatic code: no rule of the pack may fire here."""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Order:
    customer: str
    items: tuple[str, ...]
    total: float


def load_orders(path: Path) -> list[Order]:
    with path.open(encoding="utf-8") as handle:
        rows = json.load(handle)
    return [Order(r["customer"], tuple(r["items"]), float(r["total"])) for r in rows]


def by_customer(orders: list[Order]) -> dict[str, list[Order]]:
    grouped: dict[str, list[Order]] = defaultdict(list)
    for order in orders:
        grouped[order.customer].append(order)
    return dict(grouped)


def best_sellers(orders: list[Order], count: int = 3) -> list[tuple[str, int]]:
    return Counter(item for order in orders for item in order.items).most_common(count)


def revenue(orders: list[Order]) -> float:
    return sum(order.total for order in orders)


def describe(order: Order) -> str:
    size = "large" if len(order.items) > 5 else "small"
    return f"{order.customer}: {size} order of {order.total:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Summarise orders.")
    parser.add_argument("path", type=Path)
    parser.add_argument("--top", type=int, default=3)
    args = parser.parse_args(argv)
    orders = load_orders(args.path)
    if not orders:
        print("no orders")
        return 1
    for name, sold in best_sellers(orders, args.top):
        print(f"{name}\t{sold}")
    print(f"revenue\t{revenue(orders):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
