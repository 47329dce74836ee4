"""``analyze --out DIR`` is written whole or not at all (issue 32): a temp folder beside DIR
takes its place at the end; a stopped run leaves no folder, or the old report intact."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tankmap.analysis.staged_folder import staged_folder
from tankmap.rules.errors import TankmapError


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("before", ["absent", "empty", "an earlier report"])
def test_the_folder_appears_whole_when_the_block_ends(tmp_path: Path, before: str) -> None:
    out = tmp_path / "rep"
    if before != "absent":
        out.mkdir()
    if before == "an earlier report":
        (out / "report.html").write_text("old")
        (out / "old.png").write_text("old")
        (out / "sub").mkdir()
        (out / "sub" / "report.html").write_text("old")
    with staged_folder(out) as stage:
        (stage / "report.html").write_text("new")
        assert not (out / "report.html").exists() or (out / "report.html").read_text() == "old"
    assert names(out) == ["report.html"] and (out / "report.html").read_text() == "new"
    assert names(tmp_path) == ["rep"]  # no temp folder left


@pytest.mark.parametrize("stop", [KeyboardInterrupt, RuntimeError, TankmapError])
def test_a_stopped_block_leaves_the_old_report_or_nothing(tmp_path: Path, stop: type) -> None:
    new, old = tmp_path / "new", tmp_path / "old"
    old.mkdir()
    (old / "report.html").write_text("old")
    for out in (new, old):
        with pytest.raises(stop), staged_folder(out) as stage:
            (stage / "report.html").write_text("half")
            raise stop("stopped")
    assert names(tmp_path) == ["old"] and (old / "report.html").read_text() == "old"


def test_a_folder_with_other_files_is_refused_untouched(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    (out / "report.html").write_text("a report")
    with pytest.raises(TankmapError, match="other files than an earlier analyze report"):
        with staged_folder(out):
            pytest.fail("the block must not run")
    assert names(out) == ["notes.txt", "report.html"] and names(tmp_path) == ["mine"]


@pytest.mark.parametrize("kind", ["a file", "a link", "the current folder", "its parent"])
def test_what_is_not_a_report_folder_is_refused(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    target = {"a file": "f", "a link": "link", "the current folder": ".", "its parent": ".."}
    (here / "f").write_text("")
    (here / "link").symlink_to(here)
    with pytest.raises(TankmapError) as err, staged_folder(target[kind]):
        pytest.fail("the block must not run")
    assert target[kind] in str(err.value)
    assert names(here) == ["f", "link"]


def test_temp_folders_of_killed_runs_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / ".rep.999999999.k1ll3d.tmp"  # no such process
    alive = tmp_path / f".rep.{os.getpid()}.running.tmp"  # this process's, in use
    other = tmp_path / ".other.999999999.k1ll3d.tmp"  # another folder's
    for folder in (dead, alive, other):
        folder.mkdir()
        (folder / "report.html").write_text("half")
    with staged_folder(tmp_path / "rep") as stage:
        (stage / "report.html").write_text("new")
    assert names(tmp_path) == sorted([alive.name, other.name, "rep"])


def test_analyze_out_replaces_an_earlier_report_and_names_the_real_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    out = tmp_path / "rep"
    out.mkdir()
    (out / "stale.png").write_text("from an earlier report")
    assert main(["analyze", "tank-wars/default", "--out", str(out), "--workers", "1"]) == 0
    assert capsys.readouterr().out == f"wrote {out / 'report.html'}\n"
    assert "stale.png" not in names(out) and "analysis.json" in names(out)
    assert json.loads((out / "analysis.json").read_text())["ruleset"] == "tank-wars"
    assert names(tmp_path) == ["rep"]


def test_every_out_refuses_another_commands_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One rule for every --out: simulate into analyze's report folder is refused (it
    replaced report.html and board.png and left the rest), and so is analyze into
    simulate's; a command's own earlier report is replaced."""
    from tankmap.cli import main

    rep = tmp_path / "R"
    assert main(["analyze", "final-act/mirror", "--out", str(rep), "--workers", "1"]) == 0
    before = {p.name: p.read_bytes() for p in rep.iterdir()}
    capsys.readouterr()
    sim = ["simulate", "final-act/mirror", "--games", "4", "--policy", "random"]
    assert main([*sim, "--workers", "1", "--out", str(rep)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"tankmap simulate: error: {rep}: holds a report of 'tankmap analyze', which the "
        "simulate report would spoil: give a new or empty folder"
    )
    assert {p.name: p.read_bytes() for p in rep.iterdir()} == before
    other = tmp_path / "S"
    assert main([*sim, "--workers", "1", "--out", str(other)]) == 0
    assert main([*sim, "--workers", "1", "--out", str(other)]) == 0  # its own: replaced
    assert main(["analyze", "final-act/mirror", "--out", str(other), "--workers", "1"]) == 2
    assert "holds a report of 'tankmap simulate'" in capsys.readouterr().err
    for command in ("verdict", "ladder", "suggest"):
        assert main([command, "final-act/mirror", "--out", str(rep)]) == 2
        assert "holds a report of 'tankmap analyze'" in capsys.readouterr().err
    (other / "notes.txt").write_text("mine")
    assert main([*sim, "--workers", "1", "--out", str(other)]) == 2
    assert "holds other files than an earlier simulate report" in capsys.readouterr().err


def test_a_command_s_report_is_replaced_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An earlier report's files that the new run does not write again do not stay behind
    (an old suggestion-5.json beside today's two suggestions read as today's)."""
    from tankmap.cli import main

    out = tmp_path / "S"
    sim = ["simulate", "final-act/mirror", "--games", "4", "--policy", "random", "--workers", "1"]
    assert main([*sim, "--out", str(out)]) == 0
    (out / "board-old.png").write_bytes(b"an earlier run's chart")  # (a name simulate writes)
    assert main([*sim, "--out", str(out)]) == 0
    assert not (out / "board-old.png").exists() and (out / "report.html").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp folder left
    capsys.readouterr()
    assert main([*sim, "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["report"] == str(out / "report.html")
