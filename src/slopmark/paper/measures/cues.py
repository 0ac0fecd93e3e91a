"""The frozen word lists citation isolation reads to decide whether a citing sentence weaves.

"Science or Slop?" (Appendix A, Eq. 6) counts a citing sentence as woven when
it cites two works, names a second work outside a citation command, or links
two works "by a cue from a frozen list". This module is that list and the two
detectors that go with it. Every pattern runs on the prose view of a sentence
(citations replaced by the ``zzcite`` sentinel) and is case-insensitive unless
noted. Changing a list changes every score: bump `CUE_LIST_VERSION` when you do.

Cues (`CUES`), by the relation they express:

- contrast: unlike, in contrast (to / with), contrary to, as opposed to,
  whereas, differs / differ / different from, and ``while`` used
  contrastively (``While A does x, B ...`` or ``A does x, while B ...``);
- extension: extends / extend / extended / extending, extension of,
  builds / built / building on (upon), generalizes (-ises, -ized, -ised),
  generalization of, improves / improved / improving on (upon),
  following (not "the following"), follows (not "as follows"), inspired by, adapts, adapted from,
  variant of;
- comparison: similar to, similarly, likewise, compared to / with,
  in comparison to / with, outperforms / outperformed / outperforming,
  as in, akin to, analogous to.

A cue only weaves when its other side is not the present paper: a sentence
that mentions the present paper (`PRESENT_PAPER`: we, our, ours, us,
this paper / work / study / article, the present paper / work / study,
the proposed ...) is taken to relate the cited work to the present paper,
so its cues do not count ("Unlike \\citet{x}, our method ..." is isolated).
Known false negative: "Unlike earlier models, \\citet{x} ..., and we adopt it"
relates two works and the present paper, and is not credited.

Author mentions (`author_mentions`): an author–year mention written in the
text rather than produced by a citation command names a work: ``Smith et al.``
(``et~al.`` too), ``Smith and Jones (2020)`` / ``Smith & Jones, 2020``,
``Smith (2020)`` and ``(Smith, 2020)``. Capitalised function words
(`NOT_AUTHORS`: In, The, Table, Section, ...) are never surnames.

Work names: a name the paper binds to one cited work (see citation isolation)
is a method name unless it is a generic family of models (`GENERIC_NAMES`:
LLM, CNN, GAN, ...), which names a kind of model rather than one work.
"""

from __future__ import annotations

import re

CUE_LIST_VERSION = "1"

CONTRAST_CUES = (
    "unlike", "in contrast", "contrary to", "as opposed to", "whereas", "differs from",
    "differ from", "different from",
)  # fmt: skip
EXTENSION_CUES = (
    "extends", "extend", "extended", "extending", "extension of", "builds on", "builds upon",
    "built on", "built upon", "building on", "building upon", "generalizes", "generalises",
    "generalized", "generalised", "generalization of", "improves on", "improves upon",
    "improved on", "improved upon", "improving on", "improving upon",
    "inspired by", "adapts", "adapted from", "variant of",
)  # fmt: skip
COMPARISON_CUES = (
    "similar to", "similarly", "likewise", "compared to", "compared with",
    "in comparison to", "in comparison with", "outperforms", "outperformed", "outperforming",
    "as in", "akin to", "analogous to",
)  # fmt: skip
CUES: dict[str, tuple[str, ...]] = {
    "contrast": CONTRAST_CUES,
    "extension": EXTENSION_CUES,
    "comparison": COMPARISON_CUES,
}

#: Cues that need more than a phrase match: contrastive "while", "following" (not "the
#: following") and "follows" (not "as follows"), each with the relation it expresses.
_SHAPED_CUES = {
    "contrast": r"^\s*while\b[^.]*?,|,\s*while\b",
    "extension": r"(?<!the )\bfollowing\b|(?<!as )\bfollows\b",
}

PRESENT_PAPER = (
    "we", "our", "ours", "us", "this paper", "this work", "this study", "this article",
    "the present paper", "the present work", "the present study", "the proposed",
)  # fmt: skip

NOT_AUTHORS = frozenset({
    "In", "On", "At", "By", "As", "Of", "For", "From", "To", "The", "This", "That", "These",
    "Those", "Since", "After", "Before", "During", "Until", "Table", "Tables", "Figure",
    "Figures", "Fig", "Section", "Sections", "Sec", "Appendix", "Equation", "Eq", "Algorithm",
    "Theorem", "Lemma", "Chapter", "Step", "Version", "Year", "Both", "And", "Also", "Then",
    "Here", "However", "Finally",
})  # fmt: skip

GENERIC_NAMES = frozenset({
    "AI", "ML", "NLP", "CV", "RL", "LM", "LMs", "LLM", "LLMs", "VLM", "VLMs", "MLLM", "MLLMs",
    "DNN", "DNNs", "NN", "NNs", "CNN", "CNNs", "RNN", "RNNs", "GNN", "GNNs", "GAN", "GANs", "VAE",
    "VAEs", "MLP", "MLPs", "SOTA", "SGD", "API", "APIs", "GPU", "GPUs",
})  # fmt: skip


def _phrases(phrases: tuple[str, ...]) -> str:
    return "|".join(r"\b" + r"\s+".join(map(re.escape, p.split())) + r"\b" for p in phrases)


_CUE_PATTERNS = {
    relation: re.compile(_phrases(phrases) + "|" + _SHAPED_CUES.get(relation, r"(?!)"), re.I)
    for relation, phrases in CUES.items()
}
_PRESENT = re.compile(_phrases(PRESENT_PAPER), re.I)

_NAME = r"[A-Z][\w'’-]*[^\W\d_]"
_YEAR = r"(?:19|20)\d\d[a-z]?\b"
_AUTHOR_PATTERNS = (
    re.compile(rf"\b({_NAME})\s+et\s*al\b\.?"),
    re.compile(rf"\b({_NAME})\s+(?:and|&)\s+{_NAME},?\s*\(?{_YEAR}\)?"),
    re.compile(rf"\b({_NAME}),?\s+\({_YEAR}\)"),
    re.compile(rf"\(({_NAME}),\s*{_YEAR}"),
)


def find_cue(text: str) -> tuple[str, str] | None:
    """The first cue in ``text`` as (relation, cue as written), or None."""
    found = [
        (match.start(), relation, match.group(0).strip(" ,"))
        for relation, pattern in _CUE_PATTERNS.items()
        if (match := pattern.search(text))
    ]
    if not found:
        return None
    _, relation, cue = min(found)
    return relation, cue


def mentions_present_paper(text: str) -> bool:
    """Does the sentence speak of the present paper (we, our, this paper, ...)?"""
    return _PRESENT.search(text) is not None


def author_mentions(text: str) -> list[tuple[str, int]]:
    """Surnames of author–year mentions written in the text, with where each mention ends.

    A mention inside an earlier, longer one ("Jones (2020)" in "Smith and Jones (2020)") is
    not reported again.
    """
    found: list[tuple[int, int, str]] = []
    for pattern in _AUTHOR_PATTERNS:
        for match in pattern.finditer(text):
            inside = any(start <= match.start() < end for start, end, _ in found)
            if match.group(1) not in NOT_AUTHORS and not inside:
                found.append((match.start(), match.end(), match.group(1)))
    return [(surname, end) for _, end, surname in sorted(found)]
