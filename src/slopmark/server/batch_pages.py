"""The console's batch paste: a JSONL file uploaded as a form, every line scored and stored.

``POST /console/batch`` takes a multipart form (``file``: one ``{"task", "model",
"answer"}`` object per line, as ``slopmark eval paste --jsonl``; ``token`` on a
server with a token) and answers a page with each line's result: its run, or why it
was refused. ``POST /api/eval/batch`` takes the same file (the token as a bearer
header, as every write of the API) and answers the same results as JSON.

A form needs no script, so the page checks the write rule itself: the server's token
(form field or header), else a client on 127.0.0.1. Both refuse a form a browser
posts from another site's page (``Origin``, ``Sec-Fetch-Site``): it would come
from the user's own address.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.encoders import jsonable_encoder
from fastapi.responses import HTMLResponse, JSONResponse, Response

from slopmark.errors import BadInput
from slopmark.evals.batch import Outcome, Stored, store_batch, tally
from slopmark.server.api import WRITE
from slopmark.server.pages import error_page, render
from slopmark.server.state import LOCAL_CLIENTS, ServerState, get_state, require_writer

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
State = Annotated[ServerState, Depends(get_state)]
Upload = Annotated[UploadFile, File(description="One JSON object per line.")]
Token = Annotated[str | None, Form()]
_CROSS_SITE = "a batch paste is taken only from this server's own pages, not another site's"
#: What a browser says of a request made by a page of the same site (or typed in).
_OWN_SITE = ("same-origin", "none")


def _cross_site(request: Request) -> bool:
    """Whether a browser sent this form from a page of another site."""
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    return (site is not None and site not in _OWN_SITE) or (origin not in (None, own))


def _given_token(request: Request, field: str | None) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return field or (value.strip() if scheme.lower() == "bearer" else None) or None


def refusal(request: Request, state: ServerState, token: str | None) -> tuple[int, str] | None:
    """(status, why) when this upload may not write to the store; None when it may."""
    if _cross_site(request):
        return 403, _CROSS_SITE
    given = _given_token(request, token)
    if state.token is not None:
        if given is None:
            return 401, "this server has a token: give it in the form's Token field"
        ok = secrets.compare_digest(given.encode(), state.token.encode())
        return None if ok else (403, "the token is wrong; use the server's --token")
    host = request.client.host if request.client else None
    if host not in LOCAL_CLIENTS:
        return 403, f"writes from {host} are refused: this server has no token"
    return None


def _text(upload: UploadFile) -> str:
    """The uploaded file as text; `BadInput` when it is not UTF-8 or holds no line."""
    name = upload.filename or "the upload"
    try:
        text = upload.file.read().decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadInput(f"{name}: not UTF-8 text ({error})") from error
    if not text.strip():
        raise BadInput(f"{name}: no lines in it; give one JSON object per line")
    return text


def _batch(state: ServerState, upload: UploadFile) -> list[Outcome]:
    return store_batch(state.engine, _text(upload), state.pool())


@router.post("/console/batch")
def batch_page(request: Request, state: State, file: Upload, token: Token = None) -> Response:
    """Score and store every line of the uploaded file; a page of each line's result."""
    refused = refusal(request, state, token)
    if refused is not None:
        return error_page(request, *refused)
    outcomes = _batch(state, file)
    return render(
        request, "console_batch.html", nav="console", file_name=file.filename or "upload",
        outcomes=outcomes, counts=tally(outcomes),
    )  # fmt: skip


api = APIRouter(prefix="/api")


@api.post("/eval/batch", status_code=201, dependencies=[Depends(require_writer)], responses=WRITE)
def batch_api(request: Request, state: State, file: Upload) -> Any:
    """Score and store every line of a JSONL upload (one ``{"task", "model", "answer"}``
    object per line) as its own paste run, as ``slopmark eval paste --jsonl`` does: each
    line's run, or why it was refused, and the counts. A bad line refuses only itself."""
    if _cross_site(request):
        return JSONResponse({"detail": _CROSS_SITE}, status_code=403)
    outcomes = _batch(state, file)
    lines = [
        {"line": o.line, "run": o.run} if isinstance(o, Stored) else asdict(o) for o in outcomes
    ]
    counts = tally(outcomes)
    summary = asdict(counts) | {"failed": counts.failed}
    return jsonable_encoder({"summary": summary, "lines": lines})
