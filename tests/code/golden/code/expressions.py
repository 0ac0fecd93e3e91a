# expect-file: sloc=50 callables=11
# ruff: noqa
# fmt: off
"""Decisions inside expressions: and/or chains, conditional expressions,
comprehensions and generator expressions, lambdas and f-strings."""

# Module-level decisions belong to no callable.
DEFAULT = None or 0
square = lambda x: x * x if x else 0


def chain(a, b, c):  # expect: cc=3 sloc=2
    return a and b and c


def mixed(a, b, c, d):  # expect: cc=7 sloc=4
    first = a and b or c and d
    second = a or b or (c and not d)
    return first, second


def negations(a, b):  # expect: cc=1 sloc=2
    return not a, a < b < 10, a is not b, a not in (b,)


def sign(x):  # expect: cc=3 sloc=2
    return 1 if x > 0 else -1 if x < 0 else 0


def pairs(rows):  # expect: cc=5 sloc=10
    return [
        (a, b)
        for row in rows
        if row
        for a in row
        if a > 0
        if a < 9
        for b in range(a)
    ]


def kinds_of_comprehension(words):  # expect: cc=7 sloc=6
    lengths = {len(w) for w in words}
    index = {w: i for i, w in enumerate(words) if w}
    total = sum(len(w) for w in words)
    nested = [[c for c in w] for w in words]
    return lengths, index, total, nested


def sorter(items, reverse):  # expect: cc=4 sloc=4
    key = lambda item: item.priority if item else 0
    both = lambda a, b: a and b
    return sorted(items, key=key, reverse=reverse or both(reverse, False))


def greet(name, title):  # expect: cc=3 sloc=2
    return f"Hello {title or 'friend'} {name if name else '?'}!"


def label(value, width):  # expect: cc=4 sloc=2
    return f"{value:>{width or 8}} {'yes' if value and width else 'no'}"


def walrus(stream):  # expect: cc=4 sloc=4
    while (chunk := stream.read()) and chunk != b"":
        yield chunk if chunk else None
    return None


def wide_condition(user, group, admin):  # expect: cc=6 sloc=10
    if (
        user is not None
        and user.active
        or group in user.groups
        and not admin
        or admin
    ):
        return True
    return False
