"""A measure: the share of a paper's sentences longer than 40 words."""

from slopmark.paper.document import Document
from slopmark.paper.measures import DeclaredMeasure, MeasureResult, register
from slopmark.paper.models import ModelSet

LIMIT = 40


@register("long_sentences")
class LongSentences(DeclaredMeasure):
    plane = "STRUCTURE"
    summary = f"sentences longer than {LIMIT} words"
    unit_name = "sentences"

    def measure(self, document: Document, models: ModelSet | None = None) -> MeasureResult:
        sentences = document.sentences
        flagged = sum(len(s.text.split()) > LIMIT for s in sentences)
        return MeasureResult.of(self.name, self.plane, flagged, len(sentences), self.unit_name)
