"""Hardening regressions (each failed before): endless inputs, huge integers, lone
surrogates, duplicate keys and loose values, bounded arguments, output folders checked
before long work, escaped index links, reports kept inside --out, autosave failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import loads_scenario, read_scenario

MIRROR = map_path("final-act/mirror")
assert MIRROR is not None
DOC = json.loads(MIRROR.read_text())


def _one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_a_fifo_is_refused_without_hanging(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    done: list[int] = []
    t = threading.Thread(target=lambda: done.append(main(["check", str(fifo)])), daemon=True)
    t.start()
    t.join(10)
    assert done == [2]  # before: blocked forever in open()
    assert "not a regular file" in capsys.readouterr().err


def test_endless_devices_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line_exit_2(["check", "/dev/zero"], capsys)
    assert "not a regular file" in err


def test_stdin_of_yes_is_refused_at_once() -> None:
    out = subprocess.run(
        f"yes | {sys.executable} -m tankmap check /dev/stdin",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "not a regular file" in out.stderr


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: d["board"].__setitem__("columns", "__BIG__"), "digits"),
        (lambda d: d.__setitem__("title", "\ud800"), "surrogate"),
        (lambda d: d.__setitem__("version", 1.0), "version"),
        (lambda d: d["units"][0].__setitem__("cell", " a1"), "spaces"),
        (lambda d: d["units"][0].__setitem__("cell", "b2\n"), "spaces"),
        (lambda d: d["options"].__setitem__("max_rounds", 0), "between 1"),
        (lambda d: d["options"].__setitem__("max_rounds", 10**12), "between 1"),
    ],
)
def test_bad_values_are_one_typed_error(mutate: Any, words: str) -> None:
    doc = json.loads(json.dumps(DOC))
    mutate(doc)
    text = json.dumps(doc, ensure_ascii=True).replace('"__BIG__"', "9" * 5000)
    with pytest.raises(ScenarioFormatError, match=words):
        loads_scenario(text, "x.json")


def test_duplicate_keys_and_nan_are_refused() -> None:
    text = MIRROR.read_text().replace('"title": "Mirror"', '"title": "A", "title": "B"')
    with pytest.raises(ScenarioFormatError, match="duplicate key 'title'"):
        loads_scenario(text, "d.json")
    with pytest.raises(ScenarioFormatError, match="NaN"):
        loads_scenario(MIRROR.read_text().replace('"columns": 12', '"columns": NaN'), "n.json")


def test_huge_integer_through_the_cli_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "big.json"
    f.write_text(MIRROR.read_text().replace('"columns": 12', '"columns": ' + "9" * 5000))
    err = _one_line_exit_2(["check", str(f)], capsys)
    assert "digits" in err and len(err) < 400
    err = _one_line_exit_2(
        ["new", "final-act", "--board", "9" * 5000 + "x12", "-o", str(tmp_path / "n.json")], capsys
    )


@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "final-act/mirror", "--seed", "-1"], "--seed"),
        (["simulate", "final-act/mirror", "--games", str(10**18)], "--games"),
        (["render", "final-act/mirror", "-o", "x.png", "--dpi", "100000"], "--dpi"),
        (["ladder", "final-act/mirror", "--seed", "-5"], "--seed"),
    ],
)
def test_bounded_arguments(
    argv: list[str],
    words: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert words in _one_line_exit_2(argv, capsys)


def test_workers_are_capped_at_the_cpus(capsys: pytest.CaptureFixture[str]) -> None:
    from tankmap.commands.common import available_cpus

    assert (
        main(["simulate", "tank-wars/default", "--games", "2", "--workers", "100000", "--json"])
        == 0
    )
    assert f"capped at the {available_cpus()} available CPUs" in capsys.readouterr().err


def test_simulate_out_is_checked_before_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "a-file"
    existing.write_text("keep me")
    err = _one_line_exit_2(
        ["simulate", "final-act/mirror", "--games", "5", "--workers", "1", "--out", str(existing)],
        capsys,
    )
    assert "not a folder" in err and existing.read_text() == "keep me"
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):  # running as root: permissions do not stop us
            pytest.skip("root can write anywhere")
        err = _one_line_exit_2(
            ["simulate", "final-act/mirror", "--games", "5", "--out", str(locked / "rep")], capsys
        )
        assert "cannot write" in err
    finally:
        locked.chmod(0o700)


def test_index_links_are_escaped_and_reports_stay_inside_out(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    evil = src / "b' onmouseover='alert(2).json"
    dots = src / "...json"
    for f in (evil, dots):
        f.write_text(MIRROR.read_text())
    out = tmp_path / "out"
    assert main(["analyze", str(evil), str(dots), "--out", str(out), "--workers", "1"]) == 0
    index = (out / "index.html").read_text()
    assert "onmouseover='alert" not in index and "' onmouseover=" not in index
    written = {p.resolve() for p in tmp_path.rglob("report.html")}
    assert written and all(out.resolve() in p.parents for p in written)


def test_autosave_failure_is_said_once_and_editing_goes_on(qtbot: Any, tmp_path: Path) -> None:
    from tankmap.editor.autosave import Autosave
    from tankmap.editor.document import Document

    folder = tmp_path / "auto"
    folder.write_text("a file where the autosave folder should be")
    auto = Autosave(folder, interval_ms=10)
    doc = Document(read_scenario(MIRROR))
    auto.attach(doc)
    said: list[str] = []
    auto.failed.connect(said.append)
    doc.undo_stack.resetClean()
    doc.undo_stack.setClean()
    from PySide6.QtGui import QUndoCommand

    doc.undo_stack.push(QUndoCommand("edit"))
    auto.save_now()
    auto.save_now()
    assert len(said) == 1


def test_progress_bar_estimates_the_time_left() -> None:
    from tankmap.commands.common import bar_text

    assert bar_text("ladder", 30, 120, 60.0).endswith("~3 min left")
    assert bar_text("x", 120, 120, 60.0).endswith("120/120")  # done: no estimate
    assert "left" not in bar_text("x", 0, 10, None)
