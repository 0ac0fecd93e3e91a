"""Edit blocks: parsing an editor's answer, applying quotes, refusing damaged files."""

from __future__ import annotations

from slopmark.paper.revise.edits import (
    EDIT_FORMAT,
    EditBlock,
    Rejection,
    accept_file,
    apply_blocks,
    parse_edit_blocks,
)

TEXT = (
    "\\documentclass{article}\n\\begin{document}\n\\section{Intro}\\label{sec:intro}\n"
    "We study slop. It is important to note that slop matters.\n\n"
    "Results are good.\n\nResults are good.\n\n"
    "\\begin{table}\\caption{T}\\label{tab:main}\\end{table}\n\\end{document}\n"
)


def _block(quote: str, replacement: str) -> EditBlock:
    return EditBlock("main.tex", quote, replacement)


def test_blocks_are_read_out_of_prose_fences_and_crlf() -> None:
    answer = (
        "Here is my edit.\r\n```latex\r\n<<<<<<< ORIGINAL\r\n"
        "It is important to note that slop matters.\r\n=======\r\nSlop matters.\r\n"
        ">>>>>>> REVISED\r\n```\r\nAnd a second one:\n<<<<<<< ORIGINAL\nWe study slop.\n\n"
        "=======\nWe measure slop.\n>>>>>>> REVISED\nDone."
    )
    blocks = parse_edit_blocks(answer, "main.tex")
    assert blocks == [
        _block("It is important to note that slop matters.", "Slop matters."),
        _block("We study slop.", "We measure slop."),
    ]


def test_nochange_alone_or_on_its_own_line_is_none() -> None:
    assert parse_edit_blocks("NOCHANGE", "a.tex") is None
    assert parse_edit_blocks("I read the file.\n**NOCHANGE**\n", "a.tex") is None


def test_malformed_blocks_are_skipped_and_no_block_is_empty() -> None:
    answer = (
        "<<<<<<< ORIGINAL\nno divider\n>>>>>>> REVISED\n"
        "<<<<<<< ORIGINAL\nnever closed\n=======\nx\n"
    )
    assert parse_edit_blocks(answer, "a.tex") == []
    assert parse_edit_blocks("I would rewrite the intro.", "a.tex") == []


def test_blocks_apply_in_order_on_the_current_text() -> None:
    blocks = [
        _block("It is important to note that slop matters.", "Slop matters."),
        _block("We study slop. Slop matters.", "We study slop, which matters."),
    ]
    text, applied, rejected = apply_blocks(TEXT, blocks)
    assert "We study slop, which matters.\n" in text
    assert applied == blocks and rejected == []


def test_an_ambiguous_quote_and_a_missing_quote_are_refused() -> None:
    blocks = [_block("Results are good.", "Results are fine."), _block("Absent text.", "x")]
    text, applied, rejected = apply_blocks(TEXT, blocks)
    assert text == TEXT and applied == []
    assert rejected == [
        Rejection("main.tex", "quote occurs 2 times", "Results are good."),
        Rejection("main.tex", "quote not found", "Absent text."),
    ]


def test_trailing_spaces_and_crlf_of_the_file_still_match() -> None:
    text = "Line one.  \r\nLine two.\r\n"
    new, applied, _ = apply_blocks(text, [_block("Line one.\nLine two.", "Lines.\nTwo.")])
    assert new == "Lines.\r\nTwo.\r\n" and len(applied) == 1


def test_an_intact_edit_is_accepted() -> None:
    edited = TEXT.replace("It is important to note that slop matters.", "Slop matters.")
    assert accept_file(TEXT, edited, "main.tex") is None


def test_a_dropped_end_document_is_refused() -> None:
    rejection = accept_file(TEXT, TEXT.replace("\\end{document}\n", ""), "main.tex")
    assert rejection == Rejection("main.tex", "\\end{document} removed")


def test_a_removed_label_and_table_are_named() -> None:
    edited = TEXT.replace("\\begin{table}\\caption{T}\\label{tab:main}\\end{table}\n", "")
    rejection = accept_file(TEXT, edited, "main.tex")
    assert rejection is not None
    assert rejection.reason == "label tab:main removed; environment table: 1 begins before, 0 after"


def test_a_three_times_longer_file_is_refused() -> None:
    edited = TEXT + "x" * (2 * len(TEXT) + len(TEXT) // 10)
    rejection = accept_file(TEXT, edited, "main.tex")
    assert rejection == Rejection("main.tex", "length 3.1× the original (allowed 0.5–2.5×)")


def test_a_removed_input_and_an_unbalanced_new_environment_are_refused() -> None:
    original = "\\input{sections/intro}\n\\input{sections/method}\nText here.\n"
    edited = "\\input{sections/intro}\n\\begin{itemize}\nText here.\n"
    rejection = accept_file(original, edited, "main.tex")
    assert rejection is not None
    assert rejection.reason.startswith("\\input{sections/method} removed; environment itemize:")


def test_commented_structure_does_not_count_and_new_balanced_envs_pass() -> None:
    original = "% \\label{old}\nText here and more.\n"
    edited = "\\begin{quote}\nText here.\n\\end{quote}\n"
    assert accept_file(original, edited, "a.tex") is None


def test_the_format_shows_the_markers_the_parser_reads() -> None:
    example = EDIT_FORMAT.split("\n\n")[1]
    assert parse_edit_blocks(example, "a.tex") == [
        EditBlock("a.tex", "the exact passage copied from the file", "the replacement text")
    ]
