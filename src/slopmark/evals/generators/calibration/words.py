"""Calibration templates: letters, words and short strings."""

from __future__ import annotations

import random
import string

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.calibration.question import DOMAIN, ask, level, yes_no

#: Short words are easy; long words with repeated letters are where models slip.
WORDS = (
    ("apple", "tiger", "house", "river", "candle", "pencil", "garden", "planet", "bottle"),
    ("banana", "balloon", "coffee", "giraffe", "referee", "address", "success", "tattoo",
     "pepper", "vacuum", "cabbage", "letter"),
    ("strawberry", "mississippi", "bookkeeper", "committee", "necessary", "occurrence",
     "accommodate", "embarrassment", "onomatopoeia", "hippopotamus", "possession",
     "millennium", "cappuccino", "assessment", "parallelogram"),
)  # fmt: skip


def _word(rng: random.Random, k: int) -> str:
    return rng.choice(WORDS[k - 1])


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"


@register("count-letter", domain=DOMAIN)
def count_letter(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    word = _word(rng, k)
    letter = rng.choice(word) if rng.random() < 0.85 else rng.choice("zqxj")
    question = f'How many times does the letter "{letter}" appear in the word "{word}"?'
    return ask(question, word.count(letter), "integer", difficulty, "letters")


@register("word-length", domain=DOMAIN)
def word_length(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    word = _word(rng, k)
    question = f'How many letters does the word "{word}" have?'
    return ask(question, len(word), "integer", difficulty, "letters")


@register("reverse-word", domain=DOMAIN)
def reverse_word(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    word = _word(rng, k)
    return ask(f'Spell the word "{word}" backwards.', word[::-1], "text", difficulty, "letters")


@register("nth-letter", domain=DOMAIN)
def nth_letter(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    word = _word(rng, k)
    position = rng.randint(1, len(word))
    question = f'What is the {_ordinal(position)} letter of the word "{word}"?'
    return ask(question, word[position - 1], "text", difficulty, "letters")


@register("count-vowels", domain=DOMAIN)
def count_vowels(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    phrase = " ".join(_word(rng, k) for _ in range(k + 1))
    question = f'How many vowels (a, e, i, o, u) are in "{phrase}"?'
    return ask(question, sum(ch in "aeiou" for ch in phrase), "integer", difficulty, "letters")


@register("alphabet-position", domain=DOMAIN)
def alphabet_position(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    letter = rng.choice(string.ascii_lowercase[: 6 + 10 * k])
    question = f'What is the position of the letter "{letter}" in the English alphabet (a = 1)?'
    return ask(question, string.ascii_lowercase.index(letter) + 1, "integer", difficulty,
               "alphabet")


@register("letter-shift", domain=DOMAIN)
def letter_shift(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    word, shift = _word(rng, k), rng.randint(1, 3 * k)
    shifted = "".join(chr((ord(ch) - 97 + shift) % 26 + 97) for ch in word)
    question = (f'Shift every letter of "{word}" forward by {shift} places in the alphabet '
                "(z wraps around to a). What is the result?")
    return ask(question, shifted, "text", difficulty, "alphabet")


@register("first-alphabetically", domain=DOMAIN)
def first_alphabetically(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    pool = [w for w in WORDS[k - 1] + WORDS[-1] if w[0] in "abcmps"]
    choices = rng.sample(pool, 2 + k)
    question = f"Which of these words comes first in alphabetical order: {', '.join(choices)}?"
    return ask(question, min(choices), "choice", difficulty, "ordering", choices=choices)


@register("count-words", domain=DOMAIN)
def count_words(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    words = [rng.choice(WORDS[rng.randrange(3)]) for _ in range(rng.randint(4 * k, 8 * k))]
    sentence = " ".join(words).capitalize() + "."
    question = f'How many words are in this sentence: "{sentence}"'
    return ask(question, len(words), "integer", difficulty, "counting")


@register("is-anagram", domain=DOMAIN)
def is_anagram(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    word = _word(rng, k)
    letters = list(word)
    rng.shuffle(letters)
    if rng.random() < 0.5:
        index = rng.randrange(len(letters))
        letters[index] = rng.choice([c for c in "aeioustrn" if c != letters[index]])
    other = "".join(letters)
    truth = sorted(other) == sorted(word)
    return yes_no(f'Is "{other}" an anagram of "{word}"?', truth, difficulty, "letters")


@register("is-palindrome", domain=DOMAIN)
def is_palindrome(rng: random.Random) -> Draft:
    difficulty, k = level(rng)
    half = "".join(rng.choice("abcdeilmnorst") for _ in range(k + 1))
    text = half + rng.choice(["", rng.choice("aeiou")]) + half[::-1]
    if rng.random() < 0.5:
        index = rng.randrange(len(text) // 2)
        text = text[:index] + rng.choice([c for c in "xyz" if c != text[index]]) + text[index + 1:]
    truth = text == text[::-1]
    return yes_no(f'Does "{text}" read the same forwards and backwards?', truth, difficulty,
                  "letters")
