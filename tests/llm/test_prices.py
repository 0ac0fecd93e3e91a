"""The versioned price table and the cost of a completion."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from slopmark.errors import BadInput
from slopmark.llm.prices import DEFAULT_VERSION, available_versions, cost, load_prices, parse_prices


def shipped_json() -> Any:
    path = resources.files("slopmark.llm") / "prices" / f"{DEFAULT_VERSION}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_shipped_table_loads_and_says_it_is_indicative() -> None:
    data = shipped_json()
    table = load_prices()
    assert table.version == DEFAULT_VERSION == data["version"]
    assert data["indicative"] is True and "indicative" in data["note"].lower()
    assert len(table.models) >= 10
    assert DEFAULT_VERSION in available_versions()


def test_the_cost_is_tokens_times_price_per_million() -> None:
    # gpt-4o: $2.50 in, $10.00 out per million tokens
    assert cost("gpt-4o", 1_000_000, 0) == pytest.approx(2.5)
    assert cost("gpt-4o", 2_000, 500) == pytest.approx((2_000 * 2.5 + 500 * 10.0) / 1e6)


def test_a_router_prefix_and_casing_do_not_matter() -> None:
    assert cost("openai/GPT-4o", 1000, 1000) == cost("gpt-4o", 1000, 1000)


@pytest.mark.parametrize(
    ("model", "input_tokens", "output_tokens"),
    [
        ("mystery-model-7b", 10, 10),
        ("gpt-4o:free", 10, 10),
        ("gpt-4o", None, 10),
        ("gpt-4o", 10, None),
    ],
)
def test_unknown_is_none_never_zero(
    model: str, input_tokens: int | None, output_tokens: int | None
) -> None:
    assert cost(model, input_tokens, output_tokens) is None


def test_a_listed_local_model_costs_zero() -> None:
    price = load_prices().price("smollm2-135m-instruct")
    assert price is not None and price.local
    assert cost("smollm2-135m-instruct", 500, 500) == 0.0


def test_only_local_models_are_free() -> None:
    for name, price in load_prices().models.items():
        is_free = price.input_per_mtok == 0 and price.output_per_mtok == 0
        assert is_free == price.local, name


def table(**entry: object) -> dict[str, Any]:
    return {"version": "t", "models": {"m": entry}}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], r"top level: \[\] is not of type 'object'"),
        ({"models": {}}, "top level: 'version' is a required property"),
        ({"version": "t", "models": {}}, "models: {} should be non-empty"),
        ({"version": "t", "models": {"m": 3}}, "models/m: 3 is not of type 'object'"),
        (table(input_per_mtok=1), "models/m: 'output_per_mtok' is a required property"),
        (table(input_per_mtok=-1, output_per_mtok=1), "input_per_mtok: -1 is less than"),
        (table(input_per_mtok=True, output_per_mtok=1), "True is not of type 'number'"),
        (table(input_per_mtok="1", output_per_mtok=1), "'1' is not of type 'number'"),
        (table(input_per_mtok=1, output_per_mtok=1, locl=True), "'locl' was unexpected"),
        (table(input_per_mtok=0, output_per_mtok=0), "'m': a price of 0 is only allowed"),
        (table(input_per_mtok=1, output_per_mtok=2, local=True), "and required, with 'local'"),
    ],
)
def test_a_bad_table_is_rejected_with_the_entry_named(data: Any, message: str) -> None:
    with pytest.raises(BadInput, match=message) as raised:
        parse_prices(data, "prices/test.json")
    assert str(raised.value).startswith("prices/test.json: ")


def test_an_unknown_version_lists_the_shipped_ones() -> None:
    with pytest.raises(
        BadInput, match=f"unknown price table '1999-01'; shipped: .*{DEFAULT_VERSION}"
    ):
        load_prices("1999-01")
