"""Answers to instruction tasks for the verifier agreement benchmark, each with a reader's verdict.

An answer is built as a structure (blocks of lines of sentences of words), so
what a careful reader counts is known from how it was built, not from a
verifier's reading of the text: words are the tokens written (``don't`` and
``well-known`` are one word each), sentences the sentences written, paragraphs
the body blocks (a letter's greeting and sign-off are not paragraphs), bullets
the lines written with the marker the prompt asks for. Where a rule matches
text (forbidden and required phrases, the start and the end), the reader's
verdict is stated by the edit that made the answer, reading the prompt: a
prompt that says "not even inside a longer word" forbids "molecules" for
"molecule", one that says "as a word" allows "sketchbook" for "etc"; a prompt
that says "exactly" makes case and final punctuation count.

For every task: one compliant answer, the same answer wrapped in chat-style
lines ("Here is my answer." before it, "I hope this helps." after it), and
near misses, each changing one rule's subject by the least that matters (or
that should not matter).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from itertools import cycle
from typing import Any

Rule = Mapping[str, Any]
MINOR = {"a", "an", "and", "as", "at", "but", "by", "for", "in", "nor", "of", "on", "or", "the"}
MINOR |= {"to", "with"}
#: The words answers are made of: plain English prose, read in order and cycled.
PROSE = """
The morning light came slowly over the quiet harbour and the old town woke up one
street at a time. A baker opened the shutters, a cyclist rang a bell, and two friends
shared a well-known joke about the weather. Nobody was in a hurry, so the day felt long
and easy. We don't often notice how much a small place can hold: a market with warm
bread, a library with worn chairs, a park where children play until dusk. People here
say it's the kind of town where neighbours still lend ladders and share their tools.
In the afternoon the wind turned, clouds gathered above the hills and a light rain
began to fall. Shops kept their doors open anyway, because a little rain never kept
anyone at home for long. By evening the streets were shining, the lamps came on one by
one and the smell of dinner drifted from open windows. A child ran past with a paper
boat, an old man laughed at his dog, and the first stars found a gap in the clouds.
Tomorrow will bring its own small stories, just as every day has done before.
"""
#: Words holding each letter a lipogram could ban, to break banned_letters with.
LETTER_WORDS = ("every", "zebra", "orange", "star", "under", "quick", "pizza", "jump")
WRAP_BEFORE, WRAP_AFTER = "Here is my answer.", "I hope this helps."
#: Words that a reader counts as one word and IFEval's \w+ as two.
ONE_WORD_TWO_TOKENS = ("well-known", "don't", "it's", "day-to-day", "we'll")
#: Unrelated longer words holding a text, where a natural one exists.
LONGER = {
    "etc": "sketchbook", "minor": "minority", "various": "variously", "image of": "image offers",
    "picture of": "picture often", "prince": "princess", "victor": "victorious",
    "pros": "prospects", "cons": "constant", "action items": "transaction items",
    "3 march": "13 March", "14 july": "14 Julyish",
}  # fmt: skip


@dataclass
class Line:
    sentences: list[tuple[list[str], str]]  # (words, terminator)
    mark: str = ""


@dataclass
class Block:
    lines: list[Line]
    role: str = "body"  # body | greeting | sign_off | wrapper


@dataclass
class Doc:
    blocks: list[Block]
    separator: str = "\n\n"
    quoted: bool = False

    def render(self) -> str:
        text = self.separator.join(
            "\n".join(render_line(line) for line in block.lines) for block in self.blocks
        )
        return f'"{text}"' if self.quoted else text

    def lines(self) -> list[Line]:
        return [line for block in self.blocks for line in block.lines]


def render_line(line: Line) -> str:
    body = " ".join(" ".join(words) + end for words, end in line.sentences)
    return f"{line.mark} {body}" if line.mark else body


@dataclass(frozen=True)
class Answer:
    """One answer to one task, and the careful reader's verdict on each of its rules."""

    task_id: str
    kind: str
    text: str
    reader: tuple[bool, ...]


@dataclass(frozen=True)
class Prompt:
    """What the task's prompt says about how each phrase is matched."""

    text: str

    def exactly(self, phrase: str) -> bool:
        return f'exactly "{phrase}"' in self.text

    def inside_words(self, phrase: str) -> bool | None:
        """Does the prompt say a longer word holding ``phrase`` counts (None: it does not say)?"""
        for sentence in re.split(r"(?<=\.)\s", self.text):
            if f"'{phrase}'" in sentence or f'"{phrase}"' in sentence:
                if "not even inside" in sentence or "even inside longer" in sentence:
                    return True
                if "as a word" in sentence or "whole word" in sentence:
                    return False
        return None

    def marker(self) -> str:
        if "numbered" in self.text and "not use bullet" not in self.text:
            return "numbered"
        return "-" if "starting with '- '" in self.text or '"- "' in self.text else "any"


# --- what a reader counts ----------------------------------------------------


def _is_word(token: str) -> bool:
    return any(c.isalnum() for c in token)


def count(doc: Doc, rule: Rule, prompt: Prompt) -> int:
    name = rule["rule"]
    if name == "word_count":
        return sum(_is_word(w) for line in doc.lines() for ws, _ in line.sentences for w in ws)
    if name == "sentence_count":
        return sum(any(map(_is_word, ws)) for line in doc.lines() for ws, _ in line.sentences)
    if name == "paragraph_count":
        return sum(block.role in ("body", "wrapper") for block in doc.blocks)
    if name == "line_count":
        blank = rule.get("count_blank", False) and doc.separator.strip() == ""
        return len(doc.lines()) + (len(doc.blocks) - 1) * blank
    return sum(_marked(line.mark, prompt.marker()) for line in doc.lines())


def _marked(mark: str, wanted: str) -> bool:
    if wanted == "numbered":
        return bool(re.fullmatch(r"\d+[.)]", mark))
    return bool(mark) and (wanted == "any" or mark == wanted)


def _within(value: int, rule: Rule) -> bool:
    if "n" in rule:
        return bool(value == rule["n"])
    return bool(rule.get("min", 0) <= value <= rule.get("max", 10**9))


def _cased(text: str, case: str) -> bool:
    words = [w.lstrip("\"'(#*") for w in text.split()]
    if case == "lower":
        return not any(c.isupper() for c in text)
    if case == "upper":
        return not any(c.islower() for c in text)
    return all(
        not w[:1].isalpha() or w[0].isupper() or (i and w.lower().strip(".,!?:;\"'") in MINOR)
        for i, w in enumerate(words)
    )


COUNTED = ("word_count", "sentence_count", "paragraph_count", "line_count", "bullet_count")


def reader_verdicts(
    doc: Doc, rules: Sequence[Rule], prompt: Prompt, said: Mapping[int, bool]
) -> tuple[bool, ...]:
    """The reader's verdict on each rule: counted from ``doc``, or ``said`` by the edit."""
    text = doc.render()
    wrapped = {block.role for block in doc.blocks if block.role == "wrapper"}
    verdicts = []
    for index, rule in enumerate(rules):
        name = rule["rule"]
        if index in said:
            held = said[index]
        elif name in COUNTED:
            held = _within(count(doc, rule, prompt), rule)
        elif name == "max_chars":
            held = len(text) <= rule["n"]
        elif name == "banned_letters":
            held = not set(rule["letters"].lower()) & set(text.lower())
        elif name == "casing":
            held = _cased(text, rule["case"])
        elif name in ("starts_with", "ends_with"):
            held = not (wrapped or doc.quoted)
        else:  # forbidden and required phrases: the compliant answer obeys them
            held = True
        verdicts.append(held)
    return tuple(verdicts)


# --- the compliant answer ------------------------------------------------------


def _bounds(rule: Rule | None, default: int) -> tuple[int, int]:
    if rule is None:
        return default, default
    if "n" in rule:
        return rule["n"], rule["n"]
    low = rule.get("min", 0)
    return low, rule.get("max", max(low + 2, low * 2, default))


def _target(rule: Rule | None, default: int) -> int:
    low, high = _bounds(rule, default)
    return (low + high) // 2 if rule else default


class Vocabulary:
    """Words from `PROSE` in order, skipping any a rule of the task forbids or counts."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        banned = "".join(r["letters"] for r in rules if r["rule"] == "banned_letters").lower()
        texts = [r["text"].lower() for r in rules if "text" in r]
        self.case = next((r["case"] for r in rules if r["rule"] == "casing"), None)
        words = [re.sub(r"[^\w'-]", "", w) for w in PROSE.split()]
        self.words = cycle(
            w
            for w in words
            if w
            and not set(w.lower()) & set(banned)
            and not any(t in w.lower() or w.lower() in t.split() for t in texts)
        )

    def take(self, n: int, first: bool) -> list[str]:
        return [self.cased(next(self.words), first and i == 0) for i in range(n)]

    def opening(self, word: str) -> str:
        """``word`` as the first word of a sentence."""
        return word if self.case in ("lower", "upper") else word[:1].upper() + word[1:]

    def cased(self, word: str, first: bool) -> str:
        if self.case == "lower":
            return word.lower()
        if self.case == "upper":
            return word.upper()
        if self.case == "title" and (first or word.lower() not in MINOR):
            return word[:1].upper() + word[1:]
        return word.lower() if self.case == "title" else word


def _split(total: int, parts: int) -> list[int]:
    return [total // parts + (i < total % parts) for i in range(parts)]


class Builder:
    """The compliant answer to a task, laid out as its rules ask."""

    def __init__(self, rules: Sequence[Rule], prompt: Prompt) -> None:
        self.rules = {r["rule"]: r for r in rules}
        self.required = [r for r in rules if r["rule"] == "required_phrase"]
        self.prompt = prompt
        self.vocab = Vocabulary(rules)
        start, end = self.rules.get("starts_with"), self.rules.get("ends_with")
        self.start = start["text"] if start else None
        self.end = end["text"] if end else None
        paragraphs = self.rules.get("paragraph_count", {})
        letter = bool(self.start and self.start.endswith(","))
        self.greeting = paragraphs.get("greeting") or (self.start if letter else None)
        sign_off = paragraphs.get("sign_off") or (self.end if letter and self.end else None)
        self.sign_off = sign_off if sign_off and "," in sign_off else None

    def doc(self) -> Doc:
        blocks = [Block([Line([(self.greeting.split(), "")])], "greeting")] if self.greeting else []
        blocks += self.body()
        if self.sign_off:
            head, name = self.sign_off.split(",", 1)
            lines = [Line([(head.split(), ",")]), Line([(name.split(), "")])]
            blocks.append(Block(lines, "sign_off"))
        return Doc(blocks)

    def layout(self) -> tuple[str, list[int]]:
        """prose / lines / bullets, and how many units (sentences, lines, bullets) per block."""
        blocks = _target(self.rules.get("paragraph_count"), 1)
        if _target(self.rules.get("bullet_count"), 0):
            return "bullets", [_target(self.rules.get("bullet_count"), 0)]
        if "line_count" in self.rules:
            rule = self.rules["line_count"]
            total = _target(rule, 1) - (blocks - 1) * rule.get("count_blank", False)
            return "lines", _split(total - (self.start is not None and blocks > 1), blocks)
        sentences = _target(self.rules.get("sentence_count"), 2 * blocks)
        return "prose", _split(max(sentences, blocks), blocks)

    def fixed(self) -> list[list[str]]:
        """The required phrases, each as often as required."""
        return [r["text"].split() for r in self.required for _ in range(r.get("min_count", 1))]

    def body(self) -> list[Block]:
        kind, sizes = self.layout()
        units = sum(sizes)
        pieces: list[list[str]] = [[] for _ in range(units)]
        for index, words in enumerate(self.fixed()):
            pieces[index % units].extend(words)
        intro = self.start is not None and self.greeting is None
        fixed_words = sum(len(p) for p in pieces) + len(
            self.start.split() if self.start and intro else []
        )
        fixed_words += len(self.end.split()) if self.end and not self.sign_off else 0
        fixed_words += len(self.greeting.split()) if self.greeting else 0
        fixed_words += len(self.sign_off.split()) if self.sign_off else 0
        total = _target(self.rules.get("word_count"), 5 * units + fixed_words)
        for i, (piece, size) in enumerate(
            zip(pieces, _split(max(total - fixed_words, units), units), strict=True)
        ):
            piece[:0] = self.vocab.take(size, first=i == 0 and not intro)
        return self.arrange(kind, sizes, pieces, intro)

    def arrange(
        self, kind: str, sizes: list[int], pieces: list[list[str]], intro: bool
    ) -> list[Block]:
        end = "" if kind == "bullets" else "."
        if kind == "prose":
            pieces = [[self.vocab.opening(p[0]), *p[1:]] if p else p for p in pieces]
        units = [[(piece, end)] for piece in pieces]
        if intro and self.start and kind != "bullets":
            units[0][0] = (self.start.split() + units[0][0][0], end)
        if self.end and not self.sign_off:
            last_words, _ = units[-1][-1]
            units[-1][-1] = (last_words + self.end.split(), "")
        marker = self.prompt.marker()
        lines = [
            Line(unit, _mark(marker, i) if kind == "bullets" else "")
            for i, unit in enumerate(units)
        ]
        if intro and self.start and kind == "bullets":
            lines.insert(0, Line([(self.start.split(), "")]))
            sizes = [sizes[0] + 1, *sizes[1:]]
        if kind == "prose":
            return self.paragraphs(sizes, [unit for line in lines for unit in line.sentences])
        blocks, at = [], 0
        for size in sizes:
            blocks.append(Block(lines[at : at + size]))
            at += size
        return blocks

    def paragraphs(self, sizes: list[int], sentences: list[tuple[list[str], str]]) -> list[Block]:
        blocks, at = [], 0
        for size in sizes:
            blocks.append(Block([Line(sentences[at : at + size])]))
            at += size
        return blocks


def _mark(marker: str, index: int) -> str:
    return f"{index + 1}." if marker == "numbered" else "-" if marker == "any" else marker


# --- the answers ----------------------------------------------------------------

Edit = Callable[[Doc], "tuple[Doc, dict[int, bool]] | None"]


def answers(task_id: str, prompt_text: str, rules: Sequence[Rule]) -> Iterator[Answer]:
    """The compliant answer, the wrapped one and every near miss for one task."""
    prompt = Prompt(prompt_text)
    base = Builder(rules, prompt).doc()
    reader = reader_verdicts(base, rules, prompt, {})
    if not all(reader):
        failing = [r["rule"] for r, ok in zip(rules, reader, strict=True) if not ok]
        raise ValueError(f"{task_id}: the compliant answer breaks {failing}: {base.render()!r}")
    yield Answer(task_id, "compliant", base.render(), reader)
    wrapped = deepcopy(base)
    wrapped.blocks[:0] = [Block([Line([(WRAP_BEFORE[:-1].split(), ".")])], "wrapper")]
    wrapped.blocks.append(Block([Line([(WRAP_AFTER[:-1].split(), ".")])], "wrapper"))
    yield Answer(task_id, "wrapped", wrapped.render(), reader_verdicts(wrapped, rules, prompt, {}))
    for index, rule in enumerate(rules):
        for kind, edit in near_misses(index, rule, rules, prompt):
            made = edit(deepcopy(base))
            if made is not None and _intact(made[0], rules, index):
                doc, said = made
                verdicts = reader_verdicts(doc, rules, prompt, said)
                yield Answer(task_id, f"{rule['rule']}: {kind}", doc.render(), verdicts)


def _intact(doc: Doc, rules: Sequence[Rule], target: int) -> bool:
    """Did an edit aimed at rule ``target`` leave every other phrase rule as it was?

    A near miss whose edit also moved a start, end, required or forbidden
    phrase would need a verdict nobody stated, so it is left out.
    """
    flat = " ".join(doc.render().split())
    for index, rule in enumerate(rules):
        text, name = rule.get("text", ""), rule["rule"]
        if index == target or not text:
            continue
        if name == "starts_with" and not flat.startswith(text):
            return False
        if name == "ends_with" and not (doc.quoted or flat.endswith(text)):
            return False
        found = flat.lower().count(text.lower())
        if name == "required_phrase" and found < rule.get("min_count", 1):
            return False
        if name == "forbidden_substring" and found:
            return False
    return True


def near_misses(
    index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt
) -> list[tuple[str, Edit]]:
    """(what, edit) for each near miss of ``rule``; an edit returns None where it cannot apply."""
    from agreement_edits import EDITS

    return EDITS[rule["rule"]](index, rule, rules, prompt)
