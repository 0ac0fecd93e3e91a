"""Text reports over orders."""

from __future__ import annotations

from collections import Counter, defaultdict
from decimal import Decimal

from models import Order, Status
from pricing import quote

HEADER = """\
Order report
============
"""


def revenue_by_country(orders: list[Order]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for order in orders:
        if order.status in (Status.PLACED, Status.SHIPPED):
            totals[order.customer.country] += quote(order)["total"]
    return dict(sorted(totals.items(), key=lambda item: (-item[1], item[0])))


def revenue_by_status(orders: list[Order]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for order in orders:
        if order.status in (Status.PLACED, Status.SHIPPED):
            totals[order.status.value] += quote(order)["total"]
    return dict(sorted(totals.items(), key=lambda item: (-item[1], item[0])))


def best_sellers(orders: list[Order], top: int = 5) -> list[tuple[str, int]]:
    counts = Counter(
        line.product.sku
        for order in orders
        if order.status is not Status.CANCELLED
        for line in order.lines
    )
    return counts.most_common(top)


def describe_status(order: Order) -> str:
    match order.status:
        case Status.DRAFT if not order.lines:
            return "empty draft"
        case Status.DRAFT:
            return f"draft with {len(order.lines)} lines"
        case Status.PLACED | Status.SHIPPED as status:
            return f"{status.value} on {order.placed_on or 'unknown date'}"
        case _:
            return "cancelled"


def render(
    orders: list[Order], width: int = 60, show_empty: bool = False, currency: str = "EUR"
) -> str:
    """Render a report of ``orders``; drafts without lines only with ``show_empty``."""
    lines = [HEADER]
    shown = 0
    for order in sorted(orders, key=lambda o: (o.status.value, o.number)):
        if not order.lines and not show_empty:
            continue
        state = describe_status(order)
        if order.status is Status.CANCELLED:
            lines.append(f"#{order.number:<6} {'-':>12}  {state}")
            continue
        try:
            prices = quote(order)
        except ValueError as error:
            lines.append(f"#{order.number:<6} {'error':>12}  {error}")
            continue
        total = prices["total"]
        marker = "*" if total > 1000 else " " if total > 0 else "?"
        label = order.customer.label()
        if len(label) > width - 30:
            label = label[: width - 33] + "..."
        lines.append(f"#{order.number:<6} {total:>9} {currency}{marker} {label} ({state})")
        shown += 1
    if shown == 0:
        lines.append("no orders" if not orders else "no orders to show")
    elif shown > 1 and width >= 40:
        lines.append("-" * width)
        lines.append(f"{shown} orders")
    return "\n".join(lines)
