# expect-file: sloc=46 callables=8
# ruff: noqa
# fmt: off
"""Module docstring
spanning three lines.
"""

import textwrap

# A multi-line string assigned to a name: only its first line has a token start.
GREETING = """multi-line
string assigned
to a name"""

# Code after the closing quotes puts a token start on the closing line.
QUERY = textwrap.dedent("""
    SELECT *
    FROM t
""").strip()

# So does the comma after a multi-line argument.
HELP = dict(
    text="""first
second""",
    width=80,
)

# Implicit concatenation: one token per line.
MESSAGE = ("first part "
           "second part")

TOTAL = 1 + \
    2

"""A bare string between statements
is not code either."""


def with_docstring(x):  # expect: cc=1 sloc=2
    """Return x.

    Longer description.
    """
    return x


def bare_strings(x):  # expect: cc=1 sloc=3
    y = x + 1
    "a note in the middle"
    'single quoted'
    r"""raw and
    multi-line"""
    return y


# Its string statements drop out of the clone form, but the `;` between its first two
# statements is a token of the form (the reference's tree-sitter form): no clone of
# `commented`.
def not_owning(x):  # expect: cc=1 sloc=4
    "shares its line"; value = x
    """trailing comment on the closing line"""  # so this line is not the string's alone
    return value


def fstring_and_bytes(x):  # expect: cc=1 sloc=5
    f"""an f-string statement {x}
    is code"""
    b"""bytes too
    are code"""
    return x


def concatenated_statements():  # expect: cc=1 sloc=6
    "first " \
    "second"
    ("third "
     "fourth")
    return 1


def report(name, items):  # expect: cc=2 sloc=6
    text = f"""Report for {name}
items: {len(items)
        or 0}
total
{sum(items)}"""
    return text


def commented(x):  # expect: cc=1 sloc=3
    # leading comment

    y = x  # trailing comment
    # another comment
    #

    return y


def string_with_hash():  # expect: cc=1 sloc=4
    sql = """
# not a comment, but inside a string
""" + "x"
    return sql
