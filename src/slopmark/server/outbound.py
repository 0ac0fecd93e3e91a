"""Which model servers ``slopmark serve`` may call, and with which key.

A caller of ``POST /api/eval/suite`` names a ``base_url``; the server calls
it only when it is on loopback (127.0.0.0/8, ::1, localhost) or under one of
the base URLs allowed at start (``--allow-base-url``, repeatable). The
server's own key (``$SLOPMARK_API_KEY``) is sent only to the one endpoint it
was configured for (``--key-base-url``), never to any other URL, loopback
included; a caller may pass their own key per request instead.

URLs are compared after normalising: scheme and host lower-cased, the
default port dropped, no trailing slash. A URL with user info
(``http://user@host``), a query or a fragment is refused: none is needed to
reach an OpenAI-compatible server, and user info is a classic way to make a
URL look like another host.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from slopmark.errors import BadInput
from slopmark.evals.endpoint import url_parts
from slopmark.llm.keys import PLACEHOLDER_KEY

__all__ = ["Outbound", "normal_url"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _parts(value: str, what: str) -> SplitResult:
    parts = url_parts(value, what)
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise BadInput(f"{what} {value!r}: user info in the URL is not allowed; pass api_key")
    if parts.query or parts.fragment:
        raise BadInput(f"{what} {value!r}: a base URL has no query or fragment")
    return parts


def normal_url(value: str, what: str = "base_url") -> str:
    """``value`` normalised (see the module doc); `BadInput` naming ``what`` when unusable."""
    parts = _parts(value, what)
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    shown = f"[{host}]" if ":" in host else host
    port = parts.port if parts.port not in (None, _DEFAULT_PORTS[scheme]) else None
    netloc = f"{shown}:{port}" if port is not None else shown
    return f"{scheme}://{netloc}{parts.path.rstrip('/')}"


def is_loopback(url: str) -> bool:
    """Whether a normalised URL's host is this machine (localhost, 127.0.0.0/8, ::1)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _under(url: str, base: str) -> bool:
    """Whether normalised ``url`` is ``base`` or a path below it (same scheme, host, port)."""
    return url == base or url.startswith(base + "/")


@dataclass(frozen=True)
class Outbound:
    """The outbound policy of one server (see the module doc)."""

    allowed: tuple[str, ...] = ()
    key: str | None = None
    key_url: str | None = None

    @classmethod
    def configured(
        cls, allowed: Iterable[str] = (), key: str | None = None, key_url: str | None = None
    ) -> Outbound:
        """The policy from the serve options (`BadInput` naming the option when a URL is bad)."""
        bases = tuple(normal_url(url, "--allow-base-url") for url in allowed)
        home = normal_url(key_url, "--key-base-url") if key_url else None
        return cls(bases + ((home,) if home else ()), key or None, home)

    def target(self, base_url: str) -> str:
        """The normalised ``base_url`` when the server may call it, else `BadInput` saying why."""
        url = normal_url(base_url)
        if is_loopback(url) or any(_under(url, base) for base in self.allowed):
            return url
        raise BadInput(
            f"base_url {base_url!r}: this server calls only loopback and the URLs allowed "
            "at start (slopmark serve --allow-base-url URL)"
        )

    def key_for(self, url: str, caller_key: str | None) -> str:
        """The key to send to normalised ``url``: the caller's, else the server's own when
        ``url`` is the endpoint it was configured for, else a placeholder (no secret)."""
        if caller_key:
            return caller_key
        if self.key and url == self.key_url:
            return self.key
        return PLACEHOLDER_KEY
