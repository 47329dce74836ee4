"""Run every benchmark module (or those named on the command line) and print JSON."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import platform
import sys
import time

import benchmarks


def main(argv: list[str] | None = None) -> int:
    names = sorted(
        m.name[len("bench_") :]
        for m in pkgutil.iter_modules(benchmarks.__path__)
        if m.name.startswith("bench_")
    )
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "only", nargs="*", metavar="NAME", help=f"run only these of: {', '.join(names)}"
    )
    args = parser.parse_args(argv)
    chosen = args.only or names
    unknown = [n for n in chosen if n not in names]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    results: dict[str, object] = {
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
    }
    for name in chosen:
        start = time.perf_counter()
        module = importlib.import_module(f"benchmarks.bench_{name}")
        figures = module.run()
        figures["_seconds"] = round(time.perf_counter() - start, 2)
        results[name] = figures
        print(f"benchmark {name} done in {figures['_seconds']} s", file=sys.stderr)
    json.dump(results, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
