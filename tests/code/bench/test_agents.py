"""The agents against real parts: subprocesses, fake agent CLIs on PATH, a real
OpenAI-compatible server on 127.0.0.1, and (once) the real bubblewrap sandbox."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import openai
import pytest

from bench.hostsandbox import HostSandbox
from fakes import openai_server as fake
from fakes.openai_server import Behaviour, FakeOpenAIServer, ToolCall
from slopmark.code.bench.agents import AgentOutcome, AgentTask, agent_specs, make_agent
from slopmark.code.bench.agents import tools as agent_tools
from slopmark.code.bench.agents.transcript import read_transcript
from slopmark.code.bench.problem import Problem, load_problem
from slopmark.errors import BadInput
from slopmark.llm.prices import cost
from slopmark.sandbox.base import Limits, Mount, Sandbox, choose_sandbox
from slopmark.sandbox.private import path_tools

openai_server = fake.openai_server  # the fixture, visible to this module's tests

HELLO = 'import sys\nprint("hello from", sys.argv[0])\n'


@pytest.fixture
def problem(tmp_path: Path) -> Problem:
    root = tmp_path / "greet"
    files = {
        "config.yaml": "name: greet\nentry_file: main\ncheckpoints: [checkpoint_1, checkpoint_2]\n",
        "checkpoint_1.md": "Print a greeting.\n",
        "checkpoint_2.md": "Print a greeting, loudly.\n",
        "tests/test_checkpoint_1.py": "def test_nothing():\n    pass\n",
        "solutions/checkpoint_1/main.py": "from lib.words import GREETING\nprint(GREETING)\n",
        "solutions/checkpoint_1/lib/words.py": 'GREETING = "hello"\n',
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return load_problem(root)


def make_task(
    problem: Problem,
    tmp_path: Path,
    *,
    checkpoint: str = "checkpoint_1",
    model: str | None = None,
    sandbox: Sandbox | None = None,
    wall_s: float = 60.0,
    prompt: str = "Write main.py.",
) -> AgentTask:
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    return AgentTask(
        problem=problem,
        checkpoint=problem.checkpoint(checkpoint),
        prompt=prompt,
        is_continuation=checkpoint != "checkpoint_1",
        workspace=workspace,
        log_dir=tmp_path / "logs",
        model=model,
        sandbox=sandbox or HostSandbox(),
        limits=Limits(wall_s=wall_s),
    )


# The registry


def test_every_builtin_agent_is_registered() -> None:
    specs = agent_specs()
    assert sorted(specs) == ["claude-code", "codex", "command", "loop", "replay"]
    assert [name for name, spec in specs.items() if spec.replays] == ["replay"]


def test_an_unknown_agent_is_bad_input_with_a_suggestion() -> None:
    with pytest.raises(BadInput, match="unknown agent 'replya'; did you mean 'replay'"):
        make_agent("replya", {})


def test_an_unknown_option_is_bad_input_with_a_suggestion() -> None:
    with pytest.raises(BadInput, match="no option 'max_step'; did you mean 'max_steps'"):
        make_agent("loop", {"max_step": "3"})
    with pytest.raises(BadInput, match="max_steps='many' must be a int"):
        make_agent("loop", {"max_steps": "many"})


@pytest.mark.slow
def test_a_command_line_with_prompt_file_becomes_a_command_agent(
    problem: Problem, tmp_path: Path
) -> None:
    agent = make_agent("cat {prompt_file} > copy.md", {})
    outcome = agent.run(make_task(problem, tmp_path, prompt="Build it; use $HOME 'carefully'."))
    assert agent.name == "command"
    assert outcome.status == "ok", outcome.error
    assert (tmp_path / "workspace/copy.md").read_text() == "Build it; use $HOME 'carefully'."


# The command agent


@pytest.mark.slow
def test_placeholders_are_filled_in_shell_quoted(problem: Problem, tmp_path: Path) -> None:
    template = "printf '%s|%s|%s' {prompt} {workspace} {model} > out"
    agent = make_agent("command", {"template": template})
    task = make_task(problem, tmp_path, model="m x", prompt='say "hi" & $(echo injected) `x`')
    outcome = agent.run(task)
    assert outcome.status == "ok", outcome.error
    out = (task.workspace / "out").read_text()
    assert out == f'say "hi" & $(echo injected) `x`|{task.workspace}|m x'
    assert (task.log_dir / "prompt.md").read_text() == task.prompt


@pytest.mark.slow
def test_a_failing_command_is_an_error_with_its_last_stderr_line(
    problem: Problem, tmp_path: Path
) -> None:
    template = "cat {prompt_file} >/dev/null; echo working; echo first >&2; echo no key >&2; exit 3"
    task = make_task(problem, tmp_path)
    outcome = make_agent(template, {}).run(task)
    assert (outcome.status, outcome.error) == ("error", "exit code 3: no key")
    assert (task.log_dir / "agent.stdout").read_text() == "working\n"
    assert (task.log_dir / "agent.stderr").read_text() == "first\nno key\n"


@pytest.mark.slow
def test_a_command_past_the_wall_clock_is_a_timeout(problem: Problem, tmp_path: Path) -> None:
    outcome = make_agent("sleep 30 # {prompt_file}", {}).run(make_task(problem, tmp_path, wall_s=1))
    assert outcome.status == "timeout"
    assert outcome.wall_s < 10


@pytest.mark.slow
def test_only_allowed_variables_reach_the_command(
    problem: Problem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("MY_AGENT_SETTING", "on")
    monkeypatch.setenv("UNRELATED_SECRET", "hidden")
    agent = make_agent("env > env.txt # {prompt_file}", {"env": "MY_AGENT_SETTING"})
    task = make_task(problem, tmp_path)
    assert agent.run(task).status == "ok"
    env = dict(line.split("=", 1) for line in (task.workspace / "env.txt").read_text().splitlines())
    assert env["OPENAI_API_KEY"] == "sk-test"
    assert env["MY_AGENT_SETTING"] == "on"
    assert "UNRELATED_SECRET" not in env
    assert env["HOME"] == str(task.log_dir / "home")


def test_host_paths_the_command_names_are_mounted_read_only(
    problem: Problem, tmp_path: Path
) -> None:
    script = tmp_path / "agent.py"
    script.write_text("print('agent')\n")
    link = tmp_path / "link.py"
    link.symlink_to(script)
    template = f"{sys.executable} {script} {link} {tmp_path / 'absent'} {{prompt_file}} /dev/null"
    agent = make_agent(template + f" {tmp_path} {{workspace}}", {})
    task = make_task(problem, tmp_path)
    assert agent.mounts(task) == [
        Mount(task.log_dir, writable=False),
        Mount(task.workspace, writable=True),
        Mount(task.log_dir / "home", writable=True),
        *path_tools(os.environ.get("PATH", "")),
        Mount(script, writable=False),
    ]


def test_a_template_needing_a_model_without_one_is_an_error(
    problem: Problem, tmp_path: Path
) -> None:
    outcome = make_agent("echo {model} < {prompt_file}", {}).run(make_task(problem, tmp_path))
    assert outcome.status == "error"
    assert "pass --model" in (outcome.error or "")


def test_a_command_template_needs_a_prompt_placeholder() -> None:
    with pytest.raises(BadInput, match="must contain \\{prompt_file\\} or \\{prompt\\}"):
        make_agent("command", {"template": "aider --yes"})


# The presets, with fake CLIs that print the real report formats

CLAUDE = """
import json, pathlib, sys
prompt = sys.stdin.read()
pathlib.Path("main.py").write_text("print('written by claude')\\n")
pathlib.Path("argv.json").write_text(json.dumps({"argv": sys.argv[1:], "prompt": prompt}))
failed = "FAIL" in prompt
print(json.dumps({
    "type": "result", "subtype": "error_max_turns" if failed else "success",
    "is_error": failed, "duration_ms": 5120, "duration_api_ms": 4800, "num_turns": 6,
    "result": "Created main.py.", "session_id": "0d9c6e1a-5a4e-4a4e-9d55-6a0c2b9b1e77",
    "total_cost_usd": 0.0342,
    "usage": {"input_tokens": 12, "cache_creation_input_tokens": 5120,
              "cache_read_input_tokens": 20480, "output_tokens": 830,
              "server_tool_use": {"web_search_requests": 0}, "service_tier": "standard"},
    "permission_denials": [],
}))
"""

CODEX = """
import json, pathlib, sys
prompt = sys.stdin.read()
print("Reading prompt from stdin...", file=sys.stderr)
pathlib.Path("main.py").write_text("print('written by codex')\\n")
pathlib.Path("argv.json").write_text(json.dumps({"argv": sys.argv[1:], "prompt": prompt}))
events = [
    {"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"},
    {"type": "turn.started"},
    {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": "**Plan**"}},
    {"type": "item.completed", "item": {"id": "item_1", "type": "file_change",
     "changes": [{"path": "main.py", "kind": "add"}], "status": "completed"}},
]
if "FAIL" in prompt:
    events.append({"type": "turn.failed", "error": {"message": "stream disconnected"}})
else:
    events.append({"type": "turn.completed", "usage": {"input_tokens": 24763,
                   "cached_input_tokens": 24448, "output_tokens": 122}})
for event in events:
    print(json.dumps(event))
"""


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, body in (("claude", CLAUDE), ("codex", CODEX)):
        (folder / name).write_text(f"#!{sys.executable}\n{body}")
        (folder / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")
    return folder


def argv_seen(task: AgentTask) -> dict[str, Any]:
    return dict(json.loads((task.workspace / "argv.json").read_text()))


@pytest.mark.slow
def test_claude_code_reads_cost_tokens_and_turns(
    problem: Problem, tmp_path: Path, fake_bin: Path
) -> None:
    task = make_task(problem, tmp_path, model="claude-sonnet-4-5")
    outcome = make_agent("claude-code", {}).run(task)
    assert outcome.status == "ok", outcome.error
    assert (outcome.cost_usd, outcome.steps) == (0.0342, 6)
    assert (outcome.input_tokens, outcome.output_tokens) == (12 + 5120 + 20480, 830)
    seen = argv_seen(task)
    assert seen["prompt"] == task.prompt
    assert seen["argv"] == [
        "-p",
        "--output-format",
        "json",
        "--dangerously-skip-permissions",
        "--model",
        "claude-sonnet-4-5",
    ]
    assert (task.workspace / "main.py").read_text() == "print('written by claude')\n"


@pytest.mark.slow
def test_claude_code_reporting_an_error_is_an_error(
    problem: Problem, tmp_path: Path, fake_bin: Path
) -> None:
    outcome = make_agent("claude-code", {}).run(make_task(problem, tmp_path, prompt="FAIL"))
    assert outcome.status == "error"
    assert outcome.error == "claude: error_max_turns: Created main.py."
    assert outcome.cost_usd == 0.0342


@pytest.mark.slow
def test_codex_reads_token_usage_and_prices_it(
    problem: Problem, tmp_path: Path, fake_bin: Path
) -> None:
    task = make_task(problem, tmp_path, model="gpt-5")
    outcome = make_agent("codex", {}).run(task)
    assert outcome.status == "ok", outcome.error
    assert (outcome.input_tokens, outcome.output_tokens, outcome.steps) == (24763, 122, None)
    assert outcome.cost_usd == pytest.approx(24763 * 1.25e-6 + 122 * 10e-6)
    assert argv_seen(task)["argv"] == [
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "--model",
        "gpt-5",
        "-",
    ]


@pytest.mark.slow
def test_codex_without_a_model_or_with_a_failed_turn(
    problem: Problem, tmp_path: Path, fake_bin: Path
) -> None:
    task = make_task(problem, tmp_path, prompt="FAIL")
    outcome = make_agent("codex", {}).run(task)
    assert "--model" not in argv_seen(task)["argv"]
    assert (outcome.status, outcome.error) == ("error", "codex: turn failed: stream disconnected")
    assert outcome.cost_usd is None


def test_a_preset_whose_cli_is_missing_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BadInput, match="npm install -g @anthropic-ai/claude-code"):
        make_agent("claude-code", {})
    with pytest.raises(BadInput, match="npm install -g @openai/codex"):
        make_agent("codex", {})


# Replay


def test_replay_makes_the_workspace_the_reference_solution(
    problem: Problem, tmp_path: Path
) -> None:
    task = make_task(problem, tmp_path)
    (task.workspace / "stale").mkdir()
    (task.workspace / "stale/old.py").write_text("x = 1\n")
    (task.workspace / "notes.txt").write_text("left over\n")
    outcome = make_agent("replay", {}).run(task)
    assert (outcome.status, outcome.cost_usd, outcome.input_tokens) == ("ok", None, None)
    files = sorted(p.relative_to(task.workspace).as_posix() for p in task.workspace.rglob("*"))
    assert files == ["lib", "lib/words.py", "main.py"]
    assert (task.workspace / "lib/words.py").read_text() == 'GREETING = "hello"\n'


def test_replay_without_a_reference_solution_is_an_error(problem: Problem, tmp_path: Path) -> None:
    task = make_task(problem, tmp_path, checkpoint="checkpoint_2")
    (task.workspace / "main.py").write_text("print(1)\n")
    outcome = make_agent("replay", {}).run(task)
    assert outcome.status == "error"
    assert "no reference solution for checkpoint_2" in (outcome.error or "")
    assert (task.workspace / "main.py").read_text() == "print(1)\n"


# The loop agent against a scripted OpenAI-compatible server


def loop(server: FakeOpenAIServer, **options: str) -> Any:
    return make_agent("loop", {"base_url": server.base_url, "api_key": "k", **options})


def call(name: str, **arguments: Any) -> Behaviour:
    return Behaviour(tool_calls=(ToolCall(name, arguments),))


def tool_results(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


@pytest.mark.slow
def test_the_loop_writes_runs_and_finishes(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.enqueue(
        call("write_file", path="main.py", content=HELLO),
        call("shell", command="python main.py"),
        call("finish", summary="done"),
    )
    task = make_task(problem, tmp_path, model="fake-model")
    outcome = loop(openai_server).run(task)
    assert outcome.status == "ok", outcome.error
    assert outcome.steps == 3 and openai_server.request_count == 3
    assert (task.workspace / "main.py").read_text() == HELLO
    first, _, third = openai_server.requests
    assert [tool["function"]["name"] for tool in first["tools"]][:2] == ["shell", "write_file"]
    assert first["messages"][1] == {"role": "user", "content": "Write main.py."}
    assert tool_results(third) == [
        f"wrote main.py ({len(HELLO)} characters)",
        "exit code 0\nstdout:\nhello from main.py\n",
    ]
    assert outcome.input_tokens and outcome.output_tokens and outcome.cost_usd is None
    records = read_transcript(task.log_dir / "transcript.jsonl")
    assert [r["message"]["role"] for r in records if r["kind"] == "message"] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
    ]
    assert records[-1] == {
        "kind": "stop",
        "step": 3,
        "status": "ok",
        "reason": "the model called finish",
    }


@pytest.mark.slow
def test_a_server_rejecting_tools_switches_the_loop_to_text_blocks(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    blocks = f"Here it is.\n```file:main.py\n{HELLO}```\n```shell\npython main.py\n```\n"
    openai_server.enqueue(
        Behaviour(status=400, error_message="tools are not supported"),
        Behaviour(text=blocks),
        Behaviour(text="The program is complete."),
    )
    task = make_task(problem, tmp_path, model="smollm2-135m")
    outcome = loop(openai_server).run(task)
    assert outcome.status == "ok", outcome.error
    assert outcome.steps == 2
    rejected, text_mode, last = openai_server.requests
    assert "tools" in rejected and "tools" not in text_mode
    assert "```file:main.py" in text_mode["messages"][0]["content"]
    results = last["messages"][-1]["content"]
    assert "[shell: python main.py]\nexit code 0\nstdout:\nhello from main.py" in results
    assert (task.workspace / "main.py").read_text() == HELLO


def test_a_first_reply_without_tool_calls_switches_to_text_and_takes_a_bare_python_block(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.enqueue(
        Behaviour(text="I will write the program."),
        Behaviour(text="```python\nprint('tiny model')\n```"),
        Behaviour(text="Done."),
    )
    task = make_task(problem, tmp_path, model="smollm2-135m")
    outcome = loop(openai_server).run(task)
    assert (outcome.status, outcome.steps) == ("ok", 3)
    assert "tools" not in openai_server.requests[1]
    assert (task.workspace / "main.py").read_text() == "print('tiny model')\n"


def test_the_step_budget_stops_the_loop(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.default = call("list_files")
    task = make_task(problem, tmp_path, model="fake-model")
    outcome = loop(openai_server, max_steps="3").run(task)
    assert (outcome.status, outcome.steps, openai_server.request_count) == ("ok", 3, 3)
    stop = read_transcript(task.log_dir / "transcript.jsonl")[-1]
    assert stop["reason"] == "the step budget (3 steps) is used up"


def test_the_cost_budget_stops_the_loop(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.default = Behaviour(tool_calls=(ToolCall("list_files"),), cost=0.6)
    outcome = loop(openai_server, max_cost="1.0").run(make_task(problem, tmp_path, model="x"))
    assert (outcome.status, outcome.steps) == ("ok", 2)
    assert outcome.cost_usd == pytest.approx(1.2)


def test_the_price_table_prices_steps_and_unknown_prices_leave_the_step_budget(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.default = call("list_files")
    priced = loop(openai_server, max_steps="2").run(make_task(problem, tmp_path, model="gpt-4o"))
    expected = cost("gpt-4o", priced.input_tokens, priced.output_tokens)
    assert priced.cost_usd is not None and priced.cost_usd == pytest.approx(expected)
    unknown = loop(openai_server, max_steps="4", max_cost="0").run(
        make_task(problem, tmp_path, model="no-such-model")
    )
    assert (unknown.steps, unknown.cost_usd) == (4, None)


def test_file_tools_refuse_paths_outside_the_workspace(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    task = make_task(problem, tmp_path, model="fake-model")
    (task.workspace / "link").symlink_to(tmp_path)
    openai_server.enqueue(
        Behaviour(
            tool_calls=(
                ToolCall("write_file", {"path": "../escaped.py", "content": "x"}),
                ToolCall("read_file", {"path": "/etc/hostname"}),
                ToolCall("write_file", {"path": "link/escaped.py", "content": "x"}),
                ToolCall("edit_file", {"path": "main.py", "old": "a", "new": "b"}),
                ToolCall("write_file", "{not json"),
            )
        ),
        call("finish"),
    )
    outcome = loop(openai_server).run(task)
    assert outcome.status == "ok", outcome.error
    results = tool_results(openai_server.requests[1])
    assert all(result.startswith("error: ") for result in results)
    assert "outside the workspace" in results[0] and "outside the workspace" in results[2]
    assert "'/etc/hostname' is outside the workspace" in results[1]
    assert "no file 'main.py'" in results[3] and "not a JSON object" in results[4]
    assert not (tmp_path / "escaped.py").exists()


def test_edit_file_replaces_exactly_one_occurrence(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\ny = 1\n")
    tools = agent_tools.Toolbox(tmp_path, HostSandbox(), Limits(), deadline=float("inf"))

    def edit(old: str, new: str) -> str:
        edit = agent_tools.ToolCall("edit_file", {"path": "a.py", "old": old, "new": new})
        return tools.call(edit).text

    assert "'old' must occur exactly once in a.py, it occurs 2 times" in edit("= 1", "= 2")
    assert edit("y = 1", "y = 2") == "edited a.py"
    assert (tmp_path / "a.py").read_text() == "x = 1\ny = 2\n"


def test_a_provider_error_ends_the_loop_with_its_message(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.default = Behaviour(status=401, error_message="invalid api key")
    outcome = loop(openai_server).run(make_task(problem, tmp_path, model="fake-model"))
    assert outcome.status == "error"
    assert f"HTTP 401 from {openai_server.base_url}" in (outcome.error or "")
    assert "invalid api key" in (outcome.error or "")


def test_the_loop_sends_the_key_its_variable_names_else_a_placeholder(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    for name in ("SLOPMARK_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LOOP_TEST_KEY", "from-variable")
    openai_server.default = call("finish", summary="done")
    base = {"base_url": openai_server.base_url}
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    named = make_agent("loop", {**base, "api_key_env": "LOOP_TEST_KEY"})
    assert named.run(make_task(problem, tmp_path / "a", model="fake-model")).status == "ok"
    default = make_agent("loop", base)
    assert default.run(make_task(problem, tmp_path / "b", model="fake-model")).status == "ok"
    assert openai_server.authorizations == ["Bearer from-variable", "Bearer sk-no-key"]
    monkeypatch.delenv("LOOP_TEST_KEY")
    unset = r"^agent 'loop': option api_key_env: environment variable LOOP_TEST_KEY is not set$"
    with pytest.raises(BadInput, match=unset):
        make_agent("loop", {**base, "api_key_env": "LOOP_TEST_KEY"})


@pytest.mark.slow
def test_the_loop_stops_at_the_wall_clock(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.default = call("shell", command="sleep 20")
    outcome: AgentOutcome = loop(openai_server).run(
        make_task(problem, tmp_path, model="fake-model", wall_s=2)
    )
    assert outcome.status == "timeout"
    assert outcome.wall_s < 10 and outcome.steps == 1


def test_the_fake_server_streams_tool_calls_the_way_the_sdk_reads_them(
    openai_server: FakeOpenAIServer,
) -> None:
    openai_server.enqueue(call("write_file", path="main.py", content=HELLO))
    client = openai.OpenAI(base_url=openai_server.base_url, api_key="k")
    stream = client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "go"}], stream=True
    )
    arguments, names, finish = "", [], None
    for chunk in stream:
        for choice in chunk.choices:
            functions = [delta.function for delta in choice.delta.tool_calls or ()]
            names += [function.name for function in functions if function and function.name]
            arguments += "".join(function.arguments or "" for function in functions if function)
            finish = choice.finish_reason or finish
    client.close()
    assert (names, finish) == (["write_file"], "tool_calls")
    assert json.loads(arguments) == {"path": "main.py", "content": HELLO}


@pytest.mark.slow
def test_the_loop_runs_its_shell_in_the_real_bubblewrap_sandbox(
    problem: Problem, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    try:
        sandbox = choose_sandbox("bwrap")
    except (ImportError, BadInput) as error:
        pytest.skip(f"bubblewrap sandbox unavailable: {error}")
    outside = Path("/var/tmp") / f"slopmark-escape-{tmp_path.name}.txt"
    escape = f"import pathlib; pathlib.Path('{outside}').write_text('x')"
    openai_server.enqueue(
        call("write_file", path="main.py", content=HELLO),
        call("shell", command=f"{sys.executable} main.py"),
        call("shell", command=f'{sys.executable} -c "{escape}"'),
        call("finish"),
    )
    task = make_task(problem, tmp_path, model="fake-model", sandbox=sandbox)
    try:
        outcome = loop(openai_server).run(task)
        assert not outside.exists()
    finally:
        outside.unlink(missing_ok=True)
    assert outcome.status == "ok", outcome.error
    ran, escaped = tool_results(openai_server.requests[3])[1:]
    assert ran == "exit code 0\nstdout:\nhello from main.py\n"
    assert escaped.startswith("exit code 1") and "Read-only file system" in escaped
