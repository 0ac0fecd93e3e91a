"""Java rules on the real snippets they misfired on (issue 36): each fixture is a few
lines of a published package, cited by package@version and path, and the test holds the
rule to what a reviewer would say about it."""

from __future__ import annotations

from slopmark.code.measure.native import Engine
from slopmark.code.measure.rules import load_catalog

CATALOG = tuple(rule for rule in load_catalog() if rule.language == "java")


def hit_lines(rule_id: str, source: str) -> list[int]:
    """The lines ``rule_id`` hits in ``source`` (a Java file)."""
    rules = [rule for rule in CATALOG if rule.id == rule_id]
    (found,) = Engine(rules).analyze_sources([(source.encode(), "Snippet.java")])
    return [hit.start for hit in found.hits]


# maven:commons-io:commons-io@2.22.0, org/apache/commons/io/input/ReversedLinesFileReader.java
# (the constructor): the first arms assign and fall through, so the last `else` cannot be
# unnested after the `else if` that throws.
FALLS_THROUGH = """\
class ReversedLinesFileReader {
    ReversedLinesFileReader(Charset charset, float maxBytesPerChar) throws IOException {
        if (maxBytesPerChar == 1f || charset == StandardCharsets.UTF_8) {
            byteDecrement = 1;
        } else if (charset == StandardCharsets.UTF_16BE || charset == StandardCharsets.UTF_16LE) {
            byteDecrement = 2;
        } else if (charset == StandardCharsets.UTF_16) {
            throw new UnsupportedEncodingException("For UTF-16, specify the byte order");
        } else {
            throw new UnsupportedEncodingException("Encoding " + charset + " is not supported");
        }
        this.avoidNewlineSplitBufferSize = newLineSequences[0].length;
    }
}
"""


def test_else_if_after_an_arm_that_falls_through_is_not_flagged() -> None:
    assert hit_lines("java-else-after-return", FALLS_THROUGH) == []


def test_else_if_after_arms_that_all_return_is_flagged() -> None:
    every_arm_leaves = FALLS_THROUGH.replace("byteDecrement = 1;", "return;").replace(
        "byteDecrement = 2;", "return;"
    )
    assert hit_lines("java-else-after-return", every_arm_leaves) == [7]
