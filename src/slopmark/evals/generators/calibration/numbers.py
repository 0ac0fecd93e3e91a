"""Calibration templates: primes, divisors, bases, Roman numerals, lists of numbers."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from slopmark.evals.answers import format_number
from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.calibration.question import DOMAIN, ask, level, yes_no

_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
          (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip


def is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def roman(n: int) -> str:
    out = ""
    for value, letters in _ROMAN:
        count, n = divmod(n, value)
        out += letters * count
    return out


@register("is-prime", domain=DOMAIN)
def prime_test(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randrange(10**k + 1, 10 ** (k + 1), 2)
    if rng.random() < 0.5:
        while not is_prime(n):
            n += 2
    return yes_no(f"Is {n} a prime number?", is_prime(n), difficulty, "primes")


@register("nth-prime", domain=DOMAIN)
def nth_prime(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(5 * k, 25 * k * k)
    primes = [p for p in range(2, 10_000) if is_prime(p)]
    question = f"What is the {n}th prime number (2 is the 1st)?"
    return ask(question, primes[n - 1], "integer", difficulty, "primes")


@register("next-prime", domain=DOMAIN)
def next_prime(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(10**k, 10 ** (k + 1))
    answer = n + 1
    while not is_prime(answer):
        answer += 1
    question = f"What is the smallest prime number greater than {n}?"
    return ask(question, answer, "integer", difficulty, "primes")


@register("divisor-count", domain=DOMAIN)
def divisor_count(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(10 * k, 10 ** (k + 1))
    count = sum(1 for d in range(1, n + 1) if n % d == 0)
    question = f"How many positive divisors does {n} have (counting 1 and {n})?"
    return ask(question, count, "integer", difficulty, "divisors")


@register("gcd", domain=DOMAIN)
def gcd(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    common = rng.randint(2, 10**k)
    a, b = common * rng.randint(2, 30), common * rng.randint(2, 30)
    question = f"What is the greatest common divisor of {a} and {b}?"
    return ask(question, math.gcd(a, b), "integer", difficulty, "divisors")


@register("lcm", domain=DOMAIN)
def lcm(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    values = rng.sample(range(2, 8 * k + 6), k + 1)
    listing = ", ".join(map(str, values[:-1])) + f" and {values[-1]}"
    question = f"What is the least common multiple of {listing}?"
    return ask(question, math.lcm(*values), "integer", difficulty, "divisors")


@register("last-digit", domain=DOMAIN)
def last_digit(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    base, exponent = rng.randint(2, 9 + 10 * k), rng.randint(5, 10 ** (k + 1))
    question = f"What is the last digit of {base}^{exponent}?"
    return ask(question, pow(base, exponent, 10), "integer", difficulty, "modular")


@register("remainder", domain=DOMAIN)
def remainder(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    a, m = rng.randint(10 ** (k + 1), 10 ** (2 * k + 1)), rng.randint(3, 6 * k + 7)
    question = f"What is the remainder when {a} is divided by {m}?"
    return ask(question, a % m, "integer", difficulty, "modular")


@register("digit-sum", domain=DOMAIN)
def digit_sum(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(10 ** (3 * k), 10 ** (4 * k))
    question = f"What is the sum of the digits of {n}?"
    return ask(question, sum(map(int, str(n))), "integer", difficulty, "digits")


@register("digits-of-power", domain=DOMAIN)
def digits_of_power(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    exponent = rng.randint(10 * k, 40 * k)
    question = f"How many digits does 2^{exponent} have when written out in full?"
    return ask(question, len(str(2**exponent)), "integer", difficulty, "digits")


@register("digit-occurrences", domain=DOMAIN)
def digit_occurrences(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    digit, upper = rng.randint(1, 9), rng.randint(10**k, 3 * 10**k)
    count = sum(str(n).count(str(digit)) for n in range(1, upper + 1))
    question = f"How many times is the digit {digit} written when listing the numbers 1 to {upper}?"
    return ask(question, count, "integer", difficulty, "digits")


@register("to-binary", domain=DOMAIN)
def to_binary(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(2 ** (2 * k + 1), 2 ** (4 * k + 2))
    question = f"Write the decimal number {n} in binary (digits only)."
    return ask(question, f"{n:b}", "text", difficulty, "bases", aliases=[f"0b{n:b}"])


@register("from-binary", domain=DOMAIN)
def from_binary(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(2 ** (2 * k + 1), 2 ** (4 * k + 2))
    question = f"What is the binary number {n:b} in decimal?"
    return ask(question, n, "integer", difficulty, "bases")


@register("from-hex", domain=DOMAIN)
def from_hex(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(16**k, 16 ** (k + 1))
    question = f"What is the hexadecimal number {n:X} in decimal?"
    return ask(question, n, "integer", difficulty, "bases")


@register("from-roman", domain=DOMAIN)
def from_roman(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(10 ** (k - 1) * 4, min(3999, 10**k * 4))
    question = f"What number does the Roman numeral {roman(n)} stand for?"
    return ask(question, n, "integer", difficulty, "roman")


@register("to-roman", domain=DOMAIN)
def to_roman(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(10 ** (k - 1) * 4, min(3999, 10**k * 4))
    return ask(f"Write {n} in Roman numerals.", roman(n), "text", difficulty, "roman")


@register("fibonacci", domain=DOMAIN)
def fibonacci(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    n = rng.randint(6 * k, 14 * k)
    a, b = 1, 1
    for _ in range(n - 1):
        a, b = b, a + b
    question = f"In the Fibonacci sequence 1, 1, 2, 3, 5, 8, …, what is term number {n}?"
    return ask(question, a, "integer", difficulty, "series")


@register("sort-numbers", domain=DOMAIN)
def sort_numbers(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    values = rng.sample(range(-50 * k, 100 * k * k), 3 + 2 * k)
    question = f"Sort these numbers from smallest to largest: {', '.join(map(str, values))}."
    return ask(question + " Give them comma-separated.", sorted(values), "list", difficulty,
               "ordering")


@register("median", domain=DOMAIN)
def median(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    values = [rng.randint(1, 40 * k) for _ in range(rng.randint(3 + k, 4 + 3 * k))]
    ordered, middle = sorted(values), len(values) // 2
    value = Fraction(ordered[middle] + ordered[~middle], 2)
    question = f"What is the median of {', '.join(map(str, values))}?"
    return ask(question, format_number(value), "number", difficulty, "statistics")


@register("count-even", domain=DOMAIN)
def count_even(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    values = [rng.randint(1, 99 * k) for _ in range(4 + 4 * k)]
    question = f"How many of these numbers are even: {', '.join(map(str, values))}?"
    return ask(question, sum(v % 2 == 0 for v in values), "integer", difficulty, "counting")
