"""Prices, discounts, shipping and tax."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from models import Customer, Order, OrderLine

CENT = Decimal("0.01")
EU_COUNTRIES = frozenset({"DE", "FR", "IT", "ES", "NL", "BE", "AT", "PL"})
VAT = {"DE": Decimal("0.19"), "FR": Decimal("0.20"), "IT": Decimal("0.22")}


def money(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def line_discount(line: OrderLine, customer: Customer) -> Decimal:
    """Discount rate for one order line."""
    rate = Decimal(0)
    if line.quantity >= 100:
        rate = Decimal("0.15")
    elif line.quantity >= 20:
        rate = Decimal("0.10")
    elif line.quantity >= 5:
        rate = Decimal("0.05")
    if "clearance" in line.product.tags:
        rate += Decimal("0.20")
    if customer.vip and rate < Decimal("0.25"):
        rate = min(rate + Decimal("0.05"), Decimal("0.25"))
    return rate


def shipping_cost(order: Order) -> Decimal:
    weight = order.total_weight()
    country = order.customer.country
    if weight == 0:
        return Decimal(0)
    if country == "DE":
        base = Decimal("4.90")
    elif country in EU_COUNTRIES:
        base = Decimal("9.90")
    else:
        base = Decimal("24.90")
    heavy = [line for line in order.lines if line.product.is_heavy]
    surcharge = Decimal("15.00") * len(heavy)
    if weight > 30:
        surcharge += Decimal("0.50") * Decimal(str(weight - 30))
    if order.customer.vip or (order.customer.loyalty_years > 5 and weight < 10):
        return money(surcharge)
    return money(base + surcharge)


def quote(order: Order, coupon: str | None = None) -> dict[str, Decimal]:
    """Price an order: subtotal, discounts, coupon, shipping and tax."""
    customer = order.customer
    subtotal = Decimal(0)
    discount = Decimal(0)
    for line in order.lines:
        amount = line.subtotal()
        subtotal += amount
        discount += amount * line_discount(line, customer)
    if coupon:
        code = coupon.strip().upper()
        if code == "WELCOME10" and customer.loyalty_years == 0:
            discount += (subtotal - discount) * Decimal("0.10")
        elif code.startswith("FLAT") and code[4:].isdigit():
            discount += min(Decimal(code[4:]), subtotal - discount)
        elif code == "FREESHIP":
            pass
        else:
            raise ValueError(f"unknown coupon {coupon!r}")
    shipping = Decimal(0) if coupon == "FREESHIP" else shipping_cost(order)
    net = subtotal - discount + shipping
    if customer.country in VAT:
        tax = net * VAT[customer.country]
    elif customer.country in EU_COUNTRIES:
        tax = net * Decimal("0.21")
    else:
        tax = Decimal(0)
    return {
        "subtotal": money(subtotal),
        "discount": money(discount),
        "shipping": money(shipping),
        "tax": money(tax),
        "total": money(net + tax),
    }


def split_payments(total: Decimal, parts: int) -> list[Decimal]:
    if parts < 1:
        raise ValueError("parts must be at least 1")
    share = money(total / parts)
    payments = [share] * parts
    payments[-1] = total - share * (parts - 1)
    return payments
