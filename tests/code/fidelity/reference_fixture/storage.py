"""Loading and saving the catalogue and the orders."""

from __future__ import annotations

import csv
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from pathlib import Path

from models import Customer, Order, Product, Status

log = logging.getLogger(__name__)


class StorageError(Exception):
    """A data file is missing or malformed."""


@contextmanager
def opened(path: Path, mode: str = "r") -> Iterator[object]:
    try:
        handle = path.open(mode, encoding="utf-8", newline="")
    except OSError as error:
        raise StorageError(f"{path}: {error.strerror}") from error
    with handle:
        yield handle


def load_products(path: Path) -> dict[str, Product]:
    products = {}
    with opened(path) as handle:
        for number, row in enumerate(csv.DictReader(handle), 2):
            try:
                price = Decimal(row["price"])
            except (KeyError, InvalidOperation):
                log.warning("%s:%d: bad price, row skipped", path, number)
                continue
            tags = frozenset(t for t in row.get("tags", "").split(";") if t)
            products[row["sku"]] = Product(
                row["sku"], row["name"], price, float(row["weight"] or 0), tags
            )
    return products


def load_customers(path: Path) -> dict[str, Customer]:
    customers = {}
    with opened(path) as handle:
        for number, row in enumerate(csv.DictReader(handle), 2):
            try:
                years = int(row["loyalty_years"])
            except (KeyError, ValueError):
                log.warning("%s:%d: bad loyalty years, row skipped", path, number)
                continue
            vip = row.get("vip", "").lower() in ("1", "yes", "true")
            customers[row["email"]] = Customer(row["email"], row["country"], years, vip)
    return customers


def save_orders(path: Path, orders: list[Order]) -> None:
    records = []
    for order in orders:
        records.append(
            {
                "number": order.number,
                "customer": order.customer.email,
                "status": order.status.value,
                "placed_on": order.placed_on.isoformat() if order.placed_on else None,
                "lines": [[line.product.sku, line.quantity] for line in order.lines],
            }
        )
    with opened(path, "w") as handle:
        json.dump(records, handle, indent=2)


def load_orders(
    path: Path, products: dict[str, Product], customers: dict[str, Customer]
) -> list[Order]:
    with opened(path) as handle:
        try:
            records = json.load(handle)
        except json.JSONDecodeError as error:
            raise StorageError(f"{path}:{error.lineno}: {error.msg}") from error
    orders = []
    for record in records:
        customer = customers.get(record["customer"])
        if customer is None:
            log.warning("order %s: unknown customer %s", record["number"], record["customer"])
            continue
        order = Order(record["number"], customer, status=Status(record["status"]))
        for sku, quantity in record["lines"]:
            if sku in products and quantity > 0:
                order.add(products[sku], quantity)
        orders.append(order)
    return orders


class Repository:
    """The app's data, loaded from one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.products = load_products(folder / "products.csv")
        self.customers = load_customers(folder / "customers.csv")
        orders_file = folder / "orders.json"
        self.orders = (
            load_orders(orders_file, self.products, self.customers) if orders_file.exists() else []
        )

    def next_number(self) -> int:
        return max((order.number for order in self.orders), default=0) + 1

    def find_order(self, number: int) -> Order:
        for order in self.orders:
            if order.number == number:
                return order
        raise StorageError(f"no order {number}")

    def save(self) -> None:
        save_orders(self.folder / "orders.json", self.orders)
