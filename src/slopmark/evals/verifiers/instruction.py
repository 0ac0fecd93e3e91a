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
word_count, sentence_count, line_count (also ``count_blank``): the count is
within bounds. paragraph_count (also ``greeting`` and ``sign_off``, e.g.
``"Dear Sam,"`` and ``"Love, Ana"``): the paragraphs between the greeting at
the start and the sign-off at the end, which are not counted even on lines of
their own (line breaks inside them, case and their final punctuation don't
matter). bullet_count (also ``marker``: ``-``, ``*``, ``+``, ``numbered`` for
``1.`` or ``1)``, or ``any``, the default): bullets with that marker.
max_chars ``n``: at most n characters.

Phrases are matched as `instruction_match` describes: Unicode dashes and
spaces, line breaks and runs of whitespace are read as a reader reads them.
forbidden_substring ``text`` (``whole_word``, default false): absent, ignoring
case; with ``whole_word`` only where it is not part of a longer word ("etc"
is not in "sketchbook"), without it also inside one ("molecule" is in
"molecules"). required_phrase ``text`` (``min_count``, default 1;
``whole_word``, default false): present at least that often, ignoring case.
starts_with / ends_with ``text`` (``exact``, default true): the output begins
/ ends with the text, nothing before / after it, and no longer word continues
it; with ``exact: false`` case and final punctuation don't matter ("…brought
me Home." ends with "home"). banned_letters ``letters`` (e.g. ``"ez"``): none
of the letters appears, in either case. casing ``case``: ``lower`` (no
uppercase letter), ``upper`` (no lowercase letter) or ``title`` (every word
starting with a letter starts with a capital, except the minor words a, an,
and, as, at, but, by, for, in, nor, of, on, or, the, to, with after the first
word).

A rule list may not hold the same rule twice (one rule would count double in
the score): the same text forbidden or required twice, or two identical rules.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from slopmark.evals.verifiers import instruction_match as match
from slopmark.evals.verifiers.base import Check, Message, Verdict, register

_ALNUM = re.compile(r"[^\W_]")
_SENTENCE_END = re.compile(r"(?<![.!?\u2026])[.!?\u2026]++[\"'\u201d\u2019)\]]*+(?=\s|$)")
_BLANK_LINES = re.compile(r"\n[ \t\f\v]*\n\s*")
_MARKERS = {"-": "-", "*": r"\*", "+": r"\+", "numbered": r"\d+[.)]"}
MARKERS = (*_MARKERS, "any")
_BULLETS = {
    name: re.compile(rf"^[ \t]*(?:{pattern})[ \t]+\S")
    for name, pattern in {**_MARKERS, "any": "|".join(_MARKERS.values())}.items()
}
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
        bullets=tuple(filter(_BULLETS["any"].match, lines)),
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


def _counted(unit: str, count: Callable[[Reading, Mapping[str, Any]], int], **extra: str) -> Rule:
    def check(reading: Reading, params: Mapping[str, Any]) -> Outcome:
        got = count(reading, params)
        low, high = _bounds(params)
        noun = unit[:-1] if low == high == 1 else unit
        return low <= got <= high, f"expected {_span(low, high)} {noun}, got {got}"

    return Rule(check, {**COUNT_PARAMS, **extra})


def _line_total(reading: Reading, params: Mapping[str, Any]) -> int:
    if params.get("count_blank", False):
        return len(reading.lines)
    return sum(1 for line in reading.lines if line.strip())


def _paragraph_total(reading: Reading, params: Mapping[str, Any]) -> int:
    if not (params.get("greeting") or params.get("sign_off")):
        return len(reading.paragraphs)
    body = match.trim_edges(reading.text, params.get("greeting"), params.get("sign_off"))
    return sum(1 for chunk in _BLANK_LINES.split(body) if _ALNUM.search(chunk))


def _bullet_total(reading: Reading, params: Mapping[str, Any]) -> int:
    marker = _BULLETS[params.get("marker", "any")]
    return sum(1 for line in reading.bullets if marker.match(line))


def _max_chars(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    got = len(reading.text)
    return got <= params["n"], f"expected at most {params['n']} characters, got {got}"


def _as_word(params: Mapping[str, Any]) -> str:
    return " as a word" if params.get("whole_word", False) else ""


def _forbidden(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    text, how = params["text"], _as_word(params)
    found = match.find(reading.text, text, params.get("whole_word", False))
    if not found:
        return True, f"'{text}' does not appear{how}"
    at = found[0]
    where = at.string[max(0, at.start() - 20) : at.end() + 20]
    return False, f"found '{text}'{how} {len(found)} time(s) (first: '…{where}…'); expected none"


def _required(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    text, how = params["text"], _as_word(params)
    found = len(match.find(reading.text, text, params.get("whole_word", False)))
    wanted = params.get("min_count", 1)
    return found >= wanted, f"expected '{text}'{how} at least {wanted} time(s), found {found}"


def _starts(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    text = params["text"]
    got = reading.text[: len(text) + 10]
    held = match.starts(reading.text, text, params.get("exact", True))
    return held, f"expected the start {text!r}; the output starts {got!r}"


def _ends(reading: Reading, params: Mapping[str, Any]) -> Outcome:
    text = params["text"]
    got = reading.text[-(len(text) + 10) :]
    held = match.ends(reading.text, text, params.get("exact", True))
    return held, f"expected the end {text!r}; the output ends {got!r}"


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
    "paragraph_count": _counted("paragraphs", _paragraph_total, greeting="text", sign_off="text"),
    "bullet_count": _counted("bullets", _bullet_total, marker="marker"),
    "line_count": _counted("lines", _line_total, count_blank="bool"),
    "max_chars": Rule(_max_chars, {"n": "count"}, ("n",)),
    "forbidden_substring": Rule(_forbidden, {"text": "text", "whole_word": "bool"}, ("text",)),
    "required_phrase": Rule(
        _required, {"text": "text", "min_count": "positive", "whole_word": "bool"}, ("text",)
    ),
    "starts_with": Rule(_starts, {"text": "text", "exact": "bool"}, ("text",)),
    "ends_with": Rule(_ends, {"text": "text", "exact": "bool"}, ("text",)),
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
    "text": (
        lambda v: isinstance(v, str) and bool(match.normalise(v)),
        "must be a non-empty string",
    ),
    "bool": (lambda v: isinstance(v, bool), "must be true or false"),
    "letters": (
        lambda v: isinstance(v, str) and v.isalpha(),
        "must be a string of letters, e.g. 'e' or 'xz'",
    ),
    "case": (lambda v: v in CASES, f"must be one of {', '.join(CASES)}"),
    "marker": (lambda v: v in MARKERS, f"must be one of {', '.join(MARKERS)}"),
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


_PHRASE_RULES = ("forbidden_substring", "required_phrase")


def _rule_key(spec: Mapping[str, Any]) -> str:
    """Two rules with one key say the same thing: a phrase rule is its (normalised) text."""
    if spec["rule"] in _PHRASE_RULES:
        return f"{spec['rule']} '{match.normalise(spec['text']).casefold()}'"
    params = ", ".join(f"{k}={v!r}" for k, v in sorted(spec.items()) if k != "rule")
    return f"{spec['rule']} {params}"


def duplicate_problems(rules: Sequence[Any]) -> list[str]:
    """A rule listed twice counts double in the score: name each repeat and its first."""
    first: dict[str, int] = {}
    found = []
    for index, spec in enumerate(rules):
        if rule_problems(spec):
            continue
        key = _rule_key(spec)
        if key in first:
            found.append(
                f"rules[{index}]: repeats rules[{first[key]}] ({key}); "
                "a repeated rule counts twice in the score, remove one"
            )
        first.setdefault(key, index)
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
        return found + duplicate_problems(rules)

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
