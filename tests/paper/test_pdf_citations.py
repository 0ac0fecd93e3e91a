"""Author–year citations of a PDF resolve to the reference list's entries, or stay text."""

from __future__ import annotations

import pytest

from slopmark.paper.pdf.authoryear import AuthorIndex, parse_items, unique_keys
from slopmark.paper.pdf.bibliography import Entry, author_index, entries
from slopmark.paper.pdf.inline import Context, to_latex

ENTRIES = (
    Entry("lenc2015", "Karel Lenc and Andrea Vedaldi. Understanding image representations. "
                      "In CVPR, 2015."),
    Entry("lecun1995", "Yann LeCun and Yoshua Bengio. Convolutional networks for images, "
                       "speech, and time series. 1995."),
    Entry("weiler2018a", "Maurice Weiler, Mario Geiger, and Max Welling. 3D steerable CNNs. "
                         "arXiv:1807.02547, 2018a."),
    Entry("weiler2018b", "Maurice Weiler, Fred A. Hamprecht, and Martin Storath. Learning "
                         "steerable filters. In CVPR, 2018b."),
    Entry("maaten2008", "Laurens van der Maaten and Geoffrey Hinton. Visualizing data using "
                        "t-SNE. JMLR, 2008."),
    Entry("smith2020", "Smith, A. and Jones, B. 2020. Sparse models. Journal of Y."),
    Entry("smith2020x2", "Smith, C. and Brown, D. 2020. Dense models. Journal of Z."),
)  # fmt: skip
CONTEXT = Context(authors=author_index(ENTRIES))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Lenc and Vedaldi [2015] show", r"As \citet{lenc2015} show"),
        ("networks [LeCun et al., 1995].", r"networks \citep{lecun1995}."),
        ("[Lenc and Vedaldi, 2015, LeCun et al., 1995]", r"\citep{lenc2015,lecun1995}"),
        ("[Lenc and Vedaldi, 2015; LeCun et al., 1995]", r"\citep{lenc2015,lecun1995}"),
        ("Weiler et al. [2018a,b]", r"\citet{weiler2018a,weiler2018b}"),
        ("(Weiler et al., 2018b; Lenc and Vedaldi, 2015)", r"\citep{weiler2018b,lenc2015}"),
        ("(see van der Maaten and Hinton, 2008)", r"\citep[see][]{maaten2008}"),
        ("Smith and Brown (2020)", r"\citet{smith2020x2}"),
        ("Smith and Jones [2020]", r"\citet{smith2020}"),
        # Nothing in the reference list: the citation stays text, no key is made up.
        ("Unknown and Other [2015]", "Unknown and Other [2015]"),
        ("[Nobody et al., 2015]", "[Nobody et al., 2015]"),
        ("Lenc and Vedaldi [2016]", "Lenc and Vedaldi [2016]"),
        # A bracketed number in an author–year paper is not entry 2015 (the phantom key).
        ("results [2015] and [3]", "results [2015] and [3]"),
        ("in [0, 1] in 2015", "in [0, 1] in 2015"),
    ],
)  # fmt: skip
def test_author_year_citations_resolve_against_the_list(text: str, expected: str) -> None:
    assert to_latex(text, CONTEXT) == expected


def test_a_list_keeps_the_parts_it_can_resolve() -> None:
    assert to_latex("[LeCun et al., 1995, Nobody, 2001]", CONTEXT) == r"\citep{lecun1995}"


def test_numeric_citations_keep_working_with_a_numbered_list() -> None:
    context = Context(numeric_entries=12)
    assert to_latex("as in [12] and [3, 5–7]", context) == (
        r"as in \cite{ref12} and \cite{ref3,ref5,ref6,ref7}"
    )


def test_parse_items_expands_suffix_letters_and_splits_lists() -> None:
    assert parse_items("Chen et al., 2019, Li and Wu, 2020") == [
        ("Chen et al.", ("2019",)), ("Li and Wu", ("2020",))]  # fmt: skip
    assert parse_items("Smith, 2015a, b, 2016") == [("Smith", ("2015a", "2015b", "2016"))]
    assert parse_items("0, 1") is None


def test_an_entry_answers_its_bare_year_and_no_other() -> None:
    index = AuthorIndex([("lee2019a", "Lee, J. 2019a. Fast routing.")])
    assert index.resolve("Lee et al.", "2019") == "lee2019a"
    assert index.resolve("Lee et al.", "2019b") is None
    assert index.resolve("Kim", "2019a") is None


def test_the_first_author_is_found_however_the_entry_is_printed() -> None:
    index = AuthorIndex([
        ("systems2019", "Anonomous. Measuring arithmetic extrapolation. In Science meets "
                        "Engineering of Deep Learning Workshop, 2019."),
        ("inference1927", "Edwin B. Wilson. Probable inference, the law of succession. "
                          "JASA, 22(158):209–212, 1927."),
        ("hill2019", "Felix Hill and Edwin Wilson. Another paper. 2019."),
    ])  # fmt: skip
    assert index.resolve("Anonomous", "2019") == "systems2019"
    assert index.resolve("Wilson", "1927") == "inference1927"
    assert index.resolve("Wilson", "2019") == "hill2019"  # named, if not first
    assert index.resolve("Hill and Wilson", "2019") == "hill2019"


def test_an_entry_broken_over_a_page_keeps_its_year() -> None:
    from slopmark.paper.pdf.blocks import Paragraph

    first = Paragraph("", 9, 1, (72.0, 84.0), ("Tero Karras, Miika Aittala, and Samuli",
                                               "Laine. Elucidating the design space."))
    second = Paragraph("", 9, 2, (72.0,), ("2022. URL https://openreview.net/forum.",))
    found = entries([first, second])
    assert len(found) == 1 and found[0].text.endswith("2022. URL https://openreview.net/forum.")
    assert found[0].key == "karras2022"


def test_repeated_keys_stay_distinct() -> None:
    assert unique_keys(["a2020", "b2019", "a2020", "a2020"]) == [
        "a2020", "b2019", "a2020x2", "a2020x3"]  # fmt: skip
