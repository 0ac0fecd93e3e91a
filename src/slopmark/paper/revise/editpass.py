"""One editor pass by edit blocks: one call per ``.tex`` file, blocks applied, files checked.

Every call sees the tree as the round started (the other files read-only), so
the calls do not depend on one another. A block applies only when its quote
occurs exactly once in the file (`apply_blocks`); an edited file replaces the
old one only when `accept_file` finds its structure kept and its length
within 0.5–2.5× the old. Everything refused is a logged `Rejection`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from slopmark.paper.revise.chat import Chat, Messages
from slopmark.paper.revise.edits import (
    EditBlock,
    Rejection,
    accept_file,
    apply_blocks,
    parse_edit_blocks,
)
from slopmark.paper.revise.rounds import Call

NO_BLOCK = "no usable edit block in the answer (and no NOCHANGE)"


@dataclass(frozen=True)
class Draft:
    """What an editor pass produced."""

    tree: dict[str, str]
    applied: tuple[EditBlock, ...] = ()
    rejections: tuple[Rejection, ...] = ()
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class _FileEdit:
    text: str
    applied: list[EditBlock]
    rejections: list[Rejection]


def file_order(tree: Mapping[str, str], main: str) -> list[str]:
    """The main file first, then the others by path."""
    return sorted(tree, key=lambda path: (path != main, path))


def edit_by_blocks(
    chat: Chat,
    tree: Mapping[str, str],
    main: str,
    prompt_for: Callable[[str], Messages],
    max_tokens: int | None = None,
) -> Draft:
    """Ask ``chat`` once per file (``prompt_for(file)``) and apply what it answers."""
    revised, applied, rejections, calls = dict(tree), [], [], []
    for file in file_order(tree, main):
        answer = chat.ask(prompt_for(file), max_tokens)
        calls.append(Call("editor", file, answer))
        edit = edit_file(tree[file], answer, file)
        revised[file] = edit.text
        applied += edit.applied
        rejections += edit.rejections
    return Draft(revised, tuple(applied), tuple(rejections), tuple(calls))


def edit_file(text: str, answer: str, file: str) -> _FileEdit:
    """The file after ``answer``'s blocks, or unchanged with the reasons it was refused."""
    blocks = parse_edit_blocks(answer, file)
    if blocks is None:
        return _FileEdit(text, [], [])
    if not blocks:
        return _FileEdit(text, [], [Rejection(file, NO_BLOCK)])
    edited, applied, rejected = apply_blocks(text, blocks)
    if not applied or edited == text:
        return _FileEdit(text, [], rejected)
    refusal = accept_file(text, edited, file)
    if refusal is not None:
        return _FileEdit(text, [], [*rejected, refusal])
    return _FileEdit(edited, applied, rejected)
