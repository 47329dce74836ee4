"""Feed many mutated Tiled maps (``.tmx`` and ``.tmj``) to the Tiled reader and to
``tankmap import`` and count what went wrong.

    python -m benchmarks.fuzz_tiled [N] [SEED]      (or python benchmarks/fuzz_tiled.py)

The cases come from ``benchmarks/tiled_cases.py``: the built-in maps as ``tankmap export``
writes them (and with their layers re-encoded as Tiled can), each mutated structurally
(types swapped, ids and sizes missing, non-numeric, huge, negative, inf/nan, deep nesting,
control characters, bad base64, wrong compression) or as text (unknown encodings in the XML
declaration, truncated or garbled XML, entity expansion, external entities). Every 100th
case is a decompression bomb instead: a layer whose base64 zlib or gzip data inflates to
64 MB to 1 GB of zeros (the compressed data, about 1 MB per GB, is made once).

Each case is read twice: by ``loads_tmx``/``loads_tmj`` and by ``tankmap import`` run
in-process on the case written to a file. Counted as failures: any exception that is not the
project's ``TankmapError`` (a traceback for a user; also ``MemoryError`` once the address
space cap below is reached), an exit code other than 0/2, an error message of more than one
line or 600 characters or with raw control characters, an output file left behind by a
refused import, a case taking more than 5 s of CPU time or 60 s of the clock (a hang) and a
case that raised the process's peak resident memory by more than 200 MB (a blow-up; the
peak is reset before each case). The process's address space is capped at 1.5 GB above what
it holds at the start (``RLIMIT_AS``), so a bomb that got through fails as a
``MemoryError`` instead of taking the machine. Prints a JSON summary; the target is 0
failures.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.tiled_cases import BOMB_SIZES, Bombs, sources, tmj_case, tmx_case  # noqa: E402
from tankmap.cli import main as cli  # noqa: E402
from tankmap.rules.errors import TankmapError  # noqa: E402
from tankmap.rules.tiled_read import loads_tmj, loads_tmx  # noqa: E402

CASE_SECONDS = 5.0  # CPU seconds: the machine may be shared, a hang burns CPU
WALL_SECONDS = 60.0  # ... or waits: then this many seconds of the clock
MEMORY_GROWTH_MB = 200
ADDRESS_SPACE_HEADROOM = 1536 << 20
BOMB_EVERY = 100


# --- the run ----------------------------------------------------------------------------


def _clean(message: str) -> bool:
    """One line of at most 600 characters, nothing a terminal would act on."""
    line = message.removesuffix("\n")
    return "\n" not in line and len(line) <= 600 and line.isprintable()


def _status_mb(field: str) -> float:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) / 1024 for line in fh if line.startswith(field))


def _reset_peak() -> bool:
    """Reset this process's peak resident memory (Linux: ``clear_refs`` 5); whether it
    could be (else the peak of the whole run is what ``VmHWM`` shows)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        return False
    return True


def cap_address_space(headroom: int = ADDRESS_SPACE_HEADROOM) -> int:
    """Cap this process's address space at what it holds now plus ``headroom`` bytes;
    returns the cap (or 0 where it cannot be set)."""
    with open("/proc/self/status") as fh:
        held = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize"))
    cap = held + headroom
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        return 0
    return cap


def run(n: int = 20_000, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    tmj_docs, tmx_texts = sources()
    bombs = Bombs(tmj_docs[0], tmx_texts[0])
    for how in ("zlib", "gzip"):  # made before the cap, and outside the timed cases
        for size in BOMB_SIZES:
            bombs.stream(size, how)
    counts = {
        "cases": 0,
        "tmx": 0,
        "tmj": 0,
        "bombs": 0,
        "read": 0,
        "refused": 0,
        "imported": 0,
        "import_refused": 0,
        "tracebacks": 0,
        "bad_exit": 0,
        "unclean_messages": 0,
        "left_output": 0,
        "hangs": 0,
        "memory": 0,
    }
    examples: list[str] = []
    slowest = (0.0, 0.0, "")
    cap = cap_address_space()
    base_peak = _status_mb("VmHWM")
    most_growth = 0.0

    def count(kind: str, example: str) -> None:
        counts[kind] += 1
        if len(examples) < 12:
            examples.append(f"{kind}: {example}"[:300])

    def read(fmt: str, data: bytes) -> None:
        loader: Callable[[bytes, str], Any] = loads_tmx if fmt == "tmx" else loads_tmj
        try:
            loader(data, f"case.{fmt}")
            counts["read"] += 1
        except TankmapError as exc:
            counts["refused"] += 1
            if not _clean(str(exc)):
                count("unclean_messages", repr(str(exc)))
        except Exception as exc:  # noqa: BLE001 - what we are counting
            count("tracebacks", f"{fmt} reader: {type(exc).__name__}: {exc!r}")

    def import_cli(fmt: str, path: Path, out: Path) -> None:
        out.unlink(missing_ok=True)
        err = io.StringIO()
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                code = cli(["import", str(path), "-o", str(out), "--force"])
        except BaseException as exc:  # noqa: BLE001 - what we are counting
            count("tracebacks", f"{fmt} import: {type(exc).__name__}: {exc!r}")
            return
        if code == 0:
            counts["imported"] += 1
        elif code == 2:
            counts["import_refused"] += 1
            if not _clean(err.getvalue()):
                count("unclean_messages", repr(err.getvalue()))
            if out.exists():
                count("left_output", str(path))
        else:
            count("bad_exit", f"{fmt} import: exit {code}: {err.getvalue()!r}")

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        for i in range(n):
            if i % BOMB_EVERY == BOMB_EVERY - 1:
                fmt, data = bombs.case(rng)
                counts["bombs"] += 1
            elif rng.random() < 0.5:
                fmt, data = "tmx", tmx_case(rng, tmx_texts)
            else:
                fmt, data = "tmj", tmj_case(rng, tmj_docs)
            counts["cases"] += 1
            counts[fmt] += 1
            path = Path(tmp) / f"case.{fmt}"
            path.write_bytes(data)
            _reset_peak()
            before = _status_mb("VmRSS")
            start, cpu_start = time.monotonic(), time.process_time()
            read(fmt, data)
            import_cli(fmt, path, out)
            took, cpu = time.monotonic() - start, time.process_time() - cpu_start
            if cpu > slowest[0]:
                slowest = (cpu, took, f"case {i} ({fmt})")
            if cpu > CASE_SECONDS or took > WALL_SECONDS:
                count("hangs", f"case {i} ({fmt}) took {cpu:.1f} s CPU, {took:.1f} s")
            growth = _status_mb("VmHWM") - before
            most_growth = max(most_growth, growth)
            if growth > MEMORY_GROWTH_MB:
                count("memory", f"case {i} ({fmt}) took {growth:.0f} MB more memory")
    counts["failures"] = sum(
        counts[k]
        for k in (
            "tracebacks",
            "bad_exit",
            "unclean_messages",
            "left_output",
            "hangs",
            "memory",
        )
    )
    return {
        **counts,
        "slowest_case": {
            "cpu_s": round(slowest[0], 3),
            "wall_s": round(slowest[1], 3),
            "case": slowest[2],
        },
        "most_memory_growth_in_a_case_mb": round(most_growth, 1),
        "peak_rss_at_start_mb": round(base_peak, 1),
        "peak_rss_reset_per_case": _reset_peak(),
        "address_space_cap_mb": cap >> 20,
        "examples": examples,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="fuzz_tiled",
        description="Feed N mutated Tiled maps (TMX and TMJ) and decompression bombs to the "
        "Tiled reader and to 'tankmap import' and count tracebacks, wrong exit codes, "
        "unclean messages, left outputs, hangs and memory blow-ups (JSON on standard output; "
        "exit 1 if any).",
    )
    parser.add_argument("n", nargs="?", type=int, default=20_000, help="cases (20000)")
    parser.add_argument("seed", nargs="?", type=int, default=1, help="seed (1)")
    args = parser.parse_args(argv)
    out = run(args.n, args.seed)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
