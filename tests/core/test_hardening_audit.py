"""Hardening regressions found by the audit of issue 14 (each failed before its fix): Ctrl-C
with a local Dask cluster (and, checked too, with local worker processes), the output gate,
one-line messages without terminal codes, writer failures, leftover temp files and the
reading helpers outside the scenario reader."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.mark.parametrize(
    "where",
    [
        ["--scheduler", "local", "--workers", "2"],
        ["--workers", "2"],  # this process and a forked worker process, both playing
    ],
    ids=["dask", "local-processes"],
)
def test_ctrl_c_with_workers_is_one_line(where: list[str]) -> None:
    if "--scheduler" in where:
        pytest.importorskip("distributed")
    # Ctrl-C in a terminal sends SIGINT to the whole process group, workers included. The
    # child presses it itself as soon as the first batch of games is in (no timing).
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        if __name__ == "__main__":
            import tankmap.commands.common as common

            def terminal_bar(label):
                def tick(done, total):
                    os.killpg(os.getpgrp(), signal.SIGINT)
                return tick, lambda: None

            common.terminal_bar = terminal_bar
            from tankmap.cli import main
            sys.exit(main(["simulate", "final-act/mirror", "--games", "400", *{where!r}]))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=_child_env(),
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # before: 3-7 worker tracebacks (KeyboardInterrupt in each worker, lost-data errors)
    assert out.stderr.strip().splitlines() == ["tankmap simulate: interrupted"], out.stderr[-2000:]
    assert out.returncode == 130


MIRROR_TEXT = (ROOT / "maps" / "final-act" / "mirror.json").read_text("utf-8")
CONTROL = ("\x1b", "\n", "\r", "\x07", "\u2028")


def _mirror_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(MIRROR_TEXT)
    return doc


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.__setitem__("\x1b[31mred\nnext", 1),  # an unknown key with codes
        lambda d: d.__setitem__("k" * 1_000_000, 1),  # a megabyte key
        lambda d: d["options"].__setitem__("\x1b]0;title\x07opt\u2028", 1),
        lambda d: d["units"][0].__setitem__("kind", "\x1b[2Jtank\r\n" * 1000),
    ],
)
def test_errors_quoting_the_file_are_one_short_clean_line(
    mutate: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    doc = _mirror_doc()
    mutate(doc)
    f = tmp_path / "bad\x1b[31m\n.json"  # the file name too
    f.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    line = err.removesuffix("\n")
    assert not any(c in line for c in CONTROL), line[:300]  # before: raw codes and newlines
    assert len(line) <= 1100, len(line)  # before: a megabyte


def test_check_text_output_shows_names_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    doc = _mirror_doc()
    doc["units"][0]["name"] = "\x1b[31m" + "N" * 100_000 + "\n"
    f = tmp_path / "name\x1b.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any("bad-name" in line for line in lines)
    for line in lines:
        assert not any(c in line for c in CONTROL) and len(line) < 400, line[:200]


# -- the output gate -----------------------------------------------------------------------


def _run_cli(args: list[str], cwd: Path, file_limit: int | None = None) -> Any:
    """``tankmap ARGS`` in a child; ``file_limit`` caps the bytes it may write to any one
    file (RLIMIT_FSIZE: a write past it fails as on a full disk)."""
    import resource

    def limit() -> None:
        if file_limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run(
        [sys.executable, "-m", "tankmap", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**_child_env(), "MPLBACKEND": "Agg"},
        preexec_fn=limit,
    )


def test_render_does_not_write_through_a_symbolic_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    secret = tmp_path / "secret.txt"
    secret.write_text("keep me")
    link = tmp_path / "board.png"
    link.symlink_to(secret)
    assert main(["render", "final-act/mirror", "-o", str(link)]) == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err and len(err.strip().splitlines()) == 1
    assert secret.read_text() == "keep me" and link.is_symlink()  # before: overwritten
    # asked with --force: written through the link, the link kept
    assert main(["render", "final-act/mirror", "-o", str(link), "--force", "--dpi", "20"]) == 0
    assert link.is_symlink() and secret.read_bytes().startswith(b"\x89PNG")


def test_render_replaces_an_earlier_picture_but_not_another_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    notes = tmp_path / "notes.pdf"
    notes.write_text("my notes, not a PDF")
    assert main(["render", "final-act/mirror", "-o", str(notes)]) == 2
    assert "not a PDF" in capsys.readouterr().err
    assert notes.read_text() == "my notes, not a PDF"  # before: replaced without a word
    pic = tmp_path / "board.svg"
    assert main(["render", "final-act/mirror", "-o", str(pic)]) == 0
    assert main(["render", "final-act/mirror", "-o", str(pic)]) == 0
    assert "replaced" in capsys.readouterr().out


def test_a_failed_render_leaves_the_old_picture(tmp_path: Path) -> None:
    old = _run_cli(["render", "final-act/mirror", "-o", "board.png", "--dpi", "10"], tmp_path)
    assert old.returncode == 0, old.stderr
    before = (tmp_path / "board.png").read_bytes()
    # the new picture is far bigger than the room left: the write fails part-way
    out = _run_cli(
        ["render", "final-act/mirror", "-o", "board.png", "--dpi", "300"],
        tmp_path,
        file_limit=len(before) + 1000,
    )
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert (tmp_path / "board.png").read_bytes() == before  # before: a truncated PNG
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png"]  # no temp file left


def test_simulate_prints_its_results_when_the_report_cannot_be_written(tmp_path: Path) -> None:
    out = _run_cli(
        ["simulate", "tank-wars/default", "--games", "40", "--policy", "random", "--workers", "1"]
        + ["--out", "rep"],
        tmp_path,
        file_limit=1500,  # games.csv of 40 games is larger
    )
    # before: a traceback after the whole simulation and the results lost
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "the games were played but" in out.stderr
    assert "balance" in out.stdout  # the results are still there


def test_analyze_reports_do_not_write_through_links(tmp_path: Path) -> None:
    from tankmap.cli import main

    secret = tmp_path / "secret.txt"
    secret.write_text("keep me")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.html").symlink_to(secret)
    assert main(["analyze", "final-act/mirror", "--out", str(out), "--workers", "1"]) == 2
    assert secret.read_text() == "keep me"  # before: the report went into secret.txt


def test_killed_saves_leave_no_temp_files_behind(tmp_path: Path) -> None:
    from tankmap.rules.fileformat import read_scenario, write_scenario

    target = tmp_path / "board.json"
    dead = tmp_path / ".board.json.999999999.k1ll3d00.tmp"  # no such process
    old = tmp_path / ".board.json.abcd1234.tmp"  # an older tankmap's, a day old
    mine = tmp_path / f".board.json.{os.getpid()}.inflight.tmp"  # a live writer's
    other = tmp_path / ".notes.txt.999999999.k1ll3d00.tmp"  # another file's
    for f in (dead, old, mine, other):
        f.write_text("half a file")
    os.utime(old, (1e9, 1e9))
    write_scenario(read_scenario(ROOT / "maps" / "final-act" / "mirror.json"), target)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(["board.json", mine.name, other.name]), left  # before: all kept


def test_writing_a_lone_surrogate_is_one_error_and_no_temp_file(tmp_path: Path) -> None:
    from dataclasses import replace

    from tankmap.rules.errors import TankmapError
    from tankmap.rules.fileformat import read_scenario, write_scenario

    s = replace(read_scenario(ROOT / "maps" / "final-act" / "mirror.json"), title="\ud800")
    with pytest.raises(TankmapError, match="surrogate"):  # before: UnicodeEncodeError
        write_scenario(s, tmp_path / "x.json")
    assert list(tmp_path.iterdir()) == []


def test_the_editor_removes_temp_files_of_killed_autosaves(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    from tankmap.editor.autosave import Autosave

    folder = tmp_path / "autosave"
    folder.mkdir()
    crashed = folder / ".untitled-999999999-1.autosave.json.999999999.k1ll3d00.tmp"
    crashed.write_text("half a copy")
    keep = folder / "untitled-999999999-1.autosave.json"  # a whole copy: for recovery
    keep.write_text("{}")
    Autosave(folder)
    assert sorted(p.name for p in folder.iterdir()) == [keep.name]  # before: both kept


@pytest.mark.parametrize("game", [0, 1, 2])
def test_a_megabyte_order_in_a_game_record_is_quoted_short(game: int) -> None:
    from benchmarks.fuzz_inputs import record_texts
    from tankmap.analysis.replay import replay_record
    from tankmap.rules.errors import TankmapError

    doc = json.loads(record_texts()[game])
    key = next(k for k in ("rounds", "turns") if k in doc)

    def first_string(node: Any) -> tuple[Any, Any]:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in items:
            if isinstance(v, str):
                return node, k
            if isinstance(v, (dict, list)) and v:
                found = first_string(v)
                if found[0] is not None:
                    return found
        return None, None

    parent, k = first_string(doc[key])
    parent[k] = "x" * 1_000_000
    with pytest.raises(TankmapError) as err:
        replay_record(doc, "record.json")
    assert len(str(err.value)) < 600  # before: the megabyte order quoted whole


def test_an_option_out_of_range_on_the_command_line_says_the_range(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tankmap.cli import main

    assert main(["check", "final-act/mirror", "--option", "max_rounds=0"]) == 2
    err = capsys.readouterr().err
    assert "between 1 and 100000" in err  # before: "takes a whole-number value, not '0'"
