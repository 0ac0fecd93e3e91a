"""Property tests of the code measures over randomly generated functions.

A small statement grammar (assignments, calls, returns, if/elif/else, for,
while; expressions with and/or chains, `not`, conditional expressions,
comparisons and comprehensions) produces function bodies together with the
number of decision points it put in them, so CC has an independent oracle.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slopmark.code.measure.clones import clone_groups
from slopmark.code.measure.fileanalysis import FileAnalysis
from slopmark.code.measure.native import analyze_source
from slopmark.code.measure.report import TreeReport, build_report

VARIABLES = ("alpha", "beta", "gamma", "delta", "items")
CALLEES = ("emit", "check")
FUNCTIONS = ("f0", "f1", "f2", "f3", "f4", "f5")
IDENTIFIERS = VARIABLES + CALLEES + FUNCTIONS
FRESH = ("one", "two", "three", "four", "five", "six", "seven", "eight")
_WORD = re.compile(r"\b(" + "|".join(IDENTIFIERS) + r")\b")

#: A piece of code and the decision points it holds.
Piece = tuple[str, int]
#: Lines of a block and the decision points it holds.
Block = tuple[list[str], int]

PROPERTY = settings(max_examples=60, deadline=None)


#: How many operands each expression kind takes: (at least, at most).
_ARITY = {
    "compare": (2, 2),
    "bool": (2, 4),
    "not": (1, 1),
    "ifexp": (3, 3),
    "comp": (2, 4),
    "call": (0, 3),
}


@st.composite
def expressions(draw: st.DrawFn, depth: int = 2) -> Piece:
    kind = draw(st.sampled_from(("name", "int", *_ARITY)))
    if depth == 0 or kind == "name":
        return draw(st.sampled_from(VARIABLES)), 0
    if kind == "int":
        return str(draw(st.integers(0, 99))), 0
    parts = [draw(expressions(depth - 1)) for _ in range(draw(st.integers(*_ARITY[kind])))]
    texts, decisions = [p[0] for p in parts], sum(p[1] for p in parts)
    if kind == "compare":
        return f"({texts[0]} < {texts[1]})", decisions
    if kind == "bool":
        ops = [draw(st.sampled_from(("and", "or"))) for _ in texts[1:]]
        chain = texts[0] + "".join(f" {op} {t}" for op, t in zip(ops, texts[1:], strict=True))
        return f"({chain})", decisions + len(ops)
    if kind == "not":
        return f"(not {texts[0]})", decisions
    if kind == "ifexp":
        return f"({texts[0]} if {texts[1]} else {texts[2]})", decisions + 1
    if kind == "call":
        return f"{draw(st.sampled_from(CALLEES))}({', '.join(texts)})", decisions
    variable = draw(st.sampled_from(VARIABLES))
    clause = "".join(f" if {c}" for c in texts[2:])
    return f"[{texts[0]} for {variable} in {texts[1]}{clause}]", decisions + 1 + len(texts) - 2


@st.composite
def statements(draw: st.DrawFn, depth: int) -> Block:
    simple = ("assign", "call", "return", "pass")
    kind = draw(st.sampled_from(simple + (("if", "for", "while") if depth > 0 else ())))
    if kind == "pass":
        return ["pass"], 0
    expr, decisions = draw(expressions())
    if kind in simple:
        name = draw(st.sampled_from(VARIABLES))
        text = {"assign": f"{name} = {expr}", "call": f"emit({expr})", "return": f"return {expr}"}
        return [text[kind]], decisions
    if kind == "if":
        return draw(if_statements(depth, expr, decisions))
    lines, inner = draw(blocks(depth - 1))
    target = draw(st.sampled_from(VARIABLES))
    head = f"for {target} in {expr}:" if kind == "for" else f"while {expr}:"
    return [head, *indented(lines)], decisions + 1 + inner


@st.composite
def if_statements(draw: st.DrawFn, depth: int, test: str, decisions: int) -> Block:
    body, inner = draw(blocks(depth - 1))
    lines, total = [f"if {test}:", *indented(body)], decisions + 1 + inner
    for _ in range(draw(st.integers(0, 2))):
        (elif_test, more), (elif_body, inner) = draw(expressions()), draw(blocks(depth - 1))
        lines += [f"elif {elif_test}:", *indented(elif_body)]
        total += 1 + more + inner
    if draw(st.booleans()):
        else_body, inner = draw(blocks(depth - 1))
        lines += ["else:", *indented(else_body)]
        total += inner
    return lines, total


@st.composite
def blocks(draw: st.DrawFn, depth: int = 2) -> Block:
    parts = draw(st.lists(statements(depth), min_size=1, max_size=3))
    return [line for lines, _ in parts for line in lines], sum(d for _, d in parts)


def indented(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def function(name: str, body: list[str]) -> str:
    return "\n".join([f"def {name}(alpha, beta):", *indented(body)]) + "\n"


def analyse(source: str, path: str = "gen.py") -> FileAnalysis:
    result = analyze_source(path, source.encode())
    assert isinstance(result, FileAnalysis), f"{result}\n{source}"
    return result


def only_cc(source: str) -> int:
    (callable_,) = analyse(source).callables
    return callable_.cc


@PROPERTY
@given(blocks())
def test_cc_is_one_plus_the_decisions(block: Block) -> None:
    body, decisions = block
    cc = only_cc(function("f0", body))
    assert cc >= 1
    assert cc == 1 + decisions, function("f0", body)


@PROPERTY
@given(blocks())
def test_wrapping_the_body_in_if_adds_one(block: Block) -> None:
    body, _ = block
    plain, wrapped = function("f0", body), function("f0", ["if gamma:", *indented(body)])
    assert only_cc(wrapped) == only_cc(plain) + 1
    assert analyse(wrapped).sloc_count == analyse(plain).sloc_count + 1


@st.composite
def modules(draw: st.DrawFn) -> str:
    """Functions over a few bodies, some used twice so clone groups form."""
    bodies = draw(st.lists(blocks(), min_size=1, max_size=3))
    picks = draw(st.lists(st.integers(0, len(bodies) - 1), min_size=2, max_size=len(FUNCTIONS)))
    return "\n\n".join(function(FUNCTIONS[i], bodies[pick][0]) for i, pick in enumerate(picks))


def clone_partition(analyses: list[FileAnalysis]) -> set[frozenset[tuple[str, int]]]:
    return {frozenset((m.path, m.start) for m in g.members) for g in clone_groups(analyses)}


def measures(analysis: FileAnalysis) -> tuple[object, ...]:
    ccs = [(c.start, c.end, c.cc) for c in analysis.callables]
    return ccs, analysis.sloc, clone_partition([analysis])


@PROPERTY
@given(modules(), st.permutations(IDENTIFIERS + FRESH))
def test_renaming_identifiers_changes_no_measure(source: str, targets: list[str]) -> None:
    mapping = dict(zip(IDENTIFIERS, targets, strict=False))
    renamed = _WORD.sub(lambda match: mapping[match[0]], source)
    assert measures(analyse(renamed)) == measures(analyse(source)), f"{source}\n---\n{renamed}"


def report(analyses: list[FileAnalysis]) -> TreeReport:
    return build_report("gen", analyses, [], {}, frozenset())


@pytest.mark.slow  # 60 reports of two or three files, each in every order: seconds
@PROPERTY
@given(st.lists(modules(), min_size=2, max_size=3), st.data())
def test_report_does_not_depend_on_file_order(sources: list[str], data: st.DataObject) -> None:
    analyses = [analyse(text, f"m{i}.py") for i, text in enumerate(sources)]
    shuffled = data.draw(st.permutations(analyses))
    assert clone_groups(shuffled) == clone_groups(analyses)
    assert report(shuffled) == report(analyses)


def test_a_known_body_has_the_known_cc() -> None:
    """A check of the oracle itself: if (+1), and (+1), list comprehension (+1)."""
    body = ["if (alpha and beta):", *indented(["return [gamma for delta in items]"])]
    assert only_cc(function("f0", body)) == 4
