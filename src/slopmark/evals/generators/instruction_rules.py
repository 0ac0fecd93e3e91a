"""Instruction rule makers: each draws a rule, adds it to the task's config and states it.

A maker is a function ``(rng, ctx) -> sentence``: it appends its rules to
``ctx.rules`` (the verifier config) and returns the sentence of the prompt
that states them, so the prompt and the config cannot disagree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

#: Words that read as filler in model prose; none is commonly part of a longer word.
SLOP = (
    "delve", "tapestry", "vibrant", "crucial", "seamless", "leverage", "unlock", "elevate",
    "realm", "testament", "robust", "game-changer", "cutting-edge", "innovative", "synergy",
    "embark", "bustling", "nestled", "furthermore", "moreover", "amazing", "incredible",
    "utilize", "showcase", "pivotal", "intricate", "meticulous", "landscape",
)  # fmt: skip


@dataclass
class Context:
    """What the makers of one task share: drawn slots, the casing, the rules so far."""

    slots: dict[str, str]
    case: str | None = None
    rules: list[dict[str, Any]] = field(default_factory=list)

    def text(self, pattern: str) -> str:
        """``pattern`` with slots filled, in the task's casing."""
        return cased(pattern.format(**self.slots), self.case)


Maker = Callable[[random.Random, Context], str]


def cased(text: str, case: str | None) -> str:
    if case == "lower":
        return text.lower()
    if case == "upper":
        return text.upper()
    if case == "title":
        return " ".join(word[:1].upper() + word[1:] for word in text.split(" "))
    return text


def _quoted(items: Sequence[str], joiner: str = "and") -> str:
    shown = [f"'{item}'" for item in items]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" {joiner} " + shown[-1]


# --- rule makers ---------------------------------------------------------------

_COUNT_PHRASES = {
    "exact": ("Use exactly {n} {noun}.", "Write exactly {n} {noun}, no more and no fewer."),
    "range": ("Use between {n} and {hi} {noun}.", "Keep it to {n}–{hi} {noun}."),
    "max": ("Use at most {n} {noun}.", "Do not go over {n} {noun}."),
    "min": ("Use at least {n} {noun}.", "Write no fewer than {n} {noun}."),
}


def _count(
    rule: str,
    noun: str,
    mode: str,
    values: Sequence[int],
    span: int = 0,
    phrase: str | None = None,
    **extra: Any,
) -> Maker:
    """A count rule, ``mode`` exact, range (n to n + span), max or min; n drawn from ``values``."""

    def make(rng: random.Random, ctx: Context) -> str:
        n = rng.choice(values)
        bounds = {"exact": {"n": n}, "range": {"min": n, "max": n + span}}.get(mode)
        ctx.rules.append({"rule": rule, **(bounds or {mode: n}), **extra})
        return (phrase or rng.choice(_COUNT_PHRASES[mode])).format(n=n, hi=n + span, noun=noun)

    return make


words = partial(_count, "word_count", "words")
sentences = partial(_count, "sentence_count", "sentences")
paragraphs = partial(_count, "paragraph_count", "paragraphs, separated by blank lines")
bullets = partial(_count, "bullet_count", "bullet points (lines starting with '- ')", marker="-")


def lines(
    mode: str, values: Sequence[int], span: int = 0, blank: bool = False, phrase: str | None = None
) -> Maker:
    noun = "lines, blank lines included" if blank else "lines (blank lines don't count)"
    return _count("line_count", noun, mode, values, span, phrase, count_blank=blank)


def max_chars(values: Sequence[int]) -> Maker:
    def make(rng: random.Random, ctx: Context) -> str:
        n = rng.choice(values)
        ctx.rules.append({"rule": "max_chars", "n": n})
        return f"Keep the whole answer within {n} characters, spaces included."

    return make


_FORBID_PHRASES = {
    False: (
        "Do not write {words} anywhere, in any capitalisation, not even inside a longer word.",
        "Never use {words}, not even inside a longer word.",
    ),
    True: (
        "Do not use {words} as a word, in any capitalisation; a longer word that merely "
        "contains {them} is fine.",
        "Avoid {words} in any capitalisation; only whole words count, so a longer word that "
        "merely contains {them} is fine.",
    ),
}


def forbid(k: int, *fixed: str, pool: Sequence[str] = SLOP, whole_word: bool = False) -> Maker:
    """Forbid ``fixed`` (slot patterns) plus ``k`` other words drawn from ``pool``.

    ``whole_word``: only whole words count ("etc" is not in "sketchbook");
    otherwise a longer word containing the text breaks the rule too
    ("molecules" for "molecule"). Texts without a letter ("!", ":") are
    forbidden anywhere.
    """

    def make(rng: random.Random, ctx: Context) -> str:
        texts = [pattern.format(**ctx.slots) for pattern in fixed]
        texts += rng.sample([word for word in pool if word not in texts], k)
        wordy = all(any(c.isalpha() for c in text) for text in texts)
        how = {"whole_word": whole_word} if wordy else {}
        ctx.rules.extend({"rule": "forbidden_substring", "text": text, **how} for text in texts)
        if not wordy:
            return f"Do not use {_quoted(texts, 'or')} anywhere in your answer."
        them = "it" if len(texts) == 1 else "one of them"
        return rng.choice(_FORBID_PHRASES[whole_word]).format(words=_quoted(texts, "or"), them=them)

    return make


def require(*patterns: str, count: int = 1, whole_word: bool = True) -> Maker:
    """Require each text (slot patterns, in the task's casing) at least ``count`` times."""

    def make(rng: random.Random, ctx: Context) -> str:
        texts = [ctx.text(pattern) for pattern in patterns]
        how = "as whole words" if whole_word else "even inside longer words"
        for text in texts:
            rule = {"rule": "required_phrase", "text": text, "whole_word": whole_word}
            ctx.rules.append({**rule, "min_count": count} if count > 1 else rule)
        if count > 1:
            each = " each" if len(texts) > 1 else ""
            return f"Mention {_quoted(texts)} at least {count} times{each} ({how}, any case)."
        phrase = "phrases" if len(texts) > 1 else "phrase"
        sentence = rng.choice((f"Include the {phrase} {{t}}", "Your answer must contain {t}"))
        return sentence.format(t=_quoted(texts)) + f" ({how}, any case)."

    return make


_EXACT = "nothing {where} {it}"
_LOOSE = "nothing {where} {it}; capitalisation and final punctuation don't matter"
_EDGE_PHRASES = {
    "starts_with": (
        ('Begin your answer with exactly "{t}" ({how}).', True),
        ('The very first words must be "{t}" ({how}).', False),
    ),
    "ends_with": (
        ('End your answer with exactly "{t}" ({how}).', True),
        ('The very last words must be "{t}" ({how}).', False),
    ),
}


def _edge(rule: str, pattern: str) -> Maker:
    """The answer starts or ends with ``pattern``; "exactly" in the prompt makes case count."""

    def make(rng: random.Random, ctx: Context) -> str:
        text = ctx.text(pattern)
        phrase, exact = rng.choice(_EDGE_PHRASES[rule])
        ctx.rules.append({"rule": rule, "text": text, "exact": exact})
        where = "before" if rule == "starts_with" else "after"
        it = "it" if exact else "them"
        return phrase.format(t=text, how=(_EXACT if exact else _LOOSE).format(where=where, it=it))

    return make


def starts(pattern: str) -> Maker:
    return _edge("starts_with", pattern)


def ends(pattern: str) -> Maker:
    return _edge("ends_with", pattern)


def letter(
    greeting: str, sign_off: str | None, paragraphs: Sequence[int] = (), called: str = "greeting"
) -> Maker:
    """A letter: exactly this greeting (or header) first and sign-off last; neither is a paragraph.

    ``paragraphs`` (one count, or the least and most) adds a count of the
    body's paragraphs, the greeting and sign-off left out even when they stand
    on lines of their own.
    """

    def make(rng: random.Random, ctx: Context) -> str:
        opening, closing = ctx.text(greeting), sign_off and ctx.text(sign_off)
        ctx.rules.append({"rule": "starts_with", "text": opening, "exact": True})
        edges = {"greeting": opening}
        if not closing:
            said = f'Open with exactly "{opening}"; the {called} may stand on a line of its own.'
        else:
            ctx.rules.append({"rule": "ends_with", "text": closing, "exact": True})
            edges["sign_off"] = closing
            said = (
                f'Open with exactly "{opening}" and close with exactly "{closing}" (it may break '
                f"over two lines); the {called} and sign-off may stand on lines of their own."
            )
        return said + (" " + _body(ctx, called, edges, paragraphs) if paragraphs else "")

    return make


def _body(ctx: Context, called: str, edges: dict[str, str], counts: Sequence[int]) -> str:
    low, high = min(counts), max(counts)
    ctx.rules.append(
        {"rule": "paragraph_count", **({"n": low} if low == high else {"min": low, "max": high})}
        | edges
    )
    many = f"{low}–{high}" if low < high else f"exactly {low}"
    many = "a single paragraph" if high == 1 else f"{many} paragraphs separated by blank lines"
    if "sign_off" in edges:
        return f"Neither is a paragraph: between them write {many}, and nothing else."
    return f"The {called} is not a paragraph: after it write {many}, and nothing else."


def ban(candidates: str, k: int = 1) -> Maker:
    """Ban ``k`` letters of ``candidates`` that no required text of the task contains."""

    def make(rng: random.Random, ctx: Context) -> str:
        kept = ("required_phrase", "starts_with", "ends_with")
        needed = " ".join(r["text"] for r in ctx.rules if r["rule"] in kept).lower()
        letters = "".join(rng.sample([c for c in candidates if c not in needed], k))
        ctx.rules.append({"rule": "banned_letters", "letters": letters})
        shown = _quoted(list(letters))
        return f"Do not use the letter{'s' if k > 1 else ''} {shown} anywhere, upper or lower case."

    return make


_CASE_PHRASES = {
    "lower": "Write in lowercase only, with no capital letters at all.",
    "upper": "Write everything in CAPITAL LETTERS.",
    "title": "Write it in Title Case: capitalise every word except short ones like 'of' or 'the'.",
}


def case(kind: str) -> Maker:
    """Set the task's casing; list it first so later makers write their texts in it."""

    def make(rng: random.Random, ctx: Context) -> str:
        ctx.case = kind
        ctx.rules.append({"rule": "casing", "case": kind})
        return _CASE_PHRASES[kind]

    return make
