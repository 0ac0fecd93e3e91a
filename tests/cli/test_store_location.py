"""One store location: the default store is in the user data folder, a read never creates
a store, and every command names the store it used. The real CLI in a subprocess, with
the current folder, ``$HOME`` and ``$XDG_DATA_HOME`` each a fresh folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.workspace import cli

pytestmark = pytest.mark.slow  # starts the CLI

TASK = "math.ages.0"
READS = [
    ("board", "show"),
    ("board", "show", "--json"),
    ("board", "export", "--format", "csv"),
    ("board", "export", "--format", "json", "--what", "leaderboard"),
    ("board", "gate", "--model", "m", "--domain", "math", "--min-pass-rate", "0.5"),
    ("board", "plot", "--out", "chart.svg"),
    ("board", "compare", "a", "b", "--domain", "math"),
    ("board", "adequacy"),
    ("code", "study", "report", "some-study"),
]


@pytest.fixture
def user(tmp_path: Path) -> dict[str, Path]:
    """A user with nothing yet: an empty working folder, home and data folder."""
    folders = {name: tmp_path / name for name in ("work", "home", "data")}
    for folder in folders.values():
        folder.mkdir()
    return folders


def run_as(user: dict[str, Path], *args: str, stdin: str = "") -> tuple[int, str, str]:
    env = {"HOME": str(user["home"]), "XDG_DATA_HOME": str(user["data"])}
    done = cli(*args, cwd=user["work"], env=env, stdin=stdin)
    return done.returncode, done.stdout, done.stderr


def listing(user: dict[str, Path]) -> dict[str, list[str]]:
    """Every file and folder under each of the user's folders."""
    return {
        name: sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
        for name, folder in user.items()
    }


def default_store(user: dict[str, Path]) -> Path:
    return user["data"] / "slopmark" / "slopmark.db"


@pytest.mark.parametrize("command", READS, ids=" ".join)
def test_a_read_on_a_missing_store_says_so_and_creates_nothing(
    user: dict[str, Path], command: tuple[str, ...]
) -> None:
    code, out, err = run_as(user, *command)
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1, err
    assert f"no store at {default_store(user)} (the default store)" in err
    assert "run `slopmark eval paste` or `slopmark eval run` first, or pass --db" in err
    assert listing(user) == {"work": [], "home": [], "data": []}


def test_a_write_creates_the_default_store_and_every_command_names_it(
    user: dict[str, Path],
) -> None:
    code, out, err = run_as(user, "eval", "paste", "--task", TASK, stdin="Answer: 5")
    assert code == 0, err
    assert default_store(user).is_file() and listing(user)["work"] == []
    assert "stored as run 1" in out
    assert err == f"slopmark: store: {default_store(user)} (the default store)\n"
    code, out, err = run_as(user, "board", "show", "--json")
    assert code == 0 and json.loads(out)["boards"], err  # stdout stays data
    assert err == f"slopmark: store: {default_store(user)} (the default store)\n"


def test_db_and_the_variable_still_come_first(user: dict[str, Path]) -> None:
    code, _, err = run_as(user, "eval", "paste", "--task", TASK, "--db", "mine.db", stdin="5")
    assert code == 0 and err == "slopmark: store: mine.db (--db)\n", err
    assert (user["work"] / "mine.db").is_file() and listing(user)["data"] == []


def test_a_left_over_slopmark_db_here_is_named_with_the_way_to_keep_using_it(
    user: dict[str, Path],
) -> None:
    code, _, _ = run_as(user, "eval", "paste", "--task", TASK, "--db", "slopmark.db", stdin="5")
    assert code == 0
    code, _, err = run_as(user, "board", "show")
    assert code == 2 and err.count("\n") == 1
    assert "./slopmark.db here is the old default store: pass --db ./slopmark.db" in err
    assert not default_store(user).exists()
    run_as(user, "eval", "paste", "--task", TASK, stdin="5")
    code, _, err = run_as(user, "board", "show", "--json")
    assert code == 0 and err.splitlines()[1].startswith(
        "slopmark: ./slopmark.db here is not used any more"
    ), err
    code, _, err = run_as(user, "board", "show", "--json", "--db", "./slopmark.db")
    assert code == 0 and "not used any more" not in err


def test_store_path_prints_the_store_in_use_or_the_default(user: dict[str, Path]) -> None:
    assert run_as(user, "store", "path") == (0, f"{default_store(user)}\n", "")
    env = {"SLOPMARK_DB": "other.db", "HOME": str(user["home"]), "XDG_DATA_HOME": str(user["data"])}
    assert cli("store", "path", env=env).stdout == "other.db\n"
    assert cli("store", "path", "--default", env=env).stdout == f"{default_store(user)}\n"
    assert listing(user) == {"work": [], "home": [], "data": []}
