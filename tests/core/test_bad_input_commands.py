"""Bad command lines found by fuzzing the commands: refused in one line with exit code 2,
before any work, and leaving nothing behind — no empty ``--out`` folder either."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tankmap.cli import main

FAST = ["--workers", "1"]


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "final-act/mirror", "--games", "2", "--policy", "bogus", *FAST],
        ["ladder", "final-act/mirror", "--games", "2", "--agents", "random,bogus", *FAST],
        ["verdict", "final-act/mirror", "--family", "bogus", "--time-limit", "3", *FAST],
        ["suggest", "final-act/mirror", "--agent", "bogus", "--budget", "3", "--games", "10"],
    ],
)
def test_a_refused_run_leaves_no_out_folder(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "new" / "report"
    assert main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bogus" in err
    assert not out.exists() and not (tmp_path / "new").exists()


def test_an_out_folder_under_a_file_is_refused_before_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "report"
    argv = ["simulate", "final-act/mirror", "--games", "2", "--policy", "random", *FAST]
    assert main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out {out}: cannot write there: Not a directory" in err


def test_a_new_nested_out_folder_is_still_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a" / "b" / "report"
    argv = ["simulate", "final-act/mirror", "--games", "2", "--policy", "random", *FAST]
    assert main([*argv, "--out", str(out)]) == 0
    assert (out / "summary.json").is_file()


@pytest.mark.parametrize(
    "agent", ["search:-3", "search:abc", "search:", "bogus", "heuristic+bogus", "uct:5"]
)
def test_suggest_refuses_a_bad_confirm_agent_before_the_search(
    agent: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tankmap.analysis.suggest as suggest_module

    def no_search(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the search ran with a bad --confirm-with")

    monkeypatch.setattr(suggest_module, "suggest", no_search)
    argv = ["suggest", "final-act/mirror", "--budget", "3", "--games", "10", *FAST]
    assert main([*argv, "--confirm-with", agent]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tankmap suggest: error: ") and err.count("\n") == 1


LONG = "n" * 300  # longer than a file name may be (255 bytes on the usual file systems)


@pytest.mark.parametrize(
    "argv",
    [
        ["new", "final-act", "-o", f"{LONG}.json"],
        ["render", "final-act/mirror", "-o", f"{LONG}.svg"],
        ["export", "final-act/mirror", "-o", f"{LONG}.tmj"],
        ["simulate", "final-act/mirror", "--games", "1", "--policy", "random", *FAST]
        + ["--record", f"{LONG}.json"],
    ],
)
def test_an_output_name_too_long_is_refused_in_one_line(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("cannot write: File name too long\n"), err
    assert "the games were played" not in err  # refused before the work
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "final-act/mirror", "--games", "2", "--out", ""],
        ["simulate", "final-act/mirror", "--games", "2", "--record", ""],
        ["simulate", "final-act/mirror", "--games", "2", "--policy", ""],
        ["ladder", "final-act/mirror", "--games", "2", "--agents", ""],
        ["render", "final-act/mirror", "-o", ""],
        ["replay", "final-act/mirror", "-o", ""],
    ],
)
def test_an_empty_value_is_refused_not_taken_for_no_flag(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # before, --out "" wrote no report, --policy "" played the default agent: silently
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tankmap {argv[0]}: error: --") and err.endswith(" is empty")
