"""The revision harness for real: SmolLM2-135M-Instruct as editor and reviewer, via llama.cpp.

Runs only with ``SLOPMARK_E2E=1`` (``make e2e``), on a shared corpus paper
copied to a temporary folder (skipped when ``../shared`` is absent). The small
model may propose anything; the harness must keep every hard preservation
violation out of the output: the final manuscript keeps every reported
number, cited work, label and float of the original.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpus import CORPUS
from e2e import test_smollm2 as smollm2
from slopmark.paper.revise.manuscript import read_manuscript
from slopmark.paper.revise.preserve import check_preservation

pytestmark = smollm2.pytestmark
MODEL = "smollm2-135m-instruct"
CORPUS_PAPER = CORPUS / "ai-scientist-gan_diffusion"
#: The corpus paper is one ~31,000-character file: the editor's prompt needs ~12k tokens.
CONTEXT_TOKENS = 16384


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama.cpp serving SmolLM2 with a context long enough for a whole paper file."""
    port = smollm2._free_port()
    log = (tmp_path_factory.mktemp("llama") / "server.log").open("wb")
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2._weights()),
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(CONTEXT_TOKENS),
        "--model_alias", MODEL,
    ]  # fmt: skip
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        smollm2._wait_ready(url, server)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_no_hard_preservation_violation_survives_a_real_small_model(
    llama_server: str, tmp_path: Path
) -> None:
    if not CORPUS_PAPER.is_dir():
        pytest.skip(f"{CORPUS_PAPER} is absent")
    paper, out = tmp_path / "paper", tmp_path / "out"
    shutil.copytree(CORPUS_PAPER, paper)
    done = subprocess.run(
        [sys.executable, "-m", "slopmark", "paper", "revise", str(paper),
         "--editor", MODEL, "--editor-url", llama_server, "--reviewer", MODEL,
         "--rounds", "1", "--max-tokens", "384", "--context-chars", "8000",
         "--out", str(out), "--json"],
        capture_output=True, text=True, timeout=1800,
        env={**os.environ, "SLOPMARK_CACHE": str(tmp_path / "cache")},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert [r["round"] for r in report["rounds"]][:1] == [0] and report["stop"]
    original = read_manuscript(CORPUS_PAPER)
    final = read_manuscript(out / "final", original.main)
    assert set(final.tree) == set(original.tree)
    hard = [v for v in check_preservation(original.tree, final.tree, original.main) if v.hard]
    assert hard == []
    calls = (out / "round-1" / "calls.jsonl").read_text().splitlines()
    assert calls and json.loads(calls[0])["role"] == "editor"
