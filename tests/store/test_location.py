"""Where the default store is on each platform, read from the environment alone."""

from __future__ import annotations

from pathlib import Path, PureWindowsPath

from slopmark.store.location import DEFAULT_ORIGIN, default_url, locate, user_data_folder


def test_linux_takes_xdg_data_home_else_local_share() -> None:
    home = {"HOME": "/home/u"}
    assert user_data_folder(home, "linux") == Path("/home/u/.local/share/slopmark")
    given = home | {"XDG_DATA_HOME": "/data"}
    assert user_data_folder(given, "linux") == Path("/data/slopmark")


def test_a_relative_or_empty_xdg_data_home_is_ignored_as_the_spec_says() -> None:
    for value in ("", "relative/data"):
        found = user_data_folder({"HOME": "/home/u", "XDG_DATA_HOME": value}, "linux")
        assert found == Path("/home/u/.local/share/slopmark")


def test_macos_and_windows_have_their_own_folders() -> None:
    home = {"HOME": "/Users/u"}
    assert user_data_folder(home, "darwin") == Path("/Users/u/Library/Application Support/slopmark")
    local = {"LOCALAPPDATA": r"C:\Users\u\AppData\Local"}
    found = PureWindowsPath(user_data_folder(local, "win32"))
    assert found == PureWindowsPath(r"C:\Users\u\AppData\Local\slopmark")


def test_the_default_is_used_only_without_flag_and_variable() -> None:
    env = {"HOME": "/home/u", "XDG_DATA_HOME": "/data"}
    assert locate(None, env).url == default_url(env) == "sqlite:////data/slopmark/slopmark.db"
    assert locate(None, env).origin == DEFAULT_ORIGIN
    assert locate(None, env | {"SLOPMARK_DB": "env.db"}).url == "sqlite:///env.db"
    assert locate("flag.db", env | {"SLOPMARK_DB": "env.db"}).url == "sqlite:///flag.db"
