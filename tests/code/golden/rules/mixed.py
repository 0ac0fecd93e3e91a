"""Realistic code with slop in known places; each hit is marked on its first line."""

import logging

log = logging.getLogger(__name__)


def is_adult(age):
    if age >= 18:
        return True
    else:
        return False


def names(users):
    result = []
    for user in users:
        result.append(user.name)
    return result


def lookup(table, key):
    if key in table.keys():
        return table[key]
    return None


def parse(text):
    if not text:
        log.error("empty input")
        raise ValueError("empty input")
    return text.split()


def connect(host, timeout=None):
    if timeout is None:
        timeout = 30
    return host, timeout


def shout(flag):
    # slopmark: ignore[equality-with-true]
    if flag == True:
        return "yes"
    return "no"


def shout_again(flag):
    if flag == True:
        return "yes"
    return "no"


def total(prices):
    return sum(price for price in prices)


def check(a, b):
    if a:
        if b:
            return 1
    return 0


# Expected hits (first-last line, rule), worked out by hand; kept at the end so
# they shift no line above. The ignore comment in `shout` suppresses line 43.
# expect-hit: 9-12 if-else-returns-bool-literals
# expect-hit: 17-18 append-loop-comprehension
# expect-hit: 23-23 dict-keys-membership
# expect-hit: 30-30 log-then-raise
# expect-hit: 36-37 none-default-for-constant
# expect-hit: 49-49 equality-with-true
# expect-hit: 55-55 identity-generator
# expect-hit: 59-61 collapsible-nested-if
