"""Feed many mutated scenario files to every loader and count what went wrong.

    python -m benchmarks.fuzz_inputs [N] [SEED]

Each case takes a built-in map and applies one to three seeded mutations (drop, retype,
enlarge or duplicate a key; huge or negative numbers; control characters, lone surrogates
and megabyte strings; truncated or byte-flipped text), then reads it with the scenario
reader and runs ``tankmap check`` on it in-process. Counted as failures: any exception that
is not the project's ``TankmapError`` (a traceback for a user), a ``check`` exit code other
than 0/1/2, an error message of more than one line or 600 characters, and a case taking
more than 5 s (a hang). Prints a JSON summary; the target is 0 failures.
"""

from __future__ import annotations

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

from tankmap.cli import main as cli
from tankmap.maps import builtin_maps
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import loads_scenario

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


def run(n: int = 10_000, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    sources = [p.read_text() for p in builtin_maps()]
    counts = {
        "cases": 0,
        "read": 0,
        "refused": 0,
        "tracebacks": 0,
        "bad_exit": 0,
        "long_messages": 0,
        "hangs": 0,
    }
    examples: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.json"
        for _ in range(n):
            text = case_text(rng, sources)
            counts["cases"] += 1
            start = time.monotonic()
            try:
                loads_scenario(text, "case.json")
                counts["read"] += 1
            except TankmapError as exc:
                counts["refused"] += 1
                msg = str(exc)
                if "\n" in msg or len(msg) > 600:
                    counts["long_messages"] += 1
                    examples.append(msg[:200])
            except Exception as exc:  # noqa: BLE001 - what we are counting
                counts["tracebacks"] += 1
                examples.append(f"{type(exc).__name__}: {exc}"[:200])
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            err = io.StringIO()
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                    code = cli(["check", str(path)])
            except Exception as exc:  # noqa: BLE001
                counts["tracebacks"] += 1
                examples.append(f"check: {type(exc).__name__}: {exc}"[:200])
                code = 2
            if code not in (0, 1, 2):
                counts["bad_exit"] += 1
            if code == 2 and len(err.getvalue().strip().splitlines()) != 1:
                counts["long_messages"] += 1
                examples.append(err.getvalue()[:200])
            if time.monotonic() - start > 5:
                counts["hangs"] += 1
    counts["failures"] = sum(
        counts[k] for k in ("tracebacks", "bad_exit", "long_messages", "hangs")
    )
    return {**counts, "examples": examples[:10]}


if __name__ == "__main__":
    args = sys.argv[1:]
    out = run(int(args[0]) if args else 10_000, int(args[1]) if len(args) > 1 else 1)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
