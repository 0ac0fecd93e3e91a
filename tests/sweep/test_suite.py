"""``slopmark eval suite``: the suite file, and slices against a real fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fakes.openai_server import FakeOpenAIServer
from slopmark.errors import BadInput
from slopmark.evals.suitefile import read_suite

from .conftest import cli, runs_in, without_timings


def suite_file(tmp_path: Path, text: str) -> Path:
    (tmp_path / "tasks.yaml").write_text(TASKS, encoding="utf-8")
    path = tmp_path / "SUITE.yaml"
    path.write_text(text, encoding="utf-8")
    return path


#: Three tasks in each of two domains; the fake server echoes, so a task passes when its
#: prompt holds the answer (instruction: 2 of 3; math: the one ending in "Answer: 5").
TASKS = """\
- {id: i-1, domain: instruction, prompt: Reply with alpha., verifier: {type: instruction, rules: [{rule: required_phrase, text: alpha}]}}
- {id: i-2, domain: instruction, prompt: Reply with bravo., verifier: {type: instruction, rules: [{rule: required_phrase, text: bravo}]}}
- {id: i-3, domain: instruction, prompt: Name a colour., verifier: {type: instruction, rules: [{rule: required_phrase, text: zebra}]}}
- {id: m-1, domain: math, prompt: "What is 2 + 3? Answer: 5", verifier: {type: math, answer: "5", kind: integer}}
- {id: m-2, domain: math, prompt: "What is 2 + 4?", verifier: {type: math, answer: "6", kind: integer}}
- {id: m-3, domain: math, prompt: "What is 1 + 1?", verifier: {type: math, answer: "2", kind: integer}}
"""  # noqa: E501


def two_models(server: FakeOpenAIServer, key_env: str = "") -> str:
    extra = f"\n    key_env: {key_env}" if key_env else ""
    return (
        "models:\n"
        f"  - model: openai-compat:alpha\n    base_url: {server.base_url}{extra}\n"
        f"  - model: openai-compat:beta\n    base_url: {server.base_url}\n"
        "domains: [instruction, math]\ntasks: [tasks.yaml]\n"
        "concurrency: 2\ntimeout: 20\nretries: 0\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("models: []\ndomains: [math]\n", "name at least one entry under models"),
        ("models:\n  - model: qwen\n    base_url: http://h/v1\ndomains: [math]\n",
         r"models\[0\].model: expected PROVIDER:NAME"),
        ("models:\n  - model: openai-compat:q\n    base_url: ftp://h\ndomains: [math]\n",
         r"models\[0\].base_url: 'ftp://h' is not an http\(s\) URL"),
        ("models:\n  - model: openai-compat:q\n    base_url: http://h/v1\n    key: sk-1\n"
         "domains: [math]\n", r"models\[0\].key: unknown field"),
        ("models:\n  - model: openai-compat:q\n    base_url: http://h/v1\n    key_env: sk-123\n"
         "domains: [math]\n", "is not a variable name"),
        ("models:\n  - {model: 'openai-compat:q', base_url: 'http://a/v1'}\n"
         "  - {model: 'openai-compat:q', base_url: 'http://b/v1'}\ndomains: [math]\n",
         r"models\[1\].model: 'openai-compat:q' is named twice"),
        ("models:\n  - {model: 'openai-compat:q', base_url: 'http://a/v1'}\ndomains: [mth]\n",
         "domains: mth: unknown domain; did you mean 'math'"),
        ("model: x\n", "model: unknown field; did you mean 'models'"),
    ],
)  # fmt: skip
def test_a_bad_suite_file_names_the_field(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        read_suite(suite_file(tmp_path, text))


@pytest.mark.slow
def test_the_cli_refuses_a_bad_suite_in_one_line(tmp_path: Path) -> None:
    path = suite_file(tmp_path, "models: 3\n")
    done = cli("eval", "suite", str(path), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "SUITE.yaml: models: expected a list, got 3" in done.stderr


@pytest.mark.slow
def test_a_store_from_the_environment_is_named_as_such_when_refused(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    path = suite_file(tmp_path, two_models(openai_server))
    foreign = tmp_path / "notes.db"
    foreign.write_text("not a database\n", encoding="utf-8")
    done = cli("eval", "suite", str(path), env={"SLOPMARK_DB": str(foreign)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    named = f"slopmark: error: $SLOPMARK_DB 'sqlite:///{foreign}'"
    assert done.stderr.startswith(named), done.stderr
    assert foreign.read_text(encoding="utf-8") == "not a database\n"
    assert openai_server.request_count == 0


def suite_json(path: Path, db: str, *extra: str, env: dict[str, str] | None = None) -> dict:  # type: ignore[type-arg]
    done = cli("eval", "suite", str(path), "--db", db, "--json", *extra, env=env)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_every_slice_is_asked_stored_and_resumed(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    path = suite_file(tmp_path, two_models(openai_server))
    db = f"sqlite:///{tmp_path / 's.db'}"
    report = suite_json(path, db, "--jobs", "2")
    slices = [(s["model"], s["domain"], s["status"]) for s in report["slices"]]
    assert slices == [
        ("openai-compat:alpha", "instruction", "ok"), ("openai-compat:alpha", "math", "ok"),
        ("openai-compat:beta", "instruction", "ok"), ("openai-compat:beta", "math", "ok"),
    ]  # fmt: skip
    assert [s["summary"]["passed"] for s in report["slices"]] == [2, 1, 2, 1]
    assert all(s["summary"]["ok"] == 3 and s["summary"]["n"] == 3 for s in report["slices"])
    runs = runs_in(db)
    assert len(runs) == 12 and {r.model for r in runs} == {"alpha", "beta"}
    asked = openai_server.request_count
    again = suite_json(path, db)
    assert openai_server.request_count == asked  # every slice resumed: nothing asked twice
    assert without_timings(again["slices"]) == without_timings(report["slices"])
    assert len(runs_in(db)) == 12


@pytest.mark.slow
def test_a_missing_key_variable_fails_its_slices_only(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    path = suite_file(tmp_path, two_models(openai_server, key_env="ALPHA_KEY"))
    report = suite_json(path, f"sqlite:///{tmp_path / 's.db'}")
    status = {(s["model"], s["domain"]): s for s in report["slices"]}
    alpha = status["openai-compat:alpha", "math"]
    assert alpha["status"] == "failed"
    assert alpha["error"].startswith("node ")
    assert "environment variable ALPHA_KEY is not set; set it in the environment" in alpha["error"]
    assert status["openai-compat:beta", "math"]["status"] == "ok"
    keyed = suite_json(path, f"sqlite:///{tmp_path / 'k.db'}", env={"ALPHA_KEY": "sk-test"})
    assert all(s["status"] == "ok" for s in keyed["slices"])
    assert any(body.get("model") == "alpha" for body in openai_server.requests)
