"""Domain objects of a small order-processing app."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal


class Status(enum.Enum):
    DRAFT = "draft"
    PLACED = "placed"
    SHIPPED = "shipped"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price: Decimal
    weight_kg: float = 0.0
    tags: frozenset[str] = frozenset()

    @property
    def is_heavy(self) -> bool:
        return self.weight_kg > 20 or "bulky" in self.tags


@dataclass
class OrderLine:
    product: Product
    quantity: int = 1

    def subtotal(self) -> Decimal:
        return self.product.price * self.quantity


@dataclass
class Customer:
    email: str
    country: str
    loyalty_years: int = 0
    vip: bool = False

    def label(self) -> str:
        suffix = " (VIP)" if self.vip else ""
        return f"{self.email}{suffix}"


@dataclass
class Order:
    number: int
    customer: Customer
    lines: list[OrderLine] = field(default_factory=list)
    status: Status = Status.DRAFT
    placed_on: date | None = None

    def add(self, product: Product, quantity: int = 1) -> None:
        """Add ``quantity`` of ``product``, merging with an existing line."""
        if quantity <= 0:
            raise ValueError(f"quantity must be positive, got {quantity}")
        for line in self.lines:
            if line.product.sku == product.sku:
                line.quantity += quantity
                return
        self.lines.append(OrderLine(product, quantity))

    def remove(self, sku: str) -> bool:
        before = len(self.lines)
        self.lines = [line for line in self.lines if line.product.sku != sku]
        return len(self.lines) != before

    def total_weight(self) -> float:
        return sum(line.product.weight_kg * line.quantity for line in self.lines)

    def place(self, today: date) -> None:
        if self.status is not Status.DRAFT:
            raise RuntimeError(f"order {self.number} is already {self.status.value}")
        if not self.lines:
            raise RuntimeError(f"order {self.number} is empty")
        self.status = Status.PLACED
        self.placed_on = today
