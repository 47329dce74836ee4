"""Bad input through the Python API found by fuzzing: a file name with a NUL character
(which the system calls refuse with a ``ValueError`` before looking for the file) is the
project's one-line error naming the file, for reading and for writing."""

from __future__ import annotations

from pathlib import Path

import pytest

import tankmap
from tankmap.rules.errors import ScenarioFormatError, TankmapError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.safeio import atomic_write_bytes, check_output, read_bounded
from tankmap.rules.tiled_read import read_tiled


@pytest.mark.parametrize(
    "read",
    [
        lambda: read_scenario("a\0b.json"),
        lambda: read_bounded("a\0b.json", 10),
        lambda: read_tiled("a\0b.tmj"),
    ],
)
def test_reading_a_name_with_nul_is_a_format_error(read: object) -> None:
    with pytest.raises(ScenarioFormatError, match=r"NUL character") as info:
        read()  # type: ignore[operator]
    assert "\0" not in str(info.value) and str(info.value).startswith("a\\x00b")


@pytest.mark.parametrize(
    "write",
    [
        lambda p: tankmap.save(tankmap.load("final-act/mirror"), p / "a\0b.json"),
        lambda p: atomic_write_bytes(str(p / "a\0b.png"), b"x"),
        lambda p: check_output(str(p / "a\0b.png")),
    ],
)
def test_writing_a_name_with_nul_is_refused_in_one_line(write: object, tmp_path: Path) -> None:
    with pytest.raises(TankmapError, match=r"cannot write: the name holds a NUL") as info:
        write(tmp_path)  # type: ignore[operator]
    assert "\0" not in str(info.value)
    assert list(tmp_path.iterdir()) == []
