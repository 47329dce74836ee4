"""`render` writes PDF; `tankmap sheets` writes the editor's per-side setup sheets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tankmap.cli import main


def _pages(pdf: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


def test_render_pdf(tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    assert main(["render", "tank-chess/basic-16", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF") and _pages(out) == 1


def test_sheets_one_page_per_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("PySide6")
    out = tmp_path / "setup.pdf"
    assert main(["sheets", "final-act/mirror", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF") and _pages(out) == 2
    assert "2 pages" in capsys.readouterr().out
    assert main(["sheets", "final-act/mirror", "-o", str(out)]) == 2  # no silent overwrite
    assert "already exists" in capsys.readouterr().err
    assert main(["sheets", "final-act/mirror", "-o", str(tmp_path / "x.png")]) == 2
    assert not list(tmp_path.glob(".*.tmp"))


def test_sheets_unwritable_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing or read-only folder: "OUT: cannot write: <why>", exit 2, as render says."""
    pytest.importorskip("PySide6")
    missing = tmp_path / "nonexistdir" / "x.pdf"
    assert main(["sheets", "final-act/mirror", "-o", str(missing)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"tankmap sheets: error: {missing}: cannot write: No such file or directory"
    import tempfile

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", denied)  # root can write a 0o555 folder
    assert main(["sheets", "final-act/mirror", "-o", str(tmp_path / "y.pdf")]) == 2
    assert capsys.readouterr().err.strip().endswith("y.pdf: cannot write: Permission denied")
