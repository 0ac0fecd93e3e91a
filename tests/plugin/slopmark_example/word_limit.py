"""A verifier: the answer has at most ``max_words`` words.

Task file: ``verifier: {type: word_limit, max_words: 50}``.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from slopmark.evals.verifiers import Check, Message, Verdict, register


@register("word_limit")
class WordLimit:
    name: str

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        limit = config.get("max_words")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            return [f"max_words must be a positive integer, got {limit!r}"]
        return []

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        words, limit = len(output.split()), config["max_words"]
        return Verdict.from_checks(
            [Check("word_limit", words <= limit, f"{words} words, at most {limit}")]
        )
