"""Argument graph (plane ARGUMENT, needs a model): key claims stated before their support.

"Science or Slop?", Appendix A, Eqs. 4-5. The introduction's sentences
s_1..s_n are numbered and each is labelled by the labeller model, a forced
choice over superiority / prior limitation / design choice / none, the
majority of 3 greedy runs (ties → none). The key claims are the sentences
labelled superiority, prior limitation or design choice. For a key claim s_i
the supporting context is the other sentence that most raises its likelihood
under the scorer model (never prompted, only read)::

    pmi(j→i) = 1/(|s_i|−1) · Σ_{t=2..|s_i|} [log P(s_i^t | s_j, s_i^<t) − log P(s_i^t | s_i^<t)]
    π(i)     = argmax_{j≠i} pmi(j→i)          (ties → the earliest j)
    h(i)     = [π(i) > i]                     (Eq. 5: the support comes after the claim)

    score = Σ h(i) / #key claims              (higher = more claims precede their support)

Log-probabilities come from the scorer's echoed prompt: s_i alone for the
second term, "s_j\\ns_i" for the first. Tokens are matched by their character
offset inside s_i, the first token of s_i is skipped (t = 1), and the mean
runs over the positions both tokenisations share (all of them when s_j and
the newline leave s_i's tokens unchanged). A claim whose gain is undefined
for every j (a one-token claim) is recorded in ``detail`` and is not a unit.
Fewer than 3 key claims flags the score as weak. Math, citations and
references reach the models as ``[math]``, ``[cite]`` and ``[ref]``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from slopmark.paper.document import CITE_TOKEN, MATH_TOKEN, REF_TOKEN, Document, Sentence
from slopmark.paper.measures.base import (
    Instance,
    MeasureResult,
    ModelMeasure,
    Plane,
    heading,
    register,
    shown,
)
from slopmark.paper.models import ModelSet, PromptLogprobs
from slopmark.plurals import count

NAME = "argument_graph"
PLANE: Plane = "ARGUMENT"
UNIT = "key claims"
LABELS = ("superiority", "prior limitation", "design choice", "none")
KEY_LABELS = frozenset(LABELS[:3])
RUNS = 3
WEAK_BELOW = 3
#: How an answer names a label; the earliest match in the answer wins.
_LABEL_PATTERNS = (
    ("superiority", re.compile(r"superior", re.I)),
    ("prior limitation", re.compile(r"prior[\s_-]*limitation|limitation", re.I)),
    ("design choice", re.compile(r"design[\s_-]*choice|design", re.I)),
    ("none", re.compile(r"\bnone\b", re.I)),
)
_READABLE = {MATH_TOKEN: "[math]", CITE_TOKEN: "[cite]", REF_TOKEN: "[ref]"}
_SENTINELS = re.compile("|".join(_READABLE))
_SYSTEM = "You label the sentences of a scientific paper's introduction. Answer with one label."
_QUESTION = """Which one label fits sentence [{number}]?
- superiority: says the paper's method or result is better than others
- prior limitation: states a shortcoming or gap of prior work
- design choice: states or justifies a choice made in the paper's own method
- none: anything else
Answer with the label only."""


@dataclass(frozen=True)
class Vote:
    """The labeller's runs on one sentence (1-based ``sentence``) and their majority."""

    sentence: int
    label: str
    runs: tuple[str | None, ...]
    #: The labeller's answers as given.
    answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Support:
    """The supporting context π(i) of claim i (both 1-based) and its gain."""

    claim: int
    support: int
    pmi: float


def introduction(document: Document) -> tuple[Sentence, ...]:
    """The sentences of the introduction, subsections included, in order."""
    indices = {s.index for s in document.sections if s.role == "introduction"}
    return document.sentences_in(indices)


def model_text(sentence: Sentence) -> str:
    """The sentence as the models read it (sentinels made readable, spaces collapsed)."""
    readable = _SENTINELS.sub(lambda match: _READABLE[match.group(0)], sentence.text)
    return " ".join(readable.split())


def label_messages(texts: list[str], number: int) -> list[dict[str, Any]]:
    """The fixed forced-choice prompt over the numbered introduction, for one sentence."""
    numbered = "\n".join(f"[{k}] {text}" for k, text in enumerate(texts, start=1))
    question = _QUESTION.format(number=number)
    user = f"Introduction, numbered by sentence:\n{numbered}\n\n{question}"
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def parse_label(answer: str) -> str | None:
    """The label an answer names first, or None when it names none."""
    found = [(m.start(), label) for label, p in _LABEL_PATTERNS if (m := p.search(answer))]
    return min(found)[1] if found else None


def majority(runs: tuple[str | None, ...]) -> str:
    """The label most runs gave when it is a strict plurality; otherwise (a tie) none."""
    counts = Counter(label or "none" for label in runs).most_common()
    tied = len(counts) > 1 and counts[0][1] == counts[1][1]
    return "none" if tied else counts[0][0]


def label_sentences(texts: list[str], models: ModelSet) -> list[Vote]:
    votes = []
    for number in range(1, len(texts) + 1):
        messages = label_messages(texts, number)
        answers = tuple(models.chat(messages, run=run) for run in range(RUNS))
        runs = tuple(map(parse_label, answers))
        votes.append(Vote(number, majority(runs), runs, answers))
    return votes


def pmi(conditioned: PromptLogprobs, start: int, alone: PromptLogprobs) -> float | None:
    """Eq. 4's mean gain over the claim's tokens after the first; None when none remain."""
    with_context = {t.offset - start: t.logprob for t in conditioned.starting_at(start)}
    without = {t.offset: t.logprob for t in alone.starting_at(0)}
    if not without:
        return None
    first = min(without)
    gains = [
        gain - base
        for offset, base in without.items()
        if offset != first and base is not None and (gain := with_context.get(offset)) is not None
    ]
    return sum(gains) / len(gains) if gains else None


def best_support(claim: int, texts: list[str], models: ModelSet) -> Support | None:
    """π(claim) over every other sentence (0-based ``claim``; the result is 1-based)."""
    alone = models.prompt_logprobs(texts[claim])
    best: Support | None = None
    for other, context in enumerate(texts):
        if other == claim:
            continue
        conditioned = models.prompt_logprobs(f"{context}\n{texts[claim]}")
        gain = pmi(conditioned, len(context) + 1, alone)
        if gain is not None and (best is None or gain > best.pmi):
            best = Support(claim + 1, other + 1, gain)
    return best


@register(NAME)
class ArgumentGraph(ModelMeasure):
    plane = PLANE
    summary = "share of the introduction's key claims whose supporting context comes later"
    unit_name = UNIT
    models = ("labeller", "scorer")

    def measured(self, document: Document, models: ModelSet) -> MeasureResult:
        sentences = introduction(document)
        if len(sentences) < 2:
            return MeasureResult.of(
                NAME, PLANE, 0, 0, UNIT,
                reason=f"the introduction has {count(len(sentences), 'sentence')}; "
                "a claim needs another",
            )  # fmt: skip
        return _measured(document, sentences, models)


def _measured(
    document: Document, sentences: tuple[Sentence, ...], models: ModelSet
) -> MeasureResult:
    requests, hits = models.requests, models.hits
    texts = [model_text(sentence) for sentence in sentences]
    votes = label_sentences(texts, models)
    claims = [vote.sentence - 1 for vote in votes if vote.label in KEY_LABELS]
    supports = {claim: best_support(claim, texts, models) for claim in claims}
    scored = {claim: found for claim, found in supports.items() if found is not None}
    marked = [found for found in scored.values() if found.support > found.claim]
    detail = _detail(models, texts, votes, supports) | {
        "requests": models.requests - requests,
        "cache_hits": models.hits - hits,
    }
    return MeasureResult.of(
        NAME, PLANE, len(marked), len(scored), UNIT,
        instances=tuple(_instance(document, sentences, found) for found in marked),
        weak=len(claims) < WEAK_BELOW, reason=_reason(len(claims), len(scored), len(texts)),
        detail=detail,
    )  # fmt: skip


def _detail(
    models: ModelSet, texts: list[str], votes: list[Vote], supports: dict[int, Support | None]
) -> dict[str, Any]:
    """What the labeller and scorer said, for the result's ``detail``."""
    return {
        "models": models.describe("labeller", "scorer"),
        "introduction_sentences": len(texts),
        "labels": [{"sentence": v.sentence, "label": v.label, "runs": list(v.runs)} for v in votes],
        "unparsed_answers": sum(run is None for vote in votes for run in vote.runs),
        "unparsed_examples": _unparsed(votes),
        "supports": [vars(found) for found in supports.values() if found is not None],
        "unscored_claims": [claim + 1 for claim, found in supports.items() if found is None],
    }


def _unparsed(votes: list[Vote], shown: int = 5) -> list[dict[str, Any]]:
    """The first answers that named no label (shortened), so a reader sees what came back."""
    found = [
        {"sentence": vote.sentence, "answer": answer[:200]}
        for vote in votes
        for run, answer in zip(vote.runs, vote.answers, strict=True)
        if run is None
    ]
    return found[:shown]


def _reason(claims: int, scored: int, sentences: int) -> str | None:
    """Why the result is weak or not applicable, or None."""
    if claims == 0:
        return f"no key claims among {sentences} introduction sentences"
    if scored == 0:
        return f"no key claim of {claims} has a second token to score"
    if claims < WEAK_BELOW:
        found = count(claims, "key claim")
        return f"{found} among {sentences} introduction sentences (< {WEAK_BELOW})"
    return None


def _instance(document: Document, sentences: tuple[Sentence, ...], found: Support) -> Instance:
    claim, support = sentences[found.claim - 1], sentences[found.support - 1]
    context = shown(document, support)
    repair = (
        f'state the supporting context "{context}" (sentence {found.support} of the '
        f"introduction) before the claim (sentence {found.claim})"
    )
    section = heading(document.section(claim.section))
    return Instance(NAME, claim.at, section, shown(document, claim), repair)
