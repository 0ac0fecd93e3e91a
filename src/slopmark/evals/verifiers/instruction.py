"""The instruction domain: does the answer obey the formatting rules its prompt states?

Config: ``{"type": "instruction", "rules": [{"rule": NAME, ...params}, ...]}``.
Every rule yields one `Check` (named after the rule, ``#2`` on a repeat) whose
detail says what was expected and what the output has. pass = every rule
holds; score = rules that hold / rules. An empty (or all-whitespace) output
fails every rule, so saying nothing earns no credit for "used no banned word".

How text is counted
-------------------
The output is read once: ``\\r\\n`` and ``\\r`` become ``\\n`` and whitespace
around the whole output is removed. Then:

- word: a run of non-whitespace characters holding at least one letter or
  digit. ``don't``, ``well-known``, ``3.5`` and ``**bold**`` are one word each;
  a lone ``-``, ``*``, ``#`` or ``—`` is no word.
- sentence: the text is cut after every run of ``.``, ``!``, ``?`` or ``…``
  (with any closing quotes or brackets) that is followed by whitespace or the
  end, and at every blank line; each piece holding a word is a sentence.
  ``e.g. this`` is cut after ``e.g.`` (so is ``1.`` in a numbered list; ask for
  sentence counts in prose), and ``3.5`` is not cut.
- paragraph: the text is cut at blank lines (lines holding only whitespace);
  each piece holding a word is a paragraph, so ``---`` separators don't count.
- line: a line of the text; with ``count_blank: false`` (the default) only
  lines holding a non-whitespace character count.
- bullet: a line that starts, after optional indentation, with ``-``, ``*``
  or ``+``, or with digits and ``.`` or ``)``, then whitespace and text.
  Nested bullets count; ``**bold**`` and ``---`` are not bullets.
- characters: Unicode code points.

Rules (counts take ``n`` for an exact number, or ``min`` and/or ``max``)
-----------------------------------------------------------------------
word_count, sentence_count, paragraph_count, bullet_count, line_count (also
``count_blank``): the count is within bounds. max_chars ``n``: at most n
characters. forbidden_substring ``text``: absent, ignoring case.
required_phrase ``text`` (``min_count``, default 1): present at least that
often, ignoring case, any run of whitespace matching any run of whitespace.
starts_with / ends_with ``text``: the output begins / ends with exactly that
text (case-sensitive). banned_letters ``letters`` (e.g. ``"ez"``): none of the
letters appears, in either case. casing ``case``: ``lower`` (no uppercase
letter), ``upper`` (no lowercase letter) or ``title`` (every word starting
with a letter starts with a capital, except the minor words a, an, and, as,
at, but, by, for, in, nor, of, on, or, the, to, with after the first word).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from slopmark.evals.verifiers.base import Check, Message, Verdict, register

_ALNUM = re.compile(r"[^\W_]")
_SENTENCE_END = re.compile(r"(?<![.!?\u2026])[.!?\u2026]++[\"'\u201d\u2019)\]]*+(?=\s|$)")
_BLANK_LINES = re.compile(r"\n[ \t\f\v]*\n\s*")
_BULLET = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\S")
MINOR_WORDS = frozenset(
    ("a", "an", "and", "as", "at", "but", "by", "for")
    + ("in", "nor", "of", "on", "or", "the", "to", "with")
)
CASES = ("lower", "upper", "title")


@dataclass(frozen=True)
class Reading:
    """An output read once; every rule counts from this."""

    text: str
    words: tuple[str, ...]
    sentences: tuple[str, ...]
    paragraphs: tuple[str, ...]
    lines: tuple[str, ...]
    bullets: tuple[str, ...]


def read(output: str) -> Reading:
    """Split ``output`` into words, sentences, paragraphs, lines and bullets (see module doc)."""
    text = output.replace("\r\n", "\n").replace("\r", "\n").strip()
    chunks = _BLANK_LINES.split(text)
    sentences = chain.from_iterable(map(_split_sentences, chunks))
    lines = tuple(text.split("\n")) if text else ()
    return Reading(
        text=text,
        words=tuple(filter(_ALNUM.search, text.split())),
        sentences=tuple(filter(_ALNUM.search, sentences)),
        paragraphs=tuple(filter(_ALNUM.search, chunks)),
        lines=lines,
        bullets=tuple(filter(_BULLET.match, lines)),
    )


def _split_sentences(chunk: str) -> list[str]:
    pieces, start = [], 0
    for end in _SENTENCE_END.finditer(chunk):
        pieces.append(chunk[start : end.end()].strip())
        start = end.end()
    pieces.append(chunk[start:].strip())
    return pieces


# --- the rules -------------------------------------------------------------

Outcome = tuple[bool, str]
COUNT_PARAMS = {"n": "count", "min": "count", "max": "count"}


@dataclass(frozen=True)
class Rule:
    """A rule's check and the params it takes (param name → kind)."""

    check: Callable[[Reading, Mapping[str, Any]], Outcome]
    params: Mapping[str, str]
    required: tuple[str, ...] = ()


def _bounds(params: Mapping[str, Any]) -> tuple[int, float]:
    if "n" in params:
        return params["n"], params["n"]
    return params.get("min", 0), params.get("max", float("inf"))


def _span(low: int, high: float) -> str:
    if low == high:
        return f"exactly {low}"
    if high == float("inf"):
        return f"at least {low}"
    return f"at most {int(high)}" if low == 0 else f"{low}–{int(high)}"


def _counted(unit: str, count: Callable[[Reading, Mapping[str, Any]], int]) -> Rule:
    def check(reading: Reading, params: Mapping[str, Any]) -> Outcome:
        got = count(reading, params)
        low, high = _bounds(params)
        noun = unit[:-1] if low == high == 1 else unit
        return low <= got <= high, f"expected {_span(low, high)} {noun}, got {got}"

    extra = {"count_blank": "bool"} if unit == "lines" else {}
    return Rule(check, {**COUNT_PARAMS, **extra})


def _line_total(reading: Reading, params: Mapping[str, Any]) -> int:
    if params.get("count_blank", False):
        return len(reading.lines)
    return sum(1 for line in reading.lines if line.strip())


def _max_chars(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    got = len(reading.text)
    return got <= params["n"], f"expected at most {params['n']} characters, got {got}"


def _context(text: str, start: int, length: int) -> str:
    return text[max(0, start - 20) : start + length + 20].replace("\n", " ")


def _forbidden(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    needle = params["text"].lower()
    haystack = reading.text.lower()
    found = haystack.count(needle)
    if not found:
        return True, f"'{params['text']}' does not appear"
    where = _context(reading.text, haystack.index(needle), len(needle))
    return False, f"found '{params['text']}' {found} time(s) (first: '…{where}…'); expected none"


def _required(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    words = params["text"].split()
    pattern = r"\s+".join(re.escape(word) for word in words)
    found = len(re.findall(pattern, reading.text, flags=re.IGNORECASE))
    wanted = params.get("min_count", 1)
    return found >= wanted, f"expected '{params['text']}' at least {wanted} time(s), found {found}"


def _starts(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    text = params["text"]
    got = reading.text[: len(text) + 10]
    return reading.text.startswith(text), f"expected the start {text!r}; the output starts {got!r}"


def _ends(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    text = params["text"]
    got = reading.text[-(len(text) + 10) :]
    return reading.text.endswith(text), f"expected the end {text!r}; the output ends {got!r}"


def _banned(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    letters = params["letters"].lower()
    hits = [w for w in reading.words if any(c in letters for c in w.lower())]
    if not hits:
        return True, f"no word uses a banned letter ({', '.join(letters)})"
    total = sum(c in letters for c in reading.text.lower())
    return False, f"banned letters ({letters}) used {total} time(s), first in {hits[0]!r}"


def _casing(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    case = params["case"]
    wrong = [w for i, w in enumerate(reading.words) if not _word_in_case(w, case, first=i == 0)]
    if not wrong:
        return True, f"every word is in {case} case"
    return False, f"expected {case} case; {len(wrong)} word(s) are not, first {wrong[0]!r}"


def _word_in_case(word: str, case: str, first: bool) -> bool:
    if case == "lower":
        return not any(c.isupper() for c in word)
    if case == "upper":
        return not any(c.islower() for c in word)
    core = word.lstrip("\"'“‘([*_#")
    if not core or not core[0].isalpha():
        return True
    minor = core.lower().rstrip(".,;:!?\"'”’)]*_") in MINOR_WORDS
    return core[0].isupper() or (minor and not first)


RULES: dict[str, Rule] = {
    "word_count": _counted("words", lambda r, p: len(r.words)),
    "sentence_count": _counted("sentences", lambda r, p: len(r.sentences)),
    "paragraph_count": _counted("paragraphs", lambda r, p: len(r.paragraphs)),
    "bullet_count": _counted("bullets", lambda r, p: len(r.bullets)),
    "line_count": _counted("lines", _line_total),
    "max_chars": Rule(_max_chars, {"n": "count"}, ("n",)),
    "forbidden_substring": Rule(_forbidden, {"text": "text"}, ("text",)),
    "required_phrase": Rule(_required, {"text": "text", "min_count": "positive"}, ("text",)),
    "starts_with": Rule(_starts, {"text": "text"}, ("text",)),
    "ends_with": Rule(_ends, {"text": "text"}, ("text",)),
    "banned_letters": Rule(_banned, {"letters": "letters"}, ("letters",)),
    "casing": Rule(_casing, {"case": "case"}, ("case",)),
}


# --- config validation -------------------------------------------------------


def _whole(value: Any, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


#: param kind → (does a value fit, what to say when it does not)
KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "count": (lambda v: _whole(v, 0), "must be a whole number ≥ 0"),
    "positive": (lambda v: _whole(v, 1), "must be a whole number ≥ 1"),
    "text": (lambda v: isinstance(v, str) and bool(v.strip()), "must be a non-empty string"),
    "bool": (lambda v: isinstance(v, bool), "must be true or false"),
    "letters": (
        lambda v: isinstance(v, str) and v.isalpha(),
        "must be a string of letters, e.g. 'e' or 'xz'",
    ),
    "case": (lambda v: v in CASES, f"must be one of {', '.join(CASES)}"),
}


def _param_problems(name: str, rule: Rule, params: Mapping[str, Any]) -> list[str]:
    found = [f"{name}: missing '{key}'" for key in rule.required if key not in params]
    for key, value in params.items():
        if key not in rule.params:
            found.append(f"{name}: unknown param '{key}'; allowed: {', '.join(rule.params)}")
            continue
        fits, says = KINDS[rule.params[key]]
        found.extend([] if fits(value) else [f"{name}: '{key}' {says}, got {value!r}"])
    return found


def _count_problems(params: Mapping[str, Any]) -> list[str]:
    if "n" in params and ("min" in params or "max" in params):
        return ["give either 'n' or 'min'/'max', not both"]
    if not any(key in params for key in COUNT_PARAMS):
        return ["give 'n' (exact) or 'min' and/or 'max'"]
    low, high = params.get("min", 0), params.get("max", float("inf"))
    if isinstance(low, int) and isinstance(high, int | float) and low > high:
        return [f"'min' ({low}) is greater than 'max' ({high})"]
    return []


def rule_problems(spec: Any) -> list[str]:
    """What is wrong with one ``{"rule": NAME, ...params}`` entry."""
    if not isinstance(spec, Mapping):
        return [f"must be an object like {{'rule': 'word_count', 'max': 100}}, got {spec!r}"]
    name = spec.get("rule")
    if name not in RULES:
        return [f"unknown rule {name!r}; known: {', '.join(RULES)}"]
    rule = RULES[name]
    params = {k: v for k, v in spec.items() if k != "rule"}
    found = _param_problems(name, rule, params)
    if rule.params.keys() >= COUNT_PARAMS.keys() and not found:
        found.extend(f"{name}: {p}" for p in _count_problems(params))
    return found


def _rule_names(rules: Sequence[Mapping[str, Any]]) -> list[str]:
    names: list[str] = []
    seen: Counter[str] = Counter()
    for spec in rules:
        seen[spec["rule"]] += 1
        times = seen[spec["rule"]]
        names.append(spec["rule"] + (f"#{times}" if times > 1 else ""))
    return names


@register("instruction")
class InstructionVerifier:
    """Checks an answer against the formatting rules listed in the task's config."""

    name = "instruction"

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        rules = config.get("rules")
        extra = sorted(set(config) - {"type", "rules"})
        found = [f"unknown key '{key}'; allowed: type, rules" for key in extra]
        if not isinstance(rules, list) or not rules:
            return [*found, "'rules' must be a non-empty list of {'rule': NAME, ...params}"]
        for index, spec in enumerate(rules):
            found.extend(f"rules[{index}]: {p}" for p in rule_problems(spec))
        return found

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        rules = config.get("rules") or []
        reading = read(output if isinstance(output, str) else "")
        checks = []
        for name, spec in zip(_rule_names(rules), rules, strict=True):
            if not reading.text:
                checks.append(Check(name, False, "the output is empty"))
                continue
            passed, detail = RULES[spec["rule"]].check(reading, spec)
            checks.append(Check(name, passed, detail))
        return Verdict.from_checks(checks)
