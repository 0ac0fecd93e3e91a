"""Which providers a model may name, and what makes a model endpoint's URL usable.

Shared by ``slopmark eval`` (``--model``, ``--base-url``), SUITE.yaml files and
the API (``base_url``, through `slopmark.server.outbound`), so every edge
refuses the same values in the same words. Error messages name the option or
field through ``what``. Nothing here does I/O: option parsing imports it.
"""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit

from slopmark.errors import BadInput

OPENAI_COMPAT = "openai-compat"
#: The providers a model may name (``PROVIDER:NAME``).
PROVIDERS = (OPENAI_COMPAT,)
URL_EXAMPLE = "e.g. http://127.0.0.1:8080/v1"


def check_provider(provider: str, what: str) -> str:
    """``provider`` when one of `PROVIDERS`, else `BadInput` naming ``what``."""
    if provider not in PROVIDERS:
        raise BadInput(f"{what}: unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")
    return provider


def parse_model(value: str, what: str = "--model") -> tuple[str, str]:
    """``PROVIDER:NAME`` → (provider, name); the name may itself hold colons."""
    provider, colon, name = value.partition(":")
    if not colon or not name:
        raise BadInput(f"{what} {value!r}: expected PROVIDER:NAME, e.g. openai-compat:qwen3-8b")
    return check_provider(provider, f"{what} {value!r}"), name


def url_parts(value: str, what: str) -> SplitResult:
    """``value`` split, when it is an http(s) URL with a host and a valid port."""
    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as error:
        raise BadInput(f"{what} {value!r}: not a URL ({error})") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise BadInput(f"{what} {value!r}: expected an http(s) URL, {URL_EXAMPLE}")
    return parts


def check_base_url(value: str | None, what: str = "--base-url") -> str:
    """``value`` when it names an endpoint (see `url_parts`), else `BadInput` naming ``what``."""
    if not value:
        raise BadInput(f"{what} is missing: give the server's URL, {URL_EXAMPLE}")
    url_parts(value, what)
    return value
