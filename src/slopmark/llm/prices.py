"""The versioned price table shipped with slopmark, and the cost of one completion.

``cost = input_tokens · input_per_mtok / 10⁶ + output_tokens · output_per_mtok / 10⁶``
in USD. The table (``prices/<version>.json``) is indicative: a cost the API
reports itself always wins over it (`usage_numbers`). A price
of 0 is only accepted for a model marked ``"local": true`` — an unlisted or
unpriced model costs None (unknown), never 0.

Model names are matched case-insensitively, first whole, then without a
router's ``vendor/`` prefix (``openai/gpt-4o`` → ``gpt-4o``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from slopmark.errors import BadInput

DEFAULT_VERSION = "2026-11"
_PER = 1_000_000
_PRICE = {"type": "number", "minimum": 0}
_SCHEMA = {
    "type": "object",
    "required": ["version", "models"],
    "properties": {
        "version": {"type": "string", "minLength": 1},
        "models": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "required": ["input_per_mtok", "output_per_mtok"],
                "properties": {
                    "input_per_mtok": _PRICE,
                    "output_per_mtok": _PRICE,
                    "local": {"type": "boolean"},
                },
                "additionalProperties": False,
            },
        },
    },
}


@dataclass(frozen=True)
class Price:
    """USD per million input and output tokens; ``local`` models run on own hardware."""

    input_per_mtok: float
    output_per_mtok: float
    local: bool = False


@dataclass(frozen=True)
class PriceTable:
    version: str
    models: Mapping[str, Price]

    def price(self, model: str) -> Price | None:
        name = model.strip().lower()
        found = self.models.get(name)
        if found is None and "/" in name:
            found = self.models.get(name.rsplit("/", 1)[1])
        return found

    def cost(self, model: str, input_tokens: int | None, output_tokens: int | None) -> float | None:
        """USD for one completion; None when the model or a token count is unknown."""
        price = self.price(model)
        if price is None or input_tokens is None or output_tokens is None:
            return None
        spent = input_tokens * price.input_per_mtok + output_tokens * price.output_per_mtok
        return spent / _PER


def parse_prices(data: Any, origin: str = "price table") -> PriceTable:
    """Build a `PriceTable` from decoded JSON; `BadInput` names the first bad entry."""
    error = best_match(Draft202012Validator(_SCHEMA).iter_errors(data))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "top level"
        raise BadInput(f"{origin}: {where}: {error.message}")
    models = {str(name).lower(): _price(entry) for name, entry in data["models"].items()}
    wrong = [name for name, price in models.items() if price.local != _is_free(price)]
    if wrong:
        raise BadInput(
            f"{origin}: model {wrong[0]!r}: a price of 0 is only allowed, and required,"
            " with 'local': true"
        )
    return PriceTable(version=data["version"], models=models)


def _price(entry: dict[str, Any]) -> Price:
    inputs, outputs = float(entry["input_per_mtok"]), float(entry["output_per_mtok"])
    return Price(inputs, outputs, entry.get("local", False))


def _is_free(price: Price) -> bool:
    return price.input_per_mtok == 0 and price.output_per_mtok == 0


def available_versions() -> list[str]:
    folder = resources.files("slopmark.llm") / "prices"
    names = (p.name for p in folder.iterdir())
    return sorted(n.removesuffix(".json") for n in names if n.endswith(".json"))


@lru_cache(maxsize=8)
def load_prices(version: str = DEFAULT_VERSION) -> PriceTable:
    """The shipped table of ``version``; `BadInput` lists the versions when it is unknown."""
    shipped = available_versions()
    if version not in shipped:
        raise BadInput(f"unknown price table {version!r}; shipped: {', '.join(shipped)}")
    path = resources.files("slopmark.llm") / "prices" / f"{version}.json"
    table = parse_prices(json.loads(path.read_text(encoding="utf-8")), f"prices/{version}.json")
    if table.version != version:
        raise BadInput(f"prices/{version}.json says version {table.version!r}; fix the file")
    return table


def cost(model: str, input_tokens: int | None, output_tokens: int | None) -> float | None:
    """USD by the default price table; None when the model or a token count is unknown."""
    return load_prices().cost(model, input_tokens, output_tokens)


def usage_numbers(
    usage: Any, model: str, prices: PriceTable | None = None
) -> tuple[int | None, int | None, float | None]:
    """``(input tokens, output tokens, USD)`` of one completion's ``usage`` (None: unknown).

    The cost is the one the API reports (``usage.cost``, as OpenRouter sends),
    else the price of ``model`` in ``prices`` (the default table when None).
    """
    input_tokens = getattr(usage, "prompt_tokens", None)
    output_tokens = getattr(usage, "completion_tokens", None)
    spent = reported_cost(usage)
    if spent is None:
        spent = (prices or load_prices()).cost(model, input_tokens, output_tokens)
    return input_tokens, output_tokens, spent


def reported_cost(usage: Any) -> float | None:
    """``usage.cost`` when the API reports one as a number ≥ 0 (OpenRouter does)."""
    extra = getattr(usage, "model_extra", None) or {}
    value = extra.get("cost")
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None
