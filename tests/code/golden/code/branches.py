# expect-file: sloc=79 callables=10
# ruff: noqa
# fmt: off
"""Branching statements: elif chains, loops with else, try clauses, assert.

Every decision here is a statement: each if/elif/for/while/except/assert
adds one; else, finally, with, pass, break and continue add nothing.
"""


def grade(score):  # expect: cc=5 sloc=11
    if score >= 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    elif score >= 60:
        return "D"
    else:
        return "F"


def else_then_if(x):  # expect: cc=3 sloc=7
    # An `if` inside `else:` is a new statement, not an elif: still +1.
    if x:
        return 1
    else:
        if x > 1:
            return 2
    return 3


def one_line_branches(x):  # expect: cc=3 sloc=4
    if x: return 1
    elif x is None: return 0
    return -1


def find(items, target):  # expect: cc=3 sloc=9
    index = 0
    while index < len(items):
        if items[index] == target:
            break
        index += 1
    else:
        return -1
    return index


def first_even(numbers):  # expect: cc=3 sloc=7
    for n in numbers:
        if n % 2 == 0:
            break
    else:
        n = None
    return n


def load(path):  # expect: cc=3 sloc=12
    try:
        handle = open(path)
    except FileNotFoundError:
        return None
    except (PermissionError, IsADirectoryError) as error:
        raise RuntimeError(path) from error
    else:
        with handle:
            return handle.read()
    finally:
        print("done")


def swallow():  # expect: cc=2 sloc=5
    try:
        pass
    except:
        pass
    # a bare try/finally adds nothing


def cleanup(resource):  # expect: cc=1 sloc=5
    try:
        resource.use()
    finally:
        resource.close()


def gather(tasks):  # expect: cc=3 sloc=8
    try:
        run(tasks)
    except* ValueError:
        return 1
    except* TypeError:
        return 2
    return 0


def check(value):  # expect: cc=5 sloc=8
    assert value is not None
    assert value > 0, "must be positive"
    for _ in range(3):
        continue
    while True:
        break
    return value


if __name__ == "__main__":
    for argument in ("1", "2"):
        print(grade(int(argument)))
