"""Preservation checks of a revised tree against the original, and the reported numbers."""

from __future__ import annotations

from slopmark.paper.revise.preserve import Violation, check_preservation, reported_numbers

MAIN = (
    "\\documentclass{article}\n\\usepackage[margin=1in]{geometry}\n\\begin{document}\n"
    "\\input{sections/results}\n\\end{document}\n"
)
RESULTS = (
    "\\section{Results}\\label{sec:results}\n"
    "Our model reaches 81.23 accuracy and 0.93 F1 \\citep{smith2020}, see Table~\\ref{tab:1}.\n\n"
    "\\begin{figure}[t]\\centering\\includegraphics[width=0.5\\linewidth]{fig2.png}\n"
    "\\caption{Curves.}\\label{fig:curves}\\end{figure}\n\n"
    "Training used 3{,}000 steps \\cite{lee2021}.\n"
)
ORIGINAL = {"main.tex": MAIN, "sections/results.tex": RESULTS}


def _revised(old: str, new: str) -> dict[str, str]:
    assert old in RESULTS
    return {"main.tex": MAIN, "sections/results.tex": RESULTS.replace(old, new)}


def _hard(violations: list[Violation]) -> list[tuple[str, str]]:
    return [(v.kind, v.detail) for v in violations if v.hard]


def test_reported_numbers_skip_keys_layout_pointers_and_cited_years() -> None:
    text = (
        "\\documentclass{article}\n\\setlength{\\tabcolsep}{4pt}\n\\begin{document}\n"
        "We gain 12\\% (81.2 vs.\\ 79.5) with lr $1e-4$ on 3{,}000 samples, $0.93 \\pm 0.02$, "
        "see Section 3.2, Table~\\ref{tab:7} and Smith et al. (2020) \\citep[p.~7]{a2019}. % 99.9\n"
        "\\begin{table}[t]\\resizebox{0.9\\linewidth}{!}{\\begin{tabular}{p{3cm}cc}\n"
        "\\multicolumn{2}{c}{x} & 45.6 \\\\ \\cmidrule(lr){2-3}\n\\end{tabular}}\\end{table}\n"
        "\\vspace{-2mm}\\label{eq:5}\n\\end{document}\n"
    )
    assert reported_numbers(text) == [
        "12%", "81.2", "79.5", "1e-4", "3{,}000", "0.93", "0.02", "45.6"
    ]  # fmt: skip


def test_an_unchanged_tree_has_no_violation() -> None:
    assert check_preservation(ORIGINAL, dict(ORIGINAL), "main.tex") == []


def test_a_changed_reported_number_is_hard() -> None:
    violations = check_preservation(ORIGINAL, _revised("0.93 F1", "0.95 F1"), "main.tex")
    assert _hard(violations) == [("number_changed", "reported number 0.93 became 0.95 (line 1)")]
    assert violations[0].file == "sections/results.tex"


def test_a_rounded_number_is_a_hard_change() -> None:
    violations = check_preservation(ORIGINAL, _revised("81.23", "81.2"), "main.tex")
    assert _hard(violations) == [("number_changed", "reported number 81.23 became 81.2 (line 1)")]


def test_a_dropped_number_is_lost() -> None:
    revised = _revised("Training used 3{,}000 steps", "Training used many steps")
    assert _hard(check_preservation(ORIGINAL, revised, "main.tex")) == [
        ("number_lost", "reported number 3{,}000 no longer appears")
    ]


def test_an_added_number_is_only_an_audit_flag() -> None:
    violations = check_preservation(ORIGINAL, _revised("3{,}000 steps", "3{,}000 steps (5 runs)"),
                                    "main.tex")  # fmt: skip
    assert violations == [Violation("number_added", False, "number 5 was not in the original")]


def test_a_removed_citation_is_hard_and_an_added_one_is_audited() -> None:
    revised = _revised("\\citep{smith2020}", "\\citep{jones2022}")
    violations = check_preservation(ORIGINAL, revised, "main.tex")
    assert _hard(violations) == [("citation_lost", "cited key smith2020 is no longer cited")]
    assert [(v.kind, v.hard) for v in violations if not v.hard] == [("citation_added", False)]


def test_a_removed_figure_loses_its_float_and_label() -> None:
    figure = RESULTS[RESULTS.index("\\begin{figure}") : RESULTS.index("\\end{figure}") + 12]
    violations = check_preservation(ORIGINAL, _revised(figure, ""), "main.tex")
    assert _hard(violations) == [
        ("label_lost", "label fig:curves removed"), ("float_lost", "figure: 1 before, 0 after")
    ]  # fmt: skip


def test_a_deleted_input_target_does_not_expand() -> None:
    revised = {"main.tex": MAIN}
    hard = [v for v in check_preservation(ORIGINAL, revised, "main.tex") if v.hard]
    assert ("does_not_expand", "missing \\input file 'sections/results' (also tried .tex)") in [
        (v.kind, v.detail) for v in hard
    ]


def test_a_missing_main_file_does_not_expand() -> None:
    revised = {"sections/results.tex": RESULTS}
    (violation,) = check_preservation(ORIGINAL, revised, "main.tex")
    assert violation.kind == "does_not_expand" and violation.hard


def test_a_new_quote_environment_is_an_exhibit() -> None:
    revised = _revised("Training used", "\\begin{quote}Log line\\end{quote}\nTraining used")
    assert check_preservation(ORIGINAL, revised, "main.tex") == [
        Violation("exhibit_added", False, "quote: 0 before, 1 after")
    ]
