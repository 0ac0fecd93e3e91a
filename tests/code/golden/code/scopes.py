# expect-file: sloc=84 callables=16
# ruff: noqa
# fmt: off
"""Which definitions are callables, and what each one's CC covers.

A def is a callable when the module reaches it through class and function
bodies only; a def under if/try/with/for/while is not. A callable's CC
counts everything inside it (nested defs, classes, lambdas, the decorators
of nested defs) but not its own decorators.
"""

import functools

FAST = True


def outer(values):  # expect: cc=3 sloc=7
    def inner(v):  # expect: cc=2 sloc=2
        return v if v else 0

    total = 0
    for v in values:
        total += inner(v)
    return total


def factory(flag):  # expect: cc=2 sloc=5
    @functools.lru_cache(maxsize=16 if flag else None)
    def build(x):  # expect: cc=1 sloc=2
        return x
    return build


@functools.lru_cache(maxsize=128 if FAST else None)
@functools.wraps(print, assigned=() or ("__doc__",))
def cached(key):  # expect: cc=1 sloc=2
    return key


def chooser(flag):  # expect: cc=3 sloc=8
    if flag:
        def pick(x):
            return x
    else:
        def pick(x):
            return -x if x else x
    return pick


def make_class(base):  # expect: cc=2 sloc=5
    class Local(base):
        def method(self):  # expect: cc=2 sloc=2
            return self and base
    return Local


class Account:
    """A bank account."""

    rate = 0.1 if FAST else 0.2

    def __init__(self, owner, balance=0):  # expect: cc=1 sloc=3
        self.owner = owner
        self.balance = balance

    def deposit(self, amount):  # expect: cc=2 sloc=4
        if amount <= 0:
            raise ValueError(amount)
        self.balance += amount

    class History:
        def __init__(self):  # expect: cc=1 sloc=2
            self.items = []

        def add(self, item):  # expect: cc=2 sloc=2
            self.items.append(item or "blank")

        class Entry:
            def render(self):  # expect: cc=1 sloc=2
                return str(self)

    @property
    def positive(self):  # expect: cc=1 sloc=2
        return self.balance > 0

    @staticmethod
    def make(owner):  # expect: cc=1 sloc=2
        return Account(owner)


async def fetch_all(session, urls):  # expect: cc=5 sloc=7
    results = []
    async with session:
        async for url in urls:
            if url:
                results.append(await session.get(url))
    return [r async for r in session.stream(results) if r]


if FAST:
    def quick(x):
        return x
else:
    def quick(x):
        return x * 2

    class Slow:
        def method(self):
            return self

try:
    from json import loads
except ImportError:
    def loads(text):
        return eval(text)

with open(__file__) as handle:
    def read_again():
        return handle.read()

for name in ("a", "b"):
    def in_loop():
        return name

while False:
    def never():
        pass
