"""The provider and endpoint-URL checks every edge shares (CLI options, the API's body)."""

from __future__ import annotations

import pytest

from slopmark.errors import BadInput
from slopmark.evals.endpoint import check_base_url, parse_model
from slopmark.server.outbound import Outbound


def test_a_model_is_provider_colon_name_and_the_name_may_hold_colons() -> None:
    assert parse_model("openai-compat:org/m:q4") == ("openai-compat", "org/m:q4")
    with pytest.raises(BadInput, match=r"^--model 'gpt-4o': expected PROVIDER:NAME"):
        parse_model("gpt-4o")
    with pytest.raises(BadInput, match=r"^model 'acme:x': unknown provider 'acme'; known: openai"):
        parse_model("acme:x", "model")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "--base-url is missing: give the server's URL"),
        ("", "--base-url is missing"),
        ("ftp://x", "--base-url 'ftp://x': expected an http(s) URL, e.g. http://127.0.0.1:8080/v1"),
        ("http:///v1", "--base-url 'http:///v1': expected an http(s) URL"),
        ("http://host:99999/v1", "--base-url 'http://host:99999/v1': not a URL"),
    ],
)
def test_a_base_url_needs_an_http_scheme_a_host_and_a_port_in_range(
    value: str | None, message: str
) -> None:
    with pytest.raises(BadInput) as raised:
        check_base_url(value)
    assert str(raised.value).startswith(message)


def test_a_good_base_url_is_kept_as_given() -> None:
    assert check_base_url("HTTP://127.0.0.1:8080/v1/") == "HTTP://127.0.0.1:8080/v1/"


@pytest.mark.parametrize("value", ["ftp://x", "http://host:99999/v1", "https://"])
def test_the_server_refuses_a_bad_url_with_the_cli_s_words(value: str) -> None:
    with pytest.raises(BadInput) as cli:
        check_base_url(value, "base_url")
    with pytest.raises(BadInput) as server:
        Outbound().target(value)
    assert str(server.value) == str(cli.value)
