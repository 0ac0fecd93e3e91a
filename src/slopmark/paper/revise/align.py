"""Paragraph alignment of two manuscript trees: the numbered changes a reviewer judges.

A paragraph is a maximal run of non-blank lines. Per file present in either
tree, `difflib.SequenceMatcher` (autojunk off) aligns the two paragraph lists;
every non-equal opcode is one `Change` (k old paragraphs replaced by m new ones
is one change, each side joined by a blank line). A file added or removed
entirely is one change. The blank lines around a change belong to it, and a
difference in blank lines alone between two unchanged paragraphs (or at a
file's start or end) makes the paragraph after it a change with equal sides,
so every difference of the trees lies in exactly one change: reverting all of
them, in any order, gives back the old tree ("Science or Slop?", Appendix C.3).

`revert` finds a change again among the differences of the current trees (they
regroup as other changes are reverted). Known limit: next to a run of identical
paragraphs, the blank lines between them may come back in another order; the
paragraphs themselves always come back, and blank-line counts change nothing in
LaTeX's output.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

#: A manuscript tree: relative posix path → text, for every ``.tex`` file of the paper folder.
Tree = dict[str, str]

#: A differing run: old paragraphs [i1, i2) replaced by new paragraphs [j1, j2).
_Span = tuple[int, int, int, int]


@dataclass(frozen=True)
class Change:
    """One differing paragraph run between two trees."""

    #: 1-based, in file then position order.
    number: int
    file: str
    #: Line of the change in the new text (the old text's line for a pure deletion).
    line: int
    #: The old paragraph(s), joined by a blank line ("" for an insertion).
    old: str
    #: The new paragraph(s), joined by a blank line ("" for a deletion).
    new: str


@dataclass(frozen=True)
class _Paragraph:
    start: int
    end: int
    line: int
    text: str


def _paragraphs(text: str) -> list[_Paragraph]:
    """The paragraphs of a text: offsets (line ends excluded), first line, text."""
    found: list[_Paragraph] = []
    first: tuple[int, int] | None = None
    end = offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            first = first or (offset, number)
            end = offset + len(line.rstrip("\r"))
        elif first is not None:
            found.append(_Paragraph(first[0], end, first[1], text[first[0] : end]))
            first = None
        offset += len(line) + 1
    if first is not None:
        found.append(_Paragraph(first[0], end, first[1], text[first[0] : end]))
    return found


@dataclass(frozen=True)
class _Side:
    """One file's text and paragraphs."""

    text: str
    paragraphs: list[_Paragraph]

    @classmethod
    def of(cls, text: str) -> _Side:
        return cls(text, _paragraphs(text))

    def gap_before(self, index: int) -> str:
        """The blank lines before paragraph ``index`` (after the last one when past it)."""
        start = self.paragraphs[index - 1].end if index else 0
        end = self.paragraphs[index].start if index < len(self.paragraphs) else len(self.text)
        return self.text[start:end]

    def region(self, first: int, stop: int) -> tuple[int, int]:
        """Offsets of paragraphs [first, stop) with the blank lines on both sides."""
        start = self.paragraphs[first - 1].end if first else 0
        end = self.paragraphs[stop].start if stop < len(self.paragraphs) else len(self.text)
        return start, end

    def joined(self, first: int = 0, stop: int | None = None) -> str:
        return "\n\n".join(p.text for p in self.paragraphs[first:stop])


def _gap_differs(old: _Side, new: _Side, i: int, j: int, inside: bool) -> bool:
    """Whether blank lines around the equal pair (i, j) differ where no change covers them."""
    before = inside or (i == 0 and j == 0)
    if before and old.gap_before(i) != new.gap_before(j):
        return True
    last = i == len(old.paragraphs) - 1 and j == len(new.paragraphs) - 1
    return last and old.gap_before(i + 1) != new.gap_before(j + 1)


def _raw_spans(old: _Side, new: _Side) -> list[_Span]:
    """Non-equal opcodes, plus equal pairs whose surrounding blank lines differ."""
    matcher = difflib.SequenceMatcher(
        None, [p.text for p in old.paragraphs], [p.text for p in new.paragraphs], autojunk=False
    )
    spans: list[_Span] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            spans.append((i1, i2, j1, j2))
            continue
        for k in range(i2 - i1):
            if _gap_differs(old, new, i1 + k, j1 + k, inside=k > 0):
                spans.append((i1 + k, i1 + k + 1, j1 + k, j1 + k + 1))
    return spans


def _spans(old: _Side, new: _Side) -> list[_Span]:
    """The differing runs of two files, touching runs merged into one."""
    if old.text == new.text:
        return []
    if not old.paragraphs and not new.paragraphs:
        return [(0, 0, 0, 0)]
    merged: list[_Span] = []
    for span in _raw_spans(old, new):
        if merged and merged[-1][1] == span[0] and merged[-1][3] == span[2]:
            merged[-1] = (merged[-1][0], span[1], merged[-1][2], span[3])
        else:
            merged.append(span)
    return merged


def _line(old: _Side, new: _Side, span: _Span) -> int:
    i1, i2, j1, j2 = span
    if j2 > j1:
        return new.paragraphs[j1].line
    return old.paragraphs[i1].line if i2 > i1 else 1


def _file_changes(file: str, old: str, new: str) -> list[Change]:
    """The changes of one file present in both trees (numbered from 0; renumbered later)."""
    a, b = _Side.of(old), _Side.of(new)
    return [
        Change(0, file, _line(a, b, span), a.joined(span[0], span[1]), b.joined(span[2], span[3]))
        for span in _spans(a, b)
    ]


def changes(old: Tree, new: Tree) -> list[Change]:
    """The numbered paragraph changes from ``old`` to ``new``, in file then position order."""
    found: list[Change] = []
    for file in sorted(old.keys() | new.keys()):
        if file not in new:
            found.append(Change(0, file, 1, _Side.of(old[file]).joined(), ""))
        elif file not in old:
            found.append(Change(0, file, 1, "", _Side.of(new[file]).joined()))
        else:
            found.extend(_file_changes(file, old[file], new[file]))
    return [Change(number, c.file, c.line, c.old, c.new) for number, c in enumerate(found, start=1)]


def _texts(joined: str) -> list[str]:
    """The paragraphs of a change side (they hold no blank line, so the join splits back)."""
    return joined.split("\n\n") if joined else []


def _occurrences(items: list[str], run: list[str]) -> list[int]:
    """Where ``run`` starts in ``items`` (every insertion point when it is empty)."""
    return [k for k in range(len(items) - len(run) + 1) if items[k : k + len(run)] == run]


def _old_index(matcher: difflib.SequenceMatcher[str], position: int) -> int:
    """The old index aligned with ``position`` of the compared sequence."""
    index = 0
    for a, b, size in matcher.get_matching_blocks():
        if b <= position < b + size:
            return a + position - b
        if b + size <= position:
            index = a + size
    return index


def _placed(old: _Side, new: _Side, before: list[str], after: list[str], j1: int) -> _Span:
    """The run restoring ``before`` in place of ``after`` at new paragraph ``j1``, its old
    position taken from how the restored file aligns with the old one."""
    olds = [p.text for p in old.paragraphs]
    texts = [p.text for p in new.paragraphs]
    result = texts[:j1] + before + texts[j1 + len(after) :]
    i1 = _old_index(difflib.SequenceMatcher(None, olds, result, autojunk=False), j1)
    if before and olds[i1 : i1 + len(before)] != before:
        i1 = min(_occurrences(olds, before), key=lambda k: abs(k - i1))
    return (i1, i1 + len(before), j1, j1 + len(after))


def _exact(old: _Side, new: _Side, change: Change) -> _Span | None:
    """The difference of the two files with exactly the change's sides, nearest its line."""
    matching = [
        span
        for span in _spans(old, new)
        if old.joined(span[0], span[1]) == change.old and new.joined(span[2], span[3]) == change.new
    ]
    return min(matching, key=lambda s: abs(_line(old, new, s) - change.line), default=None)


def _restores(old: _Side, new: _Side, span: _Span, before: list[str]) -> bool:
    """Whether restoring ``span`` gives the new paragraphs with ``before`` in its place
    (blank lines taken from a file's edge could glue two paragraphs)."""
    texts = [p.text for p in new.paragraphs]
    wanted = texts[: span[2]] + before + texts[span[3] :]
    return [p.text for p in _paragraphs(_restored(old, new, span))] == wanted


def _places(old: _Side, new: _Side, change: Change) -> list[_Span]:
    """Every run where the change's new text stands, with the old position restoring it."""
    before, after = _texts(change.old), _texts(change.new)
    if not _occurrences([p.text for p in old.paragraphs], before):
        return []
    spans = (
        _placed(old, new, before, after, j1)
        for j1 in _occurrences([p.text for p in new.paragraphs], after)
    )
    return [span for span in spans if _restores(old, new, span, before)]


def _nearest(old: _Side, new: _Side, change: Change) -> _Span:
    """Where restoring the change's old text brings the file closest to the old one."""
    places = _places(old, new, change)
    if not places:
        raise ValueError(
            f"{change.file}: change {change.number} (line {change.line}) is not a difference "
            "between these trees; compute changes on the trees you revert"
        )
    olds = [p.text for p in old.paragraphs]

    def score(span: _Span) -> tuple[bool, int, int]:
        text = _restored(old, new, span)
        result = [p.text for p in _paragraphs(text)]
        matcher = difflib.SequenceMatcher(None, olds, result, autojunk=False)
        matched = sum(block.size for block in matcher.get_matching_blocks())
        return text == old.text, matched, -abs(_line(old, new, span) - change.line)

    return max(places, key=score)


def _find(old: _Side, new: _Side, change: Change) -> _Span:
    """The run of ``change`` in the current files: the difference with its exact two sides,
    else the place where restoring its old text brings
    the file closest to the old one (differences regroup as others are reverted)."""
    found = _exact(old, new, change)
    return found if found is not None else _nearest(old, new, change)


def _restored(old: _Side, new: _Side, span: _Span) -> str:
    """The new text with the run ``span`` and the blank lines around it taken from the old."""
    old_start, old_end = old.region(span[0], span[1])
    new_start, new_end = new.region(span[2], span[3])
    return new.text[:new_start] + old.text[old_start:old_end] + new.text[new_end:]


def revert(new: Tree, old: Tree, change: Change) -> Tree:
    """``new`` with ``change`` restored to its text in ``old`` (blank lines around it included).

    The change is found again by its old and new text among the differences of
    the current trees, so changes may be reverted one by one in any order."""
    tree = dict(new)
    if change.file not in old:
        tree.pop(change.file, None)
        return tree
    if change.file not in new:
        tree[change.file] = old[change.file]
        return tree
    a, b = _Side.of(old[change.file]), _Side.of(new[change.file])
    tree[change.file] = _restored(a, b, _find(a, b, change))
    return tree
