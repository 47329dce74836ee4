"""``tankmap edit`` explains a missing display or missing X libraries in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tankmap import qtcheck


def test_no_display_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(qtcheck.sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    problem = qtcheck.display_problem()
    assert problem is not None and "DISPLAY" in problem and "Xvfb" in problem


def test_offscreen_platform_needs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(qtcheck.sys, "platform", "linux")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.delenv("DISPLAY", raising=False)
    assert qtcheck.display_problem() is None


def test_missing_libraries_name_their_packages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(qtcheck.sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(qtcheck, "xcb_plugin", lambda: tmp_path / "libqxcb.so")
    monkeypatch.setattr(
        qtcheck,
        "missing_libraries",
        lambda plugin: ["libxcb-cursor.so.0", "libxcb-icccm.so.4"],
    )
    problem = qtcheck.display_problem()
    assert problem is not None
    assert "libxcb-cursor.so.0, libxcb-icccm.so.4" in problem
    assert "apt-get install libxcb-cursor0 libxcb-icccm4" in problem


def test_ldd_not_found_lines_are_parsed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    output = (
        "\tlibQt6Gui.so.6 => /x/libQt6Gui.so.6 (0x1)\n"
        "\tlibxcb-cursor.so.0 => not found\n"
        "\tlibc.so.6 => /lib/libc.so.6 (0x2)\n"
    )

    class Done:
        stdout = output

    monkeypatch.setattr(qtcheck.shutil, "which", lambda name: "/usr/bin/ldd")
    monkeypatch.setattr(qtcheck.subprocess, "run", lambda *a, **k: Done())
    assert qtcheck.missing_libraries(plugin) == ["libxcb-cursor.so.0"]
