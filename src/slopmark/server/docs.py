"""``/docs``: the API reference as a plain page, built from the app's own OpenAPI document.

FastAPI's default docs page loads Swagger UI from a CDN; this one needs
nothing from outside the server, like every other page. Descriptions are the
routes' docstrings: their reStructuredText code (````x````, ```x```) is shown
as code (`slopmark.server.inline_code`), not as raw backticks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from slopmark.server.inline_code import paragraphs
from slopmark.server.pages import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
_METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Parameter:
    name: str
    where: str
    required: bool
    type: str


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    summary: str
    description: str
    parameters: tuple[Parameter, ...]
    responses: tuple[str, ...]


def _parameter(raw: dict[str, Any]) -> Parameter:
    schema = raw.get("schema", {})
    kinds = [s.get("type", "?") for s in schema.get("anyOf", [schema])]
    return Parameter(raw["name"], raw.get("in", "?"), bool(raw.get("required")), " | ".join(kinds))


def operations(spec: dict[str, Any]) -> list[Operation]:
    """Every operation of an OpenAPI document, in path order."""
    found = []
    for path, item in sorted(spec.get("paths", {}).items()):
        for method in _METHODS:
            if method in item:
                raw = item[method]
                found.append(
                    Operation(
                        method=method.upper(),
                        path=path,
                        summary=raw.get("summary", ""),
                        description=raw.get("description", ""),
                        parameters=tuple(_parameter(p) for p in raw.get("parameters", ())),
                        responses=tuple(sorted(raw.get("responses", {}))),
                    )
                )
    return found


@router.get("/docs")
def docs(request: Request) -> Response:
    found = operations(request.app.openapi())
    return render(request, "docs.html", operations=found, paragraphs=paragraphs)
