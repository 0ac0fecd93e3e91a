# expect-file: sloc=111 callables=22
# ruff: noqa
# fmt: off
"""Clone candidates and groups.

Candidates: def, if (not elif), for, while, with, try and match statements
spanning at least 3 SLOC. Normal form: identifiers renamed by first
appearance, literals reduced to their kind, comments and plain-string
statements dropped, decorators left out.
"""

import functools


def total_price(items):  # expect: cc=2 sloc=5; expect-clone: A
    total = 0
    for item in items:
        total += item.price
    return total


def total_mass(parcels):  # expect: cc=2 sloc=5; expect-clone: A
    # Attribute names are identifiers too: `.mass_kg` is renamed like `.price`.
    mass = 0
    for parcel in parcels:
        mass += parcel.mass_kg
    return mass


def total_weight(parcels):  # expect: cc=2 sloc=5
    # Not a clone: `.weight` is the accumulator's name again, so the
    # renamed form differs from `total_price`'s.
    weight = 0
    for parcel in parcels:
        weight += parcel.weight
    return weight


def retry_fast(call):  # expect: cc=3 sloc=5; expect-clone: B
    for attempt in range(3):  # expect-clone: C
        if call(attempt):
            return True
    return False


@functools.cache
def retry_slow(call):  # expect: cc=3 sloc=5; expect-clone: B
    """Decorators and docstrings are not part of the form."""
    for attempt in range(10):  # expect-clone: C
        if call(attempt):  # a comment changes nothing
            return True
    return False


def retry_float(call):  # expect: cc=3 sloc=5
    # A float literal where the others have an int: a different form.
    for attempt in range(3.0):
        if call(attempt):
            return True
    return False


def clamp_low(value, low):  # expect: cc=2 sloc=4; expect-clone: D
    """Clamp from below."""
    if value < low:
        return low
    return value


def floor_at(number, bound):  # expect: cc=2 sloc=4; expect-clone: D
    if number < bound:
        return bound
    return number


def floor_inclusive(number, bound):  # expect: cc=2 sloc=4
    # `<=` is another operator: a different form.
    if number <= bound:
        return bound
    return number


def route(kind):  # expect: cc=3 sloc=8
    if kind == "x":
        return 1
    elif kind == "y":
        notify(kind)
        notify(kind)
        return 2
    return 0


def route_y(kind):  # expect: cc=2 sloc=5
    # This `if` has the form of the elif branch above; an elif is no candidate.
    if kind == "y":
        notify(kind)
        notify(kind)
        return 2


def read_config(path):  # expect: cc=1 sloc=5
    with open(path) as handle:  # expect-clone: E
        text = handle.read()
        return text.strip()
    return None


def read_manifest(location, default):  # expect: cc=1 sloc=5
    with open(location) as stream:  # expect-clone: E
        body = stream.read()
        return body.strip()
    return default


def drain(queue, seen):  # expect: cc=3 sloc=9
    while queue:  # expect-clone: F
        item = queue.pop()
        seen.add(item)
    try:  # expect-clone: G
        value = int(queue)
    except ValueError:
        value = 0
    return value


def flush(stack, done):  # expect: cc=3 sloc=9
    while stack:  # expect-clone: F
        entry = stack.pop()
        done.add(entry)
    try:  # expect-clone: G
        count = int(stack)
    except ValueError:
        count = 99
    return count, done


def spelled_once():  # expect: cc=1 sloc=4; expect-clone: H
    # Only the kind of a string literal counts, not its text.
    parts = ["ab", "cd"]
    parts.append("ef")
    return parts


def spelled_twice():  # expect: cc=1 sloc=4; expect-clone: H
    parts = ["xy", "zw"]
    parts.append("")
    return parts


def spelled_apart():  # expect: cc=1 sloc=4
    # An implicit concatenation is two string tokens: a different form.
    parts = ["ab", "c" "d"]
    parts.append("ef")
    return parts


def trailing_comma(a):  # expect: cc=1 sloc=5
    # The normal form is the reference's tree-sitter form, which keeps trailing commas
    # and redundant parentheses: no clone of the function below.
    result = call_with(
        a,
    )
    return (result)


def no_trailing_comma(b):  # expect: cc=1 sloc=5
    result = call_with(
        b
    )
    return result


def tiny_a(x):  # expect: cc=1 sloc=2
    """Too small to be a candidate,
    however many lines its docstring takes.
    """
    return x


def tiny_b(y):  # expect: cc=1 sloc=2
    return y
