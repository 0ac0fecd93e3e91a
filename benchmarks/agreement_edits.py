"""Near misses for the verifier agreement benchmark: one small edit of a compliant answer each.

An edit takes a copy of the compliant answer's structure and returns it
changed, with the reader's verdict on the rule it aims at where that verdict
is about matching text (``said``); counts are read from the structure by
`agreement_answers.reader_verdicts`. An edit that does not apply to a task
returns None.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from agreement_answers import (
    LETTER_WORDS,
    LONGER,
    ONE_WORD_TWO_TOKENS,
    Block,
    Doc,
    Edit,
    Line,
    Prompt,
    Rule,
    Vocabulary,
    count,
)

Made = tuple[Doc, dict[int, bool]] | None
Maker = Callable[[int, Rule, Sequence[Rule], Prompt], list[tuple[str, Edit]]]


def _fixed_words(rules: Sequence[Rule]) -> set[str]:
    texts = [r["text"] for r in rules if "text" in r]
    texts += [r.get(k, "") for r in rules for k in ("greeting", "sign_off")]
    return {w.strip(",.:!?").lower() for t in texts for w in t.split()}


def _fillers(doc: Doc, rules: Sequence[Rule]) -> list[tuple[list[str], int]]:
    """(words, index) of every token of a body sentence that no rule's text holds."""
    fixed = _fixed_words(rules)
    found = []
    for block in doc.blocks:
        if block.role != "body":
            continue
        for line in block.lines:
            for words, _ in line.sentences:
                found += [
                    (words, i) for i, w in enumerate(words) if w.strip(",.:!?").lower() not in fixed
                ]
    return found


def _replace(doc: Doc, rules: Sequence[Rule], tokens: list[str]) -> bool:
    """Put ``tokens`` in place of a filler token in the middle of the answer."""
    fillers = _fillers(doc, rules)
    if not fillers:
        return False
    words, index = fillers[len(fillers) // 2]
    words[index : index + 1] = tokens
    return True


def _has(rules: Sequence[Rule], name: str) -> bool:
    return any(r["rule"] == name for r in rules)


def _bounds(rule: Rule) -> tuple[int, float]:
    if "n" in rule:
        return rule["n"], rule["n"]
    return rule.get("min", 0), rule.get("max", float("inf"))


def _cased(word: str, rules: Sequence[Rule]) -> str:
    return Vocabulary(rules).cased(word, first=False)


# --- counts ---------------------------------------------------------------------


def word_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    low, high = _bounds(rule)

    def over(doc: Doc) -> Made:
        extra = int(high) - count(doc, rule, prompt) + 1
        fillers = _fillers(doc, rules)
        if not fillers:
            return None
        words, at = fillers[len(fillers) // 2]
        words[at:at] = Vocabulary(rules).take(extra, first=False)
        return doc, {}

    def under(doc: Doc) -> Made:
        cut = count(doc, rule, prompt) - low + 1
        fillers = _fillers(doc, rules)
        if len(fillers) < cut:
            return None
        for words, at in sorted(fillers[:cut], key=lambda f: -f[1]):
            if len(words) > 1:
                del words[at]
        return doc, {}

    def at_bound(doc: Doc) -> Made:
        banned = "".join(r["letters"] for r in rules if r["rule"] == "banned_letters")
        probes = [w for w in ONE_WORD_TWO_TOKENS if not set(w) & set(banned)][:2]
        fillers = _fillers(doc, rules)
        if not probes or len(fillers) < 2:
            return None
        for (words, at), probe in zip(fillers[:2], probes, strict=False):
            words[at] = _cased(probe, rules)
        change = int(high if high != float("inf") else low) - count(doc, rule, prompt)
        if change > 0:
            words, at = fillers[-1]
            words[at:at] = Vocabulary(rules).take(change, first=False)
        for _ in range(-change):
            words, at = _fillers(doc, rules)[-1]
            if len(words) < 2:
                return None
            del words[at]
        return doc, {}

    misses = [("one word too few", under)] if low > 0 else []
    misses += [("one word too many", over)] if high != float("inf") else []
    return [*misses, ("at the bound, with hyphenated words and contractions", at_bound)]


def _body_lines(doc: Doc) -> list[Line]:
    return [line for block in doc.blocks if block.role == "body" for line in block.lines]


def sentence_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    low, high = _bounds(rule)

    def split(doc: Doc) -> Made:
        while count(doc, rule, prompt) <= high:
            line = max(_body_lines(doc), key=lambda ln: max(len(w) for w, _ in ln.sentences))
            words, end = max(line.sentences, key=lambda s: len(s[0]))
            if len(words) < 4:
                return None
            at = line.sentences.index((words, end))
            half = len(words) // 2
            second = [Vocabulary(rules).opening(words[half]), *words[half + 1 :]]
            line.sentences[at : at + 1] = [(words[:half], "."), (second, end)]
        return doc, {}

    def merge(doc: Doc) -> Made:
        while count(doc, rule, prompt) >= low:
            line = next((ln for ln in _body_lines(doc) if len(ln.sentences) > 1), None)
            if line is None:
                return None
            (first, _), (second, end) = line.sentences[:2]
            line.sentences[:2] = [(first + second, end)]
        return doc, {}

    misses = [("one sentence too many", split)] if high != float("inf") else []
    return misses + ([("one sentence too few", merge)] if low > 1 else [])


def paragraph_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    low, high = _bounds(rule)

    def split(doc: Doc) -> Made:
        while count(doc, rule, prompt) <= high:
            at, block = next(
                ((i, b) for i, b in enumerate(doc.blocks) if b.role == "body" and _splittable(b)),
                (None, None),
            )
            if block is None or at is None:
                return None
            doc.blocks[at : at + 1] = _halves(block)
        return doc, {}

    def merge(doc: Doc) -> Made:
        body = [i for i, b in enumerate(doc.blocks) if b.role == "body"]
        if len(body) < 2:
            return None
        first, second = doc.blocks[body[0]], doc.blocks.pop(body[1])
        first.lines[-1].sentences += [s for line in second.lines for s in line.sentences]
        return doc, {}

    def spaced(doc: Doc) -> Made:
        if len(doc.blocks) < 2:
            return None
        doc.separator = "\n  \n"
        return doc, {}

    misses = [("one paragraph too many", split)] if high != float("inf") else []
    misses += [("one paragraph too few", merge)] if low > 1 else []
    return [*misses, ("blank lines holding spaces", spaced)]


def _splittable(block: Block) -> bool:
    return len(block.lines) > 1 or len(block.lines[0].sentences) > 1


def _halves(block: Block) -> list[Block]:
    if len(block.lines) > 1:
        half = len(block.lines) // 2
        return [Block(block.lines[:half]), Block(block.lines[half:])]
    sentences = block.lines[0].sentences
    half = len(sentences) // 2
    return [Block([Line(sentences[:half])]), Block([Line(sentences[half:])])]


def bullet_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    low, high = _bounds(rule)
    asked = prompt.marker()

    def extra(doc: Doc) -> Made:
        marked = [line for line in doc.lines() if line.mark]
        if not marked:
            return None
        block = next(b for b in doc.blocks if marked[0] in b.lines)
        at = block.lines.index(marked[0])
        block.lines.insert(at, Line([(Vocabulary(rules).take(2, first=False), "")], marked[0].mark))
        return doc, {}

    def remarked(marker: str) -> Edit:
        def edit(doc: Doc) -> Made:
            marked = [line for line in doc.lines() if line.mark]
            for number, line in enumerate(marked, 1):
                line.mark = f"{number}." if marker == "1." else marker
            return (doc, {}) if marked else None

        return edit

    others = {"-": ("*", "+", "1."), "numbered": ("-",), "any": ("+",)}[asked]
    misses = [("one bullet too many", extra)] if high != float("inf") else []
    return misses + [(f"'{m}' bullets", remarked(m)) for m in others]


def line_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    def split(doc: Doc) -> Made:
        lines = [ln for ln in _body_lines(doc) if sum(len(w) for w, _ in ln.sentences) > 1]
        if not lines:
            return None
        line = lines[-1]
        block = next(b for b in doc.blocks if line in b.lines)
        words, end = line.sentences[-1]
        if len(words) < 2:
            return None
        line.sentences[-1] = (words[:-1], "")
        block.lines.insert(block.lines.index(line) + 1, Line([(words[-1:], end)], line.mark))
        return doc, {}

    return [("one line too many", split)]


def char_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    def over(doc: Doc) -> Made:
        words, at = _fillers(doc, rules)[0]
        vocab = Vocabulary(rules)
        while len(doc.render()) <= rule["n"]:
            words.insert(at, vocab.take(1, first=False)[0])
        return doc, {}

    return [("over the limit", over)]


# --- phrases ----------------------------------------------------------------------


def _insert(rules: Sequence[Rule], index: int, tokens: list[str], verdict: bool) -> Edit:
    def edit(doc: Doc) -> Made:
        if not _replace(doc, rules, tokens):
            return None
        return doc, {index: verdict}

    return edit


def _breakable(rules: Sequence[Rule]) -> bool:
    return not _has(rules, "line_count")


def forbidden_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    text = rule["text"]
    if not any(c.isalpha() for c in text):
        return [("used once", _appended(rules, index, text))]
    inside = prompt.inside_words(text)
    misses = [("in capitals", _insert(rules, index, text.upper().split(), False))]
    inflected = inflect(text) if " " not in text else None
    if inflected:  # an inflection is the word itself unless the prompt says "as a word"
        misses.append(
            (f"inflected ({inflected!r})", _insert(rules, index, [inflected], inside is False))
        )
    longer = LONGER.get(text.lower())
    if longer:  # an unrelated longer word breaks only a "not even inside a longer word" rule
        misses.append(
            (
                f"inside a longer word ({longer!r})",
                _insert(rules, index, longer.split(), inside is not True),
            )
        )
    if "-" in text:
        for name, dash in (("a no-break hyphen", "\u2011"), ("an en dash", "\u2013")):
            misses.append((f"with {name}", _insert(rules, index, [text.replace("-", dash)], False)))
    if " " in text and _breakable(rules):
        head, tail = text.split(" ", 1)
        misses.append(
            ("over a line break", _insert(rules, index, _tokens(f"{head}\n{tail}"), False))
        )
    return misses


def inflect(text: str) -> str | None:
    """The plural (or third person) of ``text`` where it holds ``text``: molecule → molecules.

    None for a word whose inflection changes its end (story → stories).
    """
    if text.endswith("y"):
        return None
    if text.endswith(("s", "x", "sh", "ch")):
        return text + "es"
    return text + ("S" if text.isupper() else "s")


def _appended(rules: Sequence[Rule], index: int, text: str) -> Edit:
    def edit(doc: Doc) -> Made:
        fillers = _fillers(doc, rules)
        if not fillers:
            return None
        words, at = fillers[len(fillers) // 2]
        words[at] += text
        return doc, {index: False}

    return edit


def _occurrences(doc: Doc, tokens: list[str]) -> list[tuple[list[str], int]]:
    found = []
    for line in doc.lines():
        for words, _ in line.sentences:
            found += [(words, i) for i in range(len(words)) if words[i : i + len(tokens)] == tokens]
    return found


def required_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    tokens = rule["text"].split()
    inside = prompt.inside_words(rule["text"])

    def missing(doc: Doc) -> Made:
        found = _occurrences(doc, tokens)
        if not found:
            return None
        words, at = found[-1]
        del words[at : at + len(tokens)]
        return doc, {index: False}

    def rewritten(new: list[str], verdict: bool, every: bool) -> Edit:
        def edit(doc: Doc) -> Made:
            found = _occurrences(doc, tokens)
            for words, at in reversed(found if every else found[:1]):
                words[at : at + len(tokens)] = new
            return (doc, {index: verdict}) if found else None

        return edit

    misses: list[tuple[str, Edit]] = [("missing once", missing)]
    if len(tokens) > 1 and _breakable(rules):
        broken = _tokens(" ".join(tokens[:-1]) + "\n" + tokens[-1])
        misses.append(("over a line break", rewritten(broken, True, every=False)))
    text = rule["text"]
    longer = LONGER.get(text.lower())
    if longer is None and text[-1:].isalpha():
        longer = inflect(text)
    if longer:
        longer = longer.upper() if text.isupper() else longer
        misses.append(
            (
                f"only inside longer words ({longer!r})",
                rewritten(longer.split(), inside is True, True),
            )
        )
    return misses


def _final_punctuation(text: str) -> bool:
    return bool(text) and unicodedata.category(text[-1]).startswith("P")


def _edge_edits(
    rule: Rule, exact: bool, at_start: bool
) -> list[tuple[str, Callable[[str], str], bool]]:
    """(what, how the phrase is rewritten, the reader's verdict) for one start or end phrase."""
    text = rule["text"]
    edits: list[tuple[str, Callable[[str], str], bool]] = []
    if text.swapcase() != text:
        edits.append(("in another case", lambda t: t.swapcase(), not exact))
    if _final_punctuation(text):
        edits.append(("without its final punctuation", lambda t: t[:-1], not exact))
    elif not at_start:
        edits.append(("with a full stop after it", lambda t: t + ".", not exact))
    if " " in text:
        edits.append(("over a line break", lambda t: t.replace(" ", "\n", 1), True))
    edits.append(("in bold", lambda t: f"**{t}**", not (exact or at_start)))
    return edits


def _tokens(text: str) -> list[str]:
    """``text`` as tokens; a line break starts the token after it."""
    return text.replace("\n", " \n").split(" ")


def _rewrite_edge(doc: Doc, old: str, new: str, at_start: bool) -> bool:
    """Rewrite the phrase ``old`` at the start or end of ``doc`` as ``new``."""
    role = "greeting" if at_start else "sign_off"
    block = next((b for b in doc.blocks if b.role == role), None)
    if block is not None:
        block.lines = [Line([(_tokens(new), "")])]
        return True
    line = doc.blocks[0].lines[0] if at_start else doc.blocks[-1].lines[-1]
    words, _ = line.sentences[0] if at_start else line.sentences[-1]
    size = len(old.split())
    where = slice(0, size) if at_start else slice(len(words) - size, len(words))
    if words[where] != old.split():
        return False
    words[where] = _tokens(new)
    return True


def edge_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    at_start = rule["rule"] == "starts_with"
    exact = prompt.exactly(rule["text"])

    def rewritten(how: Callable[[str], str], verdict: bool) -> Edit:
        def edit(doc: Doc) -> Made:
            if "\n" in how(rule["text"]) and not _breakable(rules):
                return None
            done = _rewrite_edge(doc, rule["text"], how(rule["text"]), at_start)
            return (doc, {index: verdict}) if done else None

        return edit

    def quoted(doc: Doc) -> Made:
        if any(_has(rules, name) for name in ("starts_with", "bullet_count", "line_count")):
            return None
        doc.quoted = True
        return doc, {index: not exact}

    misses = [(what, rewritten(how, ok)) for what, how, ok in _edge_edits(rule, exact, at_start)]
    return misses + ([] if at_start else [("the whole answer in quotes", quoted)])


def letter_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    def used(doc: Doc) -> Made:
        letter = rule["letters"][0]
        word = next(w for w in LETTER_WORDS if letter in w)
        return (doc, {}) if _replace(doc, rules, [_cased(word, rules)]) else None

    return [("one banned letter", used)]


def casing_misses(index: int, rule: Rule, rules: Sequence[Rule], prompt: Prompt) -> list[Any]:
    def flip(doc: Doc) -> Made:
        fillers = [(w, i) for w, i in _fillers(doc, rules) if len(w[i]) > 3]
        if not fillers:
            return None
        words, at = fillers[len(fillers) // 2]
        word = words[at]
        words[at] = word.capitalize() if rule["case"] == "lower" else word.lower()
        return doc, {}

    return [("one word in another case", flip)]


EDITS: dict[str, Maker] = {
    "word_count": word_misses,
    "sentence_count": sentence_misses,
    "paragraph_count": paragraph_misses,
    "bullet_count": bullet_misses,
    "line_count": line_misses,
    "max_chars": char_misses,
    "forbidden_substring": forbidden_misses,
    "required_phrase": required_misses,
    "starts_with": edge_misses,
    "ends_with": edge_misses,
    "banned_letters": letter_misses,
    "casing": casing_misses,
}
