"""`slopmark paper revise`: evidence-grounded revision of a manuscript (the SciSlopHarness loop).

The harness of "Science or Slop?" (Section 4, Appendix C): an editor model
edits each ``.tex`` file where the findings point; a reviewer model keeps only
the changes the original manuscript and the experiment records support;
preservation checks against the original discard a round that lost a reported
number, a cited work, a label or a float. The baselines of Appendix D (base
prompting, reviewer-based refinement, slop-aware revision) share the editor,
the rounds and the measurement.

Pure parts: `edits` (edit blocks, file checks), `align` (numbered changes),
`preserve` (preservation checks), `records` (record lines), `prompts` and
`baseline_prompts`, `review` (verdicts, retirements), `feedback` (what the
editor is told), `report`. Adapters: `chat` (the cached model client),
`manuscript` (a paper folder in memory), `outdir` (OUT_DIR on disk). The loop
is `harness.revise`, the baselines `baselines`, the corpus benchmark
`revise_bench`.
"""

from slopmark.paper.revise.chat import ChatModel, ChatSpec, chat_spec
from slopmark.paper.revise.harness import revise
from slopmark.paper.revise.manuscript import Manuscript, read_manuscript
from slopmark.paper.revise.outdir import write_run
from slopmark.paper.revise.rounds import METHODS, RevisionRun, RoundRecord
from slopmark.paper.revise.session import Roles, Session, Settings

__all__ = [
    "METHODS",
    "ChatModel",
    "ChatSpec",
    "Manuscript",
    "RevisionRun",
    "Roles",
    "RoundRecord",
    "Session",
    "Settings",
    "chat_spec",
    "read_manuscript",
    "revise",
    "write_run",
]
