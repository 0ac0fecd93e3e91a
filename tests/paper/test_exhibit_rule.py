"""The exhibit rule on small LaTeX papers: a block of settings is not an exhibit, a
prompt, a dialogue or an input/output example is, and a "Generated samples" figure is
(its caption announces examples of a model's output: "Science or Slop?", Appendix A)."""

from __future__ import annotations

from pathlib import Path

import pytest

from slopmark.paper.latex import load_document
from slopmark.paper.measures import evidence_gap as eg
from slopmark.paper.measures.configuration import is_configuration

RESULTS = r"""\begin{table}[t]
\begin{tabular}{lcc}
Model & Accuracy & F1 \\
Ours & 81.2 & 0.79 \\
Baseline & 77.0 & 0.71 \\
\end{tabular}
\caption{Accuracy and F1 on the test set.}\label{tab:main}
\end{table}"""

OPTIMIZER = r"""\begin{verbatim}
optimizer: AdamW
lr: 3e-4
betas: [0.9, 0.999]
weight_decay: 0.01
warmup_steps: 500
scheduler: cosine
\end{verbatim}"""

YAML_LISTING = r"""\begin{lstlisting}[language=yaml, caption={Training configuration.}]
# training
batch_size: 64
epochs: 90
use_amp: true
model: resnet50
\end{lstlisting}"""

JSON_SETTINGS = """{
  "learning_rate": 0.001,
  "batch_size": 64,
  "dropout": 0.1
}"""

PROMPT = r"""\begin{verbatim}
System: You are a careful grader.
User: Is 17 a prime number? Answer yes or no.
Assistant: Yes, 17 is prime.
\end{verbatim}"""

ARITHMETIC = r"""\begin{verbatim}
Q: 2+2
A: 4
Q: 3+5
A: 8
\end{verbatim}"""

SAMPLES_FIGURE = r"""\begin{figure}[t]
\centering
\rule{2cm}{2cm}
\caption{Generated samples from our model on CIFAR-10.}\label{fig:samples}
\end{figure}"""


def paper(tmp_path: Path, block: str, where: str = "appendix") -> Path:
    """A paper with a result table in its body and ``block`` in the body or appendix."""
    body = block if where == "body" else ""
    appendix = block if where == "appendix" else ""
    text = (
        "\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n"
        "We report results in Table~\\ref{tab:main}.\n\\section{Experiments}\n"
        f"We train both models with five seeds.\n\n{RESULTS}\n\n{body}\n"
        f"\\section{{Conclusion}}\nOurs wins.\n\\appendix\n\\section{{Details}}\n{appendix}\n"
        "\\end{document}\n"
    )
    path = tmp_path / "paper.tex"
    path.write_text(text)
    return path


@pytest.mark.parametrize("block", [OPTIMIZER, YAML_LISTING], ids=["optimizer", "yaml"])
@pytest.mark.parametrize("where", ["body", "appendix"])
def test_a_block_of_settings_does_not_close_the_gap(tmp_path: Path, block: str, where: str) -> None:
    result = eg.evidence_gap(load_document(paper(tmp_path, block, where)))
    assert (result.status, result.score) == ("ok", 1.0)
    assert [e["kind"] for e in result.detail["settings_not_exhibits"]] == ["settings"]


@pytest.mark.parametrize(
    "block", [PROMPT, ARITHMETIC, SAMPLES_FIGURE], ids=["dialogue", "input-output", "samples"]
)
def test_material_a_model_consumed_or_produced_closes_the_gap(tmp_path: Path, block: str) -> None:
    result = eg.evidence_gap(load_document(paper(tmp_path, block)))
    assert (result.status, result.score) == ("ok", 0.0)
    assert "settings_not_exhibits" not in result.detail


def test_no_block_is_the_gap(tmp_path: Path) -> None:
    result = eg.evidence_gap(load_document(paper(tmp_path, "")))
    assert result.score == 1.0 and "settings_not_exhibits" not in result.detail


@pytest.mark.parametrize(
    ("text", "settings"),
    [
        (JSON_SETTINGS, True),
        ("--lr 0.1\n--epochs 90\n--batch-size 256\n--amp", True),
        ("lr = 0.1\nmomentum = 0.9", False),  # two lines: too few to tell
        ("name: baseline\nencoder: transformer\ndecoder: transformer", False),  # no number
        ("def step(x):\n    return x + 1\n", False),
        ("Output: the answer is 4\nlr: 0.1\nepochs: 3\nseed: 1", False),
        ("Input: 2 3\nOutput: 5\nInput: 4 4\nOutput: 8", False),
    ],
)
def test_what_counts_as_settings(text: str, settings: bool) -> None:
    assert is_configuration(text) is settings
