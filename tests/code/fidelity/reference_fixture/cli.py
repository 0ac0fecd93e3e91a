"""Command line of the order app."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from pricing import quote, split_payments
from reports import best_sellers, render, revenue_by_country
from storage import Repository, StorageError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="orders")
    parser.add_argument("--data", type=Path, default=Path("data"))
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="start an order")
    new.add_argument("email")
    add = commands.add_parser("add", help="add a product to an order")
    add.add_argument("number", type=int)
    add.add_argument("sku")
    add.add_argument("quantity", type=int, nargs="?", default=1)
    place = commands.add_parser("place", help="place an order")
    place.add_argument("number", type=int)
    show = commands.add_parser("quote", help="price an order")
    show.add_argument("number", type=int)
    show.add_argument("--coupon")
    show.add_argument("--split", type=int, default=1)
    commands.add_parser("report", help="print the order report")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        repo = Repository(args.data)
    except StorageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.command == "new":
        customer = repo.customers.get(args.email)
        if customer is None:
            print(f"error: unknown customer {args.email}", file=sys.stderr)
            return 2
        from models import Order

        repo.orders.append(Order(repo.next_number(), customer))
    elif args.command == "add":
        product = repo.products.get(args.sku)
        if product is None:
            print(f"error: unknown product {args.sku}", file=sys.stderr)
            return 2
        repo.find_order(args.number).add(product, args.quantity)
    elif args.command == "place":
        repo.find_order(args.number).place(date.today())
    elif args.command == "quote":
        prices = quote(repo.find_order(args.number), args.coupon)
        for key, value in prices.items():
            print(f"{key:>10}: {value}")
        if args.split > 1:
            print(
                "payments:", ", ".join(str(p) for p in split_payments(prices["total"], args.split))
            )
        return 0
    else:
        print(render(repo.orders))
        for country, total in revenue_by_country(repo.orders).items():
            print(f"{country}: {total}")
        print("best sellers:", best_sellers(repo.orders) or "none")
        return 0
    repo.save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
