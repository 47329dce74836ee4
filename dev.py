#!/usr/bin/env python3
"""Set up tankmap in ./.venv and run it: the README's two commands go through here.

    python3.11 dev.py edit [FILE]   create/update .venv, then open the editor
                                    (default: a built-in Final Act map)
    python3.11 dev.py test [ARGS]   create/update .venv, then run the whole check suite:
                                    ruff, mypy --strict (the whole package), import-linter
                                    contracts (while the simulation kernels compile in
                                    the background), and pytest (ARGS go to pytest)

Only the Python standard library is used here, so it works on a machine that has nothing
but Python 3.11. The environment is re-installed only when pyproject.toml changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".tankmap-installed"
DEFAULT_MAP = "final-act/flanks-vs-centre"  # a built-in map name (tankmap maps lists them)


def ensure_env() -> None:
    """Create .venv and install tankmap with every extra (tests, editor, Dask, OpenSpiel),
    unless already up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036  (dev.py may be run by an older python)
        sys.exit(f"tankmap needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and PY.exists():
        return
    if not PY.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True, clear=False).create(VENV)
    print("installing tankmap and its dependencies into .venv ...", flush=True)
    run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    # --no-compile: Python compiles a module's bytecode when it is first imported (and keeps
    # it: see bytecode_env), instead of pip compiling every file of every package up front
    # (measured: 23 s against 63 s for this install)
    run(
        [
            str(PY),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-compile",
            "-e",
            f"{ROOT}[test,gui,dask,openspiel]",
        ]
    )
    STAMP.write_text(wanted)


def run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    code = subprocess.call(cmd, cwd=ROOT, env=env)
    if code:
        sys.exit(code)


def start_warm_up(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Compile the simulation kernels in the background (``scripts/warm_kernels.py``, in a
    session of its own) while the linters run on one core; pytest's own warm-up then
    finds them in numba's cache."""
    script = ROOT / "scripts" / "warm_kernels.py"
    return subprocess.Popen(
        [str(PY), str(script)], cwd=ROOT, env=env, start_new_session=os.name != "nt"
    )


def stop_warm_up(proc: subprocess.Popen[bytes]) -> None:
    """End the background warm-up and the processes it started, if still running."""
    if proc.poll() is not None:
        return
    if os.name == "nt":
        proc.kill()
    else:
        import signal

        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def bytecode_env() -> dict[str, str]:
    """This environment, but with Python keeping compiled bytecode (``__pycache__`` in
    .venv and the tree, ignored by git) even where the machine turns that off
    (``PYTHONDONTWRITEBYTECODE``): otherwise every process compiles every module it imports
    afresh — each pytest worker the 250 test modules, each command the packages, which pip
    no longer compiles up front."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def test(args: list[str]) -> None:
    env = bytecode_env()
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.setdefault("MPLBACKEND", "Agg")
    warm = start_warm_up(env)
    try:
        print("== ruff", flush=True)
        run([str(BIN / "ruff"), "check", "."], env)
        print("== mypy --strict tankmap", flush=True)
        run([str(BIN / "mypy")], env)  # files from pyproject: the whole tankmap package
        print("== import-linter", flush=True)
        run([str(BIN / "lint-imports")], env)
        print("== compiling the simulation kernels", flush=True)
        if warm.wait() == 0:
            env["TANKMAP_KERNELS_WARM"] = "1"  # pytest's own warm-up need not run again
    finally:
        stop_warm_up(warm)
    print("== pytest", flush=True)
    workers = ["-n", "2"] if (os.cpu_count() or 1) > 1 else []
    # pytest exit code 5 (no tests collected) is a failure, like any other non-zero code.
    run([str(PY), "-m", "pytest", *workers, *args], env)


def edit(args: list[str]) -> None:
    target = args or [DEFAULT_MAP]
    os.execve(str(BIN / "tankmap"), [str(BIN / "tankmap"), "edit", *target], bytecode_env())


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("edit", "test", "setup"):
        sys.exit(__doc__)
    command, rest = sys.argv[1], sys.argv[2:]
    ensure_env()
    if command == "test":
        test(rest)
    elif command == "edit":
        edit(rest)


if __name__ == "__main__":
    main()
