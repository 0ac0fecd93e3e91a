"""Every command's options, walked with bad values (acceptance 3 of issue 12).

Each case runs the real CLI in a process of its own (forked from one that has
imported slopmark, `tests/clifork.py`: a case costs its command, not Python's
start) inside a workspace holding a seeded run store (also the default store,
through ``$SLOPMARK_DB``), a run folder and one of every input, and asserts the
bad-input contract: exit 2, exactly one line on stderr naming what was wrong, no
traceback, and the workspace (store included) unchanged.

The commands and their options come from the real Typer app: a new command,
or a new option taking a value, without a case here fails
`test_every_command_and_option_has_a_bad_value`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command

from cli.workspace import build, clean_env, snapshot
from clifork import CliFork
from slopmark.cli.main import app

pytestmark = pytest.mark.slow  # starts python

URL = "http://127.0.0.1:9/v1"  # nothing listens there: a case that got this far would say so
REVISE = ("paper", "--method", "base", "--editor", "e", "--editor-url", URL)
BENCH = ("--problems", "problems", "--agent", "replay", "--sandbox", "none-unsafe")
PASTE = ("--task", "math.ages.0", "--output-file", "answer.txt")
STUDY = ("repos.txt",)
#: the sweep options every sweep command has (after the arguments that make the rest valid)
def _sweep_cases(*valid: str) -> list[tuple[str, tuple[str, ...], str]]:
    return [
        ("--executor", (*valid, "--executor", "dask"), "--executor 'dask'"),
        ("--address", (*valid, "--address", "127.0.0.1:9"), "--address '127.0.0.1:9'"),
    ]



RUN = ("--model", "openai-compat:m", "--domain", "math", "--base-url", URL)
SIGMA = ("--sigma", "0.2", "--margin", "0.03")

#: command → [(option walked, arguments, a fragment the one line must hold)]
CASES: dict[str, list[tuple[str, tuple[str, ...], str]]] = {
    "serve": [
        ("--host", ("--host", ""), "--host ''"),
        ("--port", ("--port", "70000"), "'--port'"),
        ("--db", ("--db", "foreign.db"), "not a slopmark store"),
        ("--token", ("--token", " "), "--token ' '"),
        ("--allow-base-url", ("--allow-base-url", "ftp://x"), "--allow-base-url 'ftp://x'"),
        ("--key-base-url", ("--key-base-url", "not a url"), "--key-base-url 'not a url'"),
    ],
    "code measure": [
        ("path", ("nowhere",), "nowhere"),
        ("--sarif", ("tree", "--sarif", "folder"), "--sarif 'folder': is a folder"),
        ("--top", ("tree", "--top", "-1"), "'--top'"),
        ("--top", ("tree", "--top", "5", "--json"), "--top 5"),
        ("--exclude", ("tree", "--exclude", ""), "--exclude ''"),
        ("--select", ("tree", "--select", "no-such-rule"), "no-such-rule"),
        ("--ignore", ("tree", "--ignore", "no-such-rule"), "no-such-rule"),
        ("--rules", ("tree", "--rules", "nowhere"), "nowhere"),
        ("--cc-threshold", ("tree", "--cc-threshold", "0"), "'--cc-threshold'"),
        ("--size-term", ("tree", "--size-term", "cube"), "--size-term 'cube'"),
        ("--jobs", ("tree", "--jobs", "-1"), "'--jobs'"),
        ("--fail-over", ("tree", "--fail-over", "erosion=high"), "erosion=high"),
        ("--fail-over", ("tree", "--fail-over", "churn=1"), "churn=1"),
        ("--language", ("tree", "--language", "cobol"), "cobol"),
        ("--scope", ("tree", "--scope", "test"), "--scope: unknown scope 'test'"),
        ("--rules-set", ("tree", "--rules-set", "strict"), "unknown rule set 'strict'"),
        ("--baseline", ("tree", "--baseline", "nowhere.json"), "nowhere.json"),
        ("--write-baseline", ("tree", "--write-baseline", "folder"),
         "--write-baseline 'folder': is a folder"),
        ("--db", ("tree", "--db", "other.db"), "--db 'other.db': only --store"),
        ("--db", ("tree", "--store", "--db", "foreign.db"), "not a slopmark store"),
    ],
    "code history": [
        ("repo", ("tree",), "not a git repository"),
        ("--commits", ("repo", "--commits", "0"), "'--commits'"),
        ("--commits", ("repo", "--commits", "2", "--sample", "3"), "--commits 2 and --sample 3"),
        ("--sample", ("repo", "--sample", "-3"), "'--sample'"),
        ("--seed", ("repo", "--commits", "2", "--seed", "4"), "--seed 4"),
        ("--seed", ("repo", "--seed", "x"), "'--seed'"),
        ("--rev", ("repo", "--rev", "no-such-branch"), "no-such-branch"),
        ("--exclude", ("repo", "--exclude", " "), "--exclude ' '"),
        ("--cc-threshold", ("repo", "--cc-threshold", "0"), "'--cc-threshold'"),
        ("--size-term", ("repo", "--size-term", "cube"), "--size-term 'cube'"),
        ("--jobs", ("repo", "--jobs", "-2"), "'--jobs'"),
        ("--language", ("repo", "--language", "cobol"), "cobol"),
        ("--scope", ("repo", "--scope", "library"), "--scope: unknown scope 'library'"),
        ("--rules-set", ("repo", "--rules-set", "papers"), "did you mean 'paper'"),
        ("--db", ("repo", "--db", "other.db"), "--db 'other.db': only --store"),
        ("--db", ("repo", "--store", "--db", "foreign.db"), "not a slopmark store"),
    ],
    "code diff": [
        ("base", ("-C", "repo", "no-such-rev"), "no-such-rev"),
        ("head", ("-C", "repo", "HEAD", "no-such-rev"), "no-such-rev"),
        ("--repo", ("-C", "tree"), "not a git repository"),
        ("--sarif", ("-C", "repo", "--sarif", "folder"), "--sarif 'folder': is a folder"),
        ("--markdown", ("-C", "repo", "--markdown", "folder"), "--markdown 'folder': is a folder"),
        ("--link-base", ("-C", "repo", "--link-base", "javascript:x"), "javascript:x"),
        ("--report-url", ("-C", "repo", "--markdown", "pr.md", "--report-url", "javascript:x"),
         "--report-url 'javascript:x'"),
        ("--report-url", ("-C", "repo", "--report-url", "http://h/code/1"), "add --markdown"),
        ("--fail-on", ("-C", "repo", "--fail-on", "new-stuff"), "new-stuff"),
        ("--max-increase", ("-C", "repo", "--max-increase", "sloc=3"), "sloc=3"),
        ("--top", ("-C", "repo", "--top", "-1"), "'--top'"),
        ("--baseline", ("-C", "repo", "--baseline", "nowhere.json"), "nowhere.json"),
        ("--exclude", ("-C", "repo", "--exclude", ""), "--exclude ''"),
        ("--cc-threshold", ("-C", "repo", "--cc-threshold", "0"), "'--cc-threshold'"),
        ("--jobs", ("-C", "repo", "--jobs", "-1"), "'--jobs'"),
        ("--language", ("-C", "repo", "--language", "cobol"), "cobol"),
        ("--scope", ("-C", "repo", "--scope", "src"), "--scope: unknown scope 'src'"),
        ("--rules-set", ("-C", "repo", "--rules-set", "all"), "unknown rule set 'all'"),
    ],
    "code rules": [
        ("--explain", ("--explain", "no-such-rule"), "no-such-rule"),
        ("--rules", ("--rules", "nowhere"), "nowhere"),
        ("--rules-set", ("--rules-set", "nope"), "unknown rule set 'nope'"),
        ("--markdown", ("--markdown", "--json"), "--json and --markdown: choose one"),
    ],
    "code bench list": [("--problems", ("--problems", "nowhere"), "nowhere")],
    "code bench validate": [
        ("--problems", ("--problems", "nowhere"), "nowhere"),
        ("--problem", ("--problems", "problems", "--problem", "nope"), "nope"),
        ("--sandbox", ("--problems", "problems", "--sandbox", "chroot"), "chroot"),
        ("--jobs", ("--problems", "problems", "--jobs", "0"), "'--jobs'"),
        ("--keep", ("--problems", "problems", "--keep", "file.txt"), "--keep 'file.txt'"),
        ("--env-profile", ("--problems", "problems", "--env-profile", "conda"), "conda"),
        ("--python", ("--problems", "problems", "--python", "3"), "--python"),
        ("--entrypoint-style", ("--problems", "problems", "--entrypoint-style", "docker"),
         "--entrypoint-style 'docker': use venv or uv"),
        ("--wheelhouse", ("--problems", "problems", "--wheelhouse", "nowhere"),
         "--wheelhouse nowhere: not a folder"),
        ("--expect-failures", ("--problems", "problems", "--expect-failures", "nowhere.txt"),
         "nowhere.txt"),
        ("--write-expect-failures", ("--problems", "problems", "--write-expect-failures",
                                     "folder"), "--write-expect-failures 'folder': is a folder"),
        ("--rules-set", ("--problems", "problems", "--rules-set", "x"), "unknown rule set 'x'"),
    ],
    "code bench run": [
        ("--problems", ("--problems", "nowhere", "--agent", "replay"), "nowhere"),
        ("--problem", (*BENCH, "--problem", "nope"), "nope"),
        ("--agent", ("--problems", "problems", "--agent", "no-such-agent"), "no-such-agent"),
        ("--model", (*BENCH, "--model", ""), "--model ''"),
        ("--prompt", (*BENCH, "--prompt", "no-such-prompt"), "no-such-prompt"),
        ("--sandbox", ("--problems", "problems", "--agent", "replay", "--sandbox", "chroot"),
         "chroot"),
        ("--timeout", (*BENCH, "--timeout", "0"), "--timeout '0'"),
        ("--jobs", (*BENCH, "--jobs", "0"), "'--jobs'"),
        ("--out", (*BENCH, "--out", "file.txt"), "--out 'file.txt'"),
        ("--agent-option", (*BENCH, "--agent-option", "novalue"), "novalue"),
        ("--agent-memory", (*BENCH, "--agent-memory", "-1"), "'--agent-memory'"),
        ("--db", (*BENCH, "--out", "runs/new", "--db", "foreign.db"), "not a slopmark store"),
        ("--env-profile", (*BENCH, "--env-profile", "conda"), "conda"),
        ("--python", (*BENCH, "--python", "three"), "'three'"),
        ("--entrypoint-style", (*BENCH, "--entrypoint-style", "docker"),
         "--entrypoint-style 'docker': use venv or uv"),
        ("--wheelhouse", (*BENCH, "--wheelhouse", "nowhere"), "--wheelhouse nowhere: not a folder"),
        ("--rules-set", (*BENCH, "--rules-set", "default2"), "unknown rule set 'default2'"),
        *_sweep_cases(*BENCH),
    ],
    "code study run": [
        ("repos", ("nowhere.txt",), "nowhere.txt"),
        ("repos", ("tasks.yaml",), "holds spaces; write one repository per line"),
        ("--commits", (*STUDY, "--commits", "0"), "'--commits'"),
        ("--commits", (*STUDY, "--commits", "2", "--sample", "3"), "--commits and --sample"),
        ("--sample", (*STUDY, "--sample", "-3"), "'--sample'"),
        ("--seed", (*STUDY, "--seed", "x"), "'--seed'"),
        ("--out", (*STUDY, "--out", "file.txt"), "--out 'file.txt'"),
        ("--jobs", (*STUDY, "--jobs", "-1"), "'--jobs'"),
        ("--db", (*STUDY, "--db", "foreign.db"), "not a slopmark store"),
        ("--timeout", (*STUDY, "--timeout", "0"), "--timeout '0'"),
        ("--cc-threshold", (*STUDY, "--cc-threshold", "0"), "'--cc-threshold'"),
        ("--size-term", (*STUDY, "--size-term", "cube"), "--size-term 'cube'"),
        ("--language", (*STUDY, "--language", "cobol"), "--language: unknown language 'cobol'"),
        ("--scope", (*STUDY, "--scope", "doc"), "--scope: unknown scope 'doc'"),
        ("--rules-set", (*STUDY, "--rules-set", "pedantics"), "did you mean 'pedantic'"),
        *_sweep_cases(*STUDY),
    ],
    "code study report": [
        ("target", ("nowhere",), "'nowhere' is not in the store"),
        ("target", ("folder",), "not a study folder"),
        ("--plot", ("nowhere", "--plot", "folder"), "--plot 'folder': is a folder"),
        ("--db", ("nowhere", "--db", "foreign.db"), "not a slopmark store"),
        ("--min-commits", ("nowhere", "--min-commits", "0"), "'--min-commits'"),
        ("--birth-sloc", ("nowhere", "--birth-sloc", "-1"), "'--birth-sloc'"),
        ("--birth-files", ("nowhere", "--birth-files", "many"), "'--birth-files'"),
    ],
    "code bench report": [("run_dir", ("folder",), "not a bench run folder")],
    "code bench compare": [
        ("run_dirs", ("run", "folder"), "not a bench run folder"),
        ("run_dirs", ("run",), "give two or more run folders"),
        ("--plot", ("run", "run", "--plot", "repos.txt"), "--plot 'repos.txt'"),
    ],
    "code bench agents": [("extra argument", ("extra",), "extra")],
    "tasks list": [
        ("--domain", ("--domain", "maths"), "maths"),
        ("--source", ("--source", "web"), "--source 'web'"),
        ("--tasks", ("--tasks", "nowhere.yaml"), "nowhere.yaml"),
    ],
    "tasks validate": [("paths", ("nowhere.yaml",), "nowhere.yaml")],
    "tasks generate": [
        ("--domain", ("--domain", "maths"), "maths"),
        ("--templates", ("--domain", "math", "--templates", "0"), "'--templates'"),
        ("--variants", ("--domain", "math", "--variants", "0"), "'--variants'"),
        ("--seed", ("--domain", "math", "--seed", "x"), "'--seed'"),
        ("--out", ("--domain", "math", "--out", "folder"), "--out 'folder': is a folder"),
    ],
    "eval run": [
        ("--model", ("--model", "m", "--domain", "math", "--base-url", URL), "PROVIDER:NAME"),
        ("--domain", ("--model", "openai-compat:m", "--domain", "maths", "--base-url", URL),
         "maths"),
        ("--base-url", ("--model", "openai-compat:m", "--domain", "math", "--base-url", "ftp://x"),
         "ftp://x"),
        ("--api-key", (*RUN, "--api-key", ""), "--api-key"),
        ("--concurrency", (*RUN, "--concurrency", "0"), "'--concurrency'"),
        ("--mode", (*RUN, "--mode", "weird"), "weird"),
        ("--db", (*RUN, "--db", "foreign.db"), "not a slopmark store"),
        ("--limit", (*RUN, "--limit", "0"), "'--limit'"),
        ("--tasks", (*RUN, "--tasks", "nowhere.yaml"), "nowhere.yaml"),
        ("--timeout", (*RUN, "--timeout", "0"), "'--timeout'"),
        ("--retries", (*RUN, "--retries", "-1"), "'--retries'"),
        ("--cache", (*RUN, "--cache", "folder"), "--cache 'folder': is a folder"),
    ],
    "eval suite": [
        ("suite_file", ("nowhere.yaml",), "nowhere.yaml"),
        ("suite_file", ("tasks.yaml",), "tasks.yaml"),
        ("--jobs", ("suite.yaml", "--jobs", "-1"), "'--jobs'"),
        ("--db", ("suite.yaml", "--db", "foreign.db"), "not a slopmark store"),
        *_sweep_cases("suite.yaml"),
    ],
    "eval paste": [
        ("--task", ("--task", "math.no-such-task", "--output-file", "answer.txt"),
         "math.no-such-task"),
        ("--model", (*PASTE, "--model", ""), "--model ''"),
        ("--output-file", ("--task", "math.ages.0", "--output-file", "nowhere.txt"),
         "nowhere.txt"),
        ("--output-file", ("--task", "math.ages.0", "--output-file", "empty.txt"), "is empty"),
        ("--tasks", (*PASTE, "--tasks", "nowhere.yaml"), "nowhere.yaml"),
        ("--db", (*PASTE, "--db", "foreign.db"), "not a slopmark store"),
        ("--jsonl", ("--jsonl", "nowhere.jsonl"), "--jsonl 'nowhere.jsonl': cannot read it"),
        ("--jsonl", ("--jsonl", "empty.txt"), "--jsonl 'empty.txt': no lines in it"),
        ("--jsonl", (*PASTE, "--jsonl", "answer.txt"), "--task: not with --jsonl"),
    ],
    "store path": [("--db", ("--db", ""), "--db ''")],
    "paper measure": [
        ("paths", ("nowhere",), "nowhere"),
        ("paths", ("paper", "nowhere"), "nowhere"),
        ("--main", ("paper", "--main", "nope.tex"), "nope.tex"),
        ("--findings", ("paper", "--findings", "folder"), "--findings 'folder': is a folder"),
        ("--measures", ("paper", "--measures", ""), "--measures ''"),
        ("--model-config", ("paper", "--model-config", "nowhere.yaml"), "nowhere.yaml"),
        ("--profile", ("paper", "--profile", "release"), "'release'"),
        ("--jobs", ("paper", "--jobs", "-1"), "'--jobs'"),
        ("--db", ("paper", "--store", "--db", "foreign.db"), "not a slopmark store"),
        ("--label", ("paper", "--store", "--label", "robot"), "--label 'robot'"),
        *_sweep_cases("paper"),
    ],
    "paper bench": [
        ("pairs", ("nowhere.jsonl",), "nowhere.jsonl"),
        ("pairs", ("pairs.jsonl", "--ai", "paper", "--human", "paper"), "either PAIRS.jsonl"),
        ("--ai", ("--ai", "nowhere", "--human", "paper"), "--ai nowhere"),
        ("--ai", ("--ai", "paper"), "both --ai DIR and --human DIR"),
        ("--human", ("--ai", "paper", "--human", "folder"), "--human folder"),
        ("--profile", ("pairs.jsonl", "--profile", "release"), "'release'"),
        ("pairs", ("empty.txt",), "no usable pair"),
        ("--measures", ("pairs.jsonl", "--measures", ","), "--measures ','"),
        ("--model-config", ("pairs.jsonl", "--model-config", "nowhere.yaml"), "nowhere.yaml"),
        ("--seed", ("pairs.jsonl", "--seed", "x"), "'--seed'"),
        ("--jobs", ("pairs.jsonl", "--jobs", "-1"), "'--jobs'"),
        *_sweep_cases("pairs.jsonl"),
    ],
    "paper views": [
        ("path", ("nowhere",), "nowhere"),
        ("--main", ("paper", "--main", "nope.tex"), "nope.tex"),
        ("--prose", ("paper", "--prose", "--structure"), "--prose and --structure"),
    ],
    "paper revise": [
        ("paper", ("nowhere", "--method", "base", "--editor", "e", "--editor-url", URL), "nowhere"),
        ("--editor", ("paper", "--editor", ""), "--editor ''"),
        ("--editor-url", ("paper", "--method", "base", "--editor", "e", "--editor-url", "ftp://x"),
         "ftp://x"),
        ("--reviewer", (*REVISE, "--reviewer", ""), "--reviewer ''"),
        ("--reviewer-url", (*REVISE, "--reviewer-url", URL),
         "--reviewer-url"),
        ("--records", (*REVISE, "--records", "nowhere"), "nowhere"),
        ("--rounds", (*REVISE, "--rounds", "0"), "'--rounds'"),
        ("--method", (*REVISE, "--method", "magic"), "magic"),
        ("--out", (*REVISE, "--out", "file.txt"), "--out 'file.txt'"),
        ("--main", (*REVISE, "--main", "nope.tex"), "nope.tex"),
        ("--model-config", (*REVISE, "--model-config", "nowhere.yaml"), "nowhere.yaml"),
        ("--max-tokens", (*REVISE, "--max-tokens", "0"), "'--max-tokens'"),
        ("--context-chars", (*REVISE, "--context-chars", "10"), "'--context-chars'"),
    ],
    "paper revise-bench": [
        ("corpus", ("nowhere", "--methods", "base", "--editor", "e", "--editor-url", URL,
                    "--reference", "paper"),
         "nowhere"),
        ("--methods", (".", "--methods", ",", "--editor", "e", "--reference", "paper"),
         "--methods ','"),
        ("--editor", (".", "--editor", " ", "--reference", "paper"), "--editor ' '"),
        ("--editor-url", (".", "--methods", "base", "--editor", "e", "--editor-url", "x",
                        "--reference", "paper"),
         "'x'"),
        ("--reviewer", (".", "--editor", "e", "--reviewer", "", "--reference", "paper"),
         "--reviewer ''"),
        ("--reviewer-url", (".", "--methods", "base", "--editor", "e", "--editor-url", URL,
                            "--reviewer-url", URL, "--reference", "paper"), "--reviewer-url"),
        ("--reference", (".", "--methods", "base", "--editor", "e", "--editor-url", URL),
         "--reference"),
        ("--rounds", (".", "--editor", "e", "--rounds", "0"), "'--rounds'"),
        ("--out", (".", "--methods", "base", "--editor", "e", "--editor-url", URL,
                   "--reference", "paper", "--out", "file.txt"), "--out 'file.txt'"),
        ("--model-config", (".", "--methods", "base", "--editor", "e", "--editor-url", URL,
                            "--reference", "paper", "--model-config", "nowhere.yaml"),
         "nowhere.yaml"),
        ("--max-tokens", (".", "--editor", "e", "--max-tokens", "0"), "'--max-tokens'"),
        ("--context-chars", (".", "--editor", "e", "--context-chars", "5"), "'--context-chars'"),
    ],
    "stats sample-size": [
        ("--sigma", ("--sigma", "-0.2", "--margin", "0.03"), "sigma=-0.2"),
        ("--sigma", ("--sigma", "1e300", "--margin", "1e-300"), "too large"),
        ("--margin", ("--sigma", "0.2", "--margin", "0"), "margin=0.0"),
        ("--confidence", (*SIGMA, "--confidence", "1.5"), "--confidence 1.5"),
        ("--cluster-size", (*SIGMA, "--cluster-size", "5"), "--cluster-size 5.0: needs --icc"),
        ("--icc", (*SIGMA, "--icc", "0.3"), "--icc 0.3: needs --cluster-size"),
        ("--detect", ("--detect", "0.05"), "needs --sigma-diff"),
        ("--sigma-diff", (*SIGMA, "--sigma-diff", "0.2"), "--sigma-diff 0.2"),
        ("--power", (*SIGMA, "--power", "0.9"), "--power 0.9"),
    ],
    "board show": [
        ("--domain", ("--domain", "maths"), "maths"),
        ("--source", ("--source", "web"), "--source 'web'"),
        ("--tasks", ("--tasks", "some"), "'--tasks'"),
        ("--model", ("--model", ""), "--model ''"),
        ("--harness-version", ("--harness-version", ""), "--harness-version ''"),
        ("--task-set-version", ("--task-set-version", " "), "--task-set-version ' '"),
        ("--mode", ("--mode", ""), "--mode ''"),
        ("--db", ("--db", "foreign.db"), "not a slopmark store"),
    ],
    "board compare": [
        ("model_a", ("m1", "m1", "--domain", "math"), "with itself"),
        ("model_b", ("m1", "--domain", "math"), "'model_b'"),
        ("--domain", ("m1", "m2", "--domain", "maths"), "maths"),
        ("--source", ("m1", "m2", "--domain", "math", "--source", "web"), "--source 'web'"),
        ("--harness-version", ("m1", "m2", "--domain", "math", "--harness-version", ""),
         "--harness-version ''"),
        ("--task-set-version", ("m1", "m2", "--domain", "math", "--task-set-version", ""),
         "--task-set-version ''"),
        ("--mode", ("m1", "m2", "--domain", "math", "--mode", ""), "--mode ''"),
        ("--db", ("m1", "m2", "--domain", "math", "--db", "foreign.db"), "not a slopmark store"),
    ],
    "board export": [
        ("--format", ("--format", "xml"), "'--format'"),
        ("--what", ("--format", "json", "--what", "everything"), "'--what'"),
        ("--domain", ("--format", "json", "--domain", "maths"), "maths"),
        ("--source", ("--format", "csv", "--source", "web"), "--source 'web'"),
        ("--tasks", ("--format", "json", "--tasks", "all"), "--tasks all"),
        ("--harness-version", ("--format", "csv", "--harness-version", ""),
         "--harness-version ''"),
        ("--task-set-version", ("--format", "csv", "--task-set-version", ""),
         "--task-set-version ''"),
        ("--mode", ("--format", "csv", "--mode", ""), "--mode ''"),
        ("--out", ("--format", "csv", "--out", "folder"), "--out 'folder': is a folder"),
        ("--db", ("--format", "csv", "--db", "foreign.db"), "not a slopmark store"),
    ],
    "board plot": [
        ("--domain", ("--domain", "maths", "--out", "p.svg"), "maths"),
        ("--reliability", ("--reliability", "--domain", "math"), "--reliability"),
        ("--out", ("--out", "chart.pdf"), "chart.pdf"),
        ("--out", ("--out", "folder/nested/p.svg"), "does not exist"),
        ("--source", ("--source", "web", "--out", "p.svg"), "--source 'web'"),
        ("--tasks", ("--tasks", "some"), "'--tasks'"),
        ("--model", ("--model", "", "--out", "p.svg"), "--model ''"),
        ("--harness-version", ("--harness-version", "", "--out", "p.svg"),
         "--harness-version ''"),
        ("--task-set-version", ("--task-set-version", "", "--out", "p.svg"),
         "--task-set-version ''"),
        ("--mode", ("--mode", "", "--out", "p.svg"), "--mode ''"),
        ("--db", ("--db", "foreign.db", "--out", "p.svg"), "not a slopmark store"),
    ],
    "board gate": [
        ("--model", ("--model", "", "--domain", "math", "--min-pass-rate", "0.5"), "--model ''"),
        ("--domain", ("--model", "m1", "--domain", "maths", "--min-pass-rate", "0.5"), "maths"),
        ("--min-pass-rate", ("--model", "m1", "--domain", "math", "--min-pass-rate", "2"),
         "'--min-pass-rate'"),
        ("--baseline", ("--model", "m1", "--domain", "math", "--min-pass-rate", "0.5",
                        "--baseline", ""), "--baseline ''"),
        ("--junit", ("--model", "m1", "--domain", "math", "--min-pass-rate", "0.5",
                     "--junit", "folder"), "--junit 'folder': is a folder"),
        ("--source", ("--model", "m1", "--domain", "math", "--min-pass-rate", "0.5",
                      "--source", "web"), "--source 'web'"),
        ("--harness-version", ("--model", "m1", "--domain", "math", "--min-pass-rate", "0.5",
                               "--harness-version", ""), "--harness-version ''"),
        ("--task-set-version", ("--model", "m1", "--domain", "math", "--min-pass-rate", "0.5",
                                "--task-set-version", ""), "--task-set-version ''"),
        ("--mode", ("--model", "m1", "--domain", "math", "--min-pass-rate", "0.5",
                    "--mode", ""), "--mode ''"),
        ("--db", ("--model", "m1", "--domain", "math", "--min-pass-rate", "0.5",
                  "--db", "foreign.db"), "not a slopmark store"),
    ],
    "board adequacy": [
        ("--source", ("--source", "web"), "--source 'web'"),
        ("--db", ("--db", "foreign.db"), "not a slopmark store"),
    ],
}  # fmt: skip


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    subcommands = getattr(command, "commands", None)
    if subcommands:
        for name, sub in subcommands.items():
            yield from _commands(sub, (*path, name))
    else:
        yield " ".join(path), command


def _walked(command: Any) -> set[str]:
    """The parameters of ``command`` that take a value (arguments and non-flag options)."""
    names = set()
    for param in command.params:
        if getattr(param, "is_flag", False) or param.name == "help":
            continue
        names.add(param.opts[0] if param.opts[0].startswith("-") else param.name)
    return names


def test_every_command_and_option_has_a_bad_value() -> None:
    commands = dict(_commands(get_command(app)))
    assert set(CASES) == set(commands), "commands without bad-value cases, or cases of none"
    for name, command in commands.items():
        walked = {option for option, _, _ in CASES[name]}
        missing = _walked(command) - walked
        assert not missing, f"{name}: no bad value for {sorted(missing)}"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("workspace"))


@pytest.fixture(scope="module")
def slopmark() -> Iterator[CliFork]:
    with CliFork(clean_env()) as fork:
        yield fork


@pytest.mark.parametrize(
    ("command", "args", "fragment"),
    [(command, args, fragment) for command, cases in CASES.items()
     for _, args, fragment in cases],
    ids=lambda value: " ".join(value) if isinstance(value, tuple) else str(value),
)  # fmt: skip
def test_a_bad_value_is_one_line_and_changes_nothing(
    workspace: Path, slopmark: CliFork, command: str, args: tuple[str, ...], fragment: str
) -> None:
    before = snapshot(workspace)
    env = clean_env() | {"SLOPMARK_DB": "store.db"}
    done = slopmark.run(*command.split(), *args, cwd=workspace, env=env)
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert len(lines) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert lines[0].startswith("slopmark: error: ") and fragment in lines[0], lines[0]
    assert snapshot(workspace) == before
