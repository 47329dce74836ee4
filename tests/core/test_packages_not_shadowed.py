"""The test folders tests/analysis and tests/editor must not shadow the real packages."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_analysis_and_editor_are_the_real_packages() -> None:
    import analysis
    import editor

    assert analysis.__file__ is not None and editor.__file__ is not None
    assert Path(analysis.__file__).parent == ROOT / "analysis"
    assert Path(editor.__file__).parent == ROOT / "editor"
