"""The paper measures' model client against a real OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from fakes import openai_server as fake
from fakes.openai_server import Behaviour, FakeOpenAIServer
from slopmark.errors import BadInput
from slopmark.paper.models import (
    Endpoint,
    ModelCallFailed,
    ModelSet,
    cache_key,
    default_cache_dir,
    load_model_config,
)

openai_server = fake.openai_server


def models_at(server: FakeOpenAIServer, cache: Path) -> ModelSet:
    endpoint = Endpoint(server.base_url, "fake-model")
    return ModelSet(labeller=endpoint, scorer=endpoint, vision=endpoint, cache_dir=cache)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_config_names_each_role_and_absent_roles_say_why(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "labeller: {base_url: 'http://127.0.0.1:9/v1/', model: qwen-32b}\n"
        "scorer: {base_url: 'http://127.0.0.1:9/v1', model: qwen-7b}\n",
    )
    models = load_model_config(path, cache_dir=tmp_path / "cache")
    assert models.endpoints["labeller"] == Endpoint("http://127.0.0.1:9/v1", "qwen-32b")
    assert models.endpoints["vision"] is None
    assert models.missing("labeller", "scorer") is None
    reason = models.missing("vision", "labeller")
    assert reason is not None and "vision" in reason and "labeller" not in reason
    assert models.describe("scorer", "vision") == {"scorer": "qwen-7b at http://127.0.0.1:9/v1"}


def test_an_api_key_comes_only_from_the_named_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAPER_LABELLER_KEY", "sk-secret")
    path = write(
        tmp_path,
        "labeller: {base_url: 'https://x.test/v1', model: m, api_key_env: PAPER_LABELLER_KEY}",
    )
    endpoint = load_model_config(path).endpoints["labeller"]
    assert endpoint is not None and endpoint.api_key == "sk-secret"
    assert "sk-secret" not in repr(endpoint)
    monkeypatch.delenv("PAPER_LABELLER_KEY")
    with pytest.raises(BadInput, match=r"labeller\.api_key_env: environment variable"):
        load_model_config(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("labeler: {base_url: 'http://h/v1', model: m}", r"labeler: unknown model role; did you"),
        ("scorer: {base_url: 'http://h/v1'}", r"scorer\.model: missing or empty"),
        ("scorer: {base_url: 'h:8000', model: m}", r"scorer\.base_url: 'h:8000' is not an http"),
        ("vision: {base_url: 'http://h/v1', model: m, modle: x}", r"vision\.modle: unknown field"),
        ("vision: qwen", r"vision: expected a mapping"),
        ("- labeller", r"expected a mapping with labeller"),
        ("labeller: {base_url: [", r"not valid YAML"),
    ],
)
def test_a_bad_config_names_the_file_and_field(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(BadInput, match=message) as raised:
        load_model_config(path)
    assert str(raised.value).startswith(str(path))


def test_an_unreadable_config_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="cannot read the file"):
        load_model_config(tmp_path / "absent.yaml")


def test_the_cache_lives_under_slopmark_cache_or_the_user_cache(tmp_path: Path) -> None:
    assert default_cache_dir({"SLOPMARK_CACHE": "/c"}) == Path("/c/paper-models")
    assert default_cache_dir({"XDG_CACHE_HOME": "/x"}) == Path("/x/slopmark/paper-models")
    assert default_cache_dir({}) == Path.home() / ".cache" / "slopmark" / "paper-models"


def test_keys_differ_by_kind_model_request_and_params() -> None:
    base = cache_key("chat", "m", [{"role": "user", "content": "a"}], {"run": 0})
    assert base == cache_key("chat", "m", [{"role": "user", "content": "a"}], {"run": 0})
    assert base != cache_key("chat", "m", [{"role": "user", "content": "a"}], {"run": 1})
    assert base != cache_key("chat", "n", [{"role": "user", "content": "a"}], {"run": 0})
    assert base != cache_key("completion", "m", [{"role": "user", "content": "a"}], {"run": 0})


def test_chat_is_greedy_and_cached_per_run(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    openai_server.answer_matching({"sentence [2]": "superiority"})
    messages = [{"role": "user", "content": "label sentence [2]"}]
    models = models_at(openai_server, tmp_path)
    assert models.chat(messages, run=0) == "superiority"
    assert models.chat(messages, run=0) == "superiority"
    assert models.chat(messages, run=1) == "superiority"
    assert (models.requests, models.hits, openai_server.request_count) == (2, 1, 2)
    body = openai_server.requests[0]
    assert body["temperature"] == 0.0 and body["max_tokens"] == 16 and "run" not in body
    models.close()
    again = models_at(openai_server, tmp_path)
    assert again.chat(messages, run=1) == "superiority"
    assert openai_server.request_count == 2 and again.hits == 1


def test_prompt_logprobs_keep_the_prompt_tokens_with_their_offsets(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    fixed = [("Claims", -3.0), (" need", -1.5), (" support", -0.25)]
    openai_server.logprobs = lambda prompt: (
        fixed
        if prompt.startswith("Claims")
        else [(token, -4.0) for token, _ in fake.word_logprobs(prompt)]
    )
    with pytest.raises(ModelCallFailed, match="misaligned"):  # the probe gains nothing
        models_at(openai_server, tmp_path / "a").prompt_logprobs("Claims need support")
    openai_server.logprobs = lambda prompt: (
        fixed if prompt.startswith("Claims") else (fake.word_logprobs(prompt))
    )
    models = models_at(openai_server, tmp_path / "b")
    scored = models.prompt_logprobs("Claims need support")
    assert models.check_scorer() == pytest.approx(3.5)
    body = openai_server.requests[-1]
    assert (body["echo"], body["logprobs"], body["max_tokens"], body["temperature"]) == (
        True, 1, 1, 0.0,
    )  # fmt: skip
    assert [(t.text, t.offset, t.logprob) for t in scored.tokens] == [
        ("Claims", 0, None), (" need", 6, -1.5), (" support", 11, -0.25), (" the", 19, -0.5),
    ]  # fmt: skip
    inside = scored.starting_at(6)
    assert [t.text for t in inside] == [" need", " support"]  # the generated token is left out


def test_a_prompt_prefix_is_sent_and_offsets_stay_relative_to_the_prompt(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    bos = "<|im_start|>"

    def like_llama_cpp(prompt: str) -> list[tuple[str, float]]:
        # The prefix is one special token: its text is not echoed, offsets start after it.
        assert prompt.startswith(bos)
        return fake.word_logprobs(prompt[len(bos) :])

    openai_server.logprobs = like_llama_cpp
    scorer = Endpoint(openai_server.base_url, "m", prompt_prefix=bos)
    scored = ModelSet(scorer=scorer, cache_dir=tmp_path).prompt_logprobs("Claims need support")
    assert [(t.text, t.offset) for t in scored.starting_at(0)] == [
        ("Claims", 0), (" need", 6), (" support", 11),
    ]  # fmt: skip
    assert all(body["prompt"].startswith(bos) for body in openai_server.requests)


def test_a_figure_goes_to_the_vision_model_as_a_data_url(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer = lambda messages: "Box A -> Box B"
    image = b"\x89PNG\r\n\x1a\nnot-really-a-png"
    text = models_at(openai_server, tmp_path).transcribe("Transcribe.", image, "image/png")
    assert text == "Box A -> Box B"
    parts = openai_server.requests[0]["messages"][0]["content"]
    assert parts[0] == {"type": "text", "text": "Transcribe."}
    url = parts[1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == image
    assert openai_server.image_requests == 1


def test_a_failing_endpoint_is_named_in_the_error(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.enqueue(Behaviour(status=400, error_message="prompt too long"))
    models = models_at(openai_server, tmp_path)
    with pytest.raises(ModelCallFailed, match=r"labeller model 'fake-model' at http.*too long"):
        models.chat([{"role": "user", "content": "x"}])
    wrong = ModelSet(scorer=Endpoint(openai_server.base_url + "/v2", "m"), cache_dir=tmp_path)
    with pytest.raises(ModelCallFailed, match="scorer model 'm'"):
        wrong.prompt_logprobs("text")
    with pytest.raises(ModelCallFailed, match="no vision"):
        wrong.transcribe("x", b"", "image/png")
