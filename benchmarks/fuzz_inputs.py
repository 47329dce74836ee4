"""Feed many mutated scenario files and game records to every loader and count what went
wrong.

    python benchmarks/fuzz_inputs.py [N] [SEED]      (or python -m benchmarks.fuzz_inputs)

Each case takes a built-in map and applies one to three seeded mutations (drop, retype,
enlarge or duplicate a key; huge or negative numbers; control characters, lone surrogates
and megabyte strings; truncated or byte-flipped text), then reads it with the scenario
reader and the Tiled reader and runs ``tankmap check`` on it in-process; every fourth case
also replays a mutated game record (one per game, recorded on a built-in map) with
``tankmap replay``. Counted as failures: any exception that is not the project's
``TankmapError`` (a traceback for a user), an exit code other than 0/1/2 (``check``) or
0/2 (``replay``), an error message of more than one line or 600 characters or with raw
control characters on the terminal, and a case taking more than 5 s (a hang). Prints a
JSON summary; the target is 0 failures.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tankmap.cli import main as cli  # noqa: E402
from tankmap.maps import builtin_maps  # noqa: E402
from tankmap.rules.errors import TankmapError  # noqa: E402
from tankmap.rules.fileformat import loads_scenario  # noqa: E402
from tankmap.rules.tiled_read import loads_tmj  # noqa: E402

RECORDED = ("final-act/mirror", "tank-chess/basic-16", "tank-wars/default")

VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    1.5,
    10**40,
    -(10**40),
    "",
    "x" * 100_000,
    "\ud800",
    "a1\n",
    "\x1b[31mred",
    [],
    {},
    [1, 2],
    {"k": 1},
    float("1e308"),
    "ZZ99",
    2**63,
]


def mutate(doc: Any, rng: random.Random) -> Any:
    """One seeded mutation somewhere in ``doc`` (returns the new document)."""
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k in list(node):
                paths.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                paths.append((node, i))
                walk(node[i])

    walk(doc)
    if not paths:
        return copy.deepcopy(rng.choice(VALUES))
    parent, key = rng.choice(paths)
    action = rng.randrange(4)
    if action == 0 and isinstance(parent, dict):
        del parent[key]
    elif action == 1 and isinstance(parent, dict):
        parent[key + "_x" if isinstance(key, str) else key] = copy.deepcopy(rng.choice(VALUES))
    else:
        parent[key] = copy.deepcopy(rng.choice(VALUES))
    return doc


def case_text(rng: random.Random, sources: list[str]) -> str:
    doc = json.loads(rng.choice(sources))
    for _ in range(rng.randint(1, 3)):
        doc = mutate(doc, rng)
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    r = rng.random()
    if r < 0.05:
        text = text[: rng.randrange(len(text) + 1)]
    elif r < 0.10:
        i = rng.randrange(len(text))
        text = text[:i] + chr(rng.randrange(1, 0x2FF)) + text[i + 1 :]
    elif r < 0.13:
        text = text.replace('"title":', '"title": "a", "title":', 1)
    elif r < 0.16:
        text = text.replace('"columns": 12', '"columns": ' + "9" * 5000, 1)
    return text


def record_texts() -> list[str]:
    """One seeded random game record of each game, as JSON text."""
    from tankmap.analysis.simulation.runner import record_game
    from tankmap.maps import map_path
    from tankmap.rules.fileformat import read_scenario

    texts = []
    for name in RECORDED:
        path = map_path(name)
        assert path is not None
        _result, rec = record_game(read_scenario(path), ("random", "random"), seed=3, game=0)
        texts.append(json.dumps(rec.to_json()))
    return texts


def _clean_line(err: str) -> bool:
    """One line on standard error, nothing a terminal would act on."""
    line = err.removesuffix("\n")
    return "\n" not in line and line.isprintable()


def run(n: int = 10_000, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    sources = [p.read_text() for p in builtin_maps()]
    records = record_texts()
    counts = {
        "cases": 0,
        "read": 0,
        "refused": 0,
        "records": 0,
        "tracebacks": 0,
        "bad_exit": 0,
        "long_messages": 0,
        "hangs": 0,
    }
    examples: list[str] = []

    def in_process(argv: list[str], ok: tuple[int, ...]) -> None:
        err = io.StringIO()
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                code = cli(argv)
        except BaseException as exc:  # noqa: BLE001 - what we are counting
            counts["tracebacks"] += 1
            examples.append(f"{argv[0]}: {type(exc).__name__}: {exc}"[:200])
            return
        if code not in ok:
            counts["bad_exit"] += 1
            examples.append(f"{argv[0]}: exit {code}")
        if code == 2 and not _clean_line(err.getvalue()):
            counts["long_messages"] += 1
            examples.append(err.getvalue()[:200])

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.json"
        for i in range(n):
            text = case_text(rng, sources)
            counts["cases"] += 1
            start = time.monotonic()
            for loader in (loads_scenario, loads_tmj):
                try:
                    loader(text, "case.json")
                    counts["read"] += loader is loads_scenario
                except TankmapError as exc:
                    counts["refused"] += loader is loads_scenario
                    msg = str(exc)
                    if "\n" in msg or len(msg) > 600:
                        counts["long_messages"] += 1
                        examples.append(msg[:200])
                except Exception as exc:  # noqa: BLE001 - what we are counting
                    counts["tracebacks"] += 1
                    examples.append(f"{type(exc).__name__}: {exc}"[:200])
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            in_process(["check", str(path)], (0, 1, 2))
            if i % 4 == 0:
                counts["records"] += 1
                path.write_text(case_text(rng, records), encoding="utf-8", errors="surrogatepass")
                in_process(["replay", str(path)], (0, 2))
            if time.monotonic() - start > 5:
                counts["hangs"] += 1
    counts["failures"] = sum(
        counts[k] for k in ("tracebacks", "bad_exit", "long_messages", "hangs")
    )
    return {**counts, "examples": examples[:10]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="fuzz_inputs",
        description="Feed N mutated built-in maps and game records to every loader and "
        "count tracebacks, wrong exit codes, long or unclean messages and hangs (JSON on "
        "standard output; exit 1 if any).",
    )
    parser.add_argument("n", nargs="?", type=int, default=10_000, help="cases (10000)")
    parser.add_argument("seed", nargs="?", type=int, default=1, help="seed (1)")
    args = parser.parse_args(argv)
    out = run(args.n, args.seed)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
