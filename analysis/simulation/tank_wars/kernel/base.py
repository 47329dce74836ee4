"""The Tank Wars kernel's ground: numba decorators, the switch, and the arrays it reads.

``tables_of(state, banned)`` turns a ``rules.tank_wars.state.TankWarsState``'s scenario into
``Tables`` (read-only per-board, per-rule and per-vehicle arrays); ``position_of(state)``
turns the state into one ``int64`` array (``Layout``) that the kernel changes in place and
copies in one slice. Every rule option of docs/rules.md §3 is modelled: the numbers come from
the state's ``TankWarsRules``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.kernel_cache import guard_cache
from tankmap.analysis.simulation.no_refcount import COUNTED, LEAF
from tankmap.analysis.simulation.unliteral import unliteral as unliteral
from tankmap.analysis.simulation.unliteral import unliteral_flag as unliteral_flag
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.data import CommandKind
from tankmap.rules.tank_wars.ruleset import board_cells
from tankmap.rules.tank_wars.state import (
    ALL_COMMANDS,
    FIELDS,
    Command,
    TankWarsState,
    Vehicle,
    command_options,
    executes,
)

_numba: Any
try:
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None

F = TypeVar("F", bound=Callable[..., Any])

_HERE = Path(__file__).resolve().parent
KERNEL_SOURCES = (
    *sorted(_HERE.glob("*.py")),
    _HERE.parents[1] / "unliteral.py",
    _HERE.parents[1] / "no_refcount.py",
)
"""The files whose text the compiled Tank Wars kernel depends on (``guard_cache``): every
module of this package, the inlined ``unliteral`` helpers and the compile options of
``no_refcount`` (the tables come in as arrays, not as compiled-in constants)."""

if _numba is not None:  # numba checks only each function's own file (see guard_cache)
    guard_cache(_HERE / "__pycache__", KERNEL_SOURCES, "tw_kernel")


def jit(fn: F) -> F:
    """A compiled kernel function that counts its arrays' references: one that may
    allocate an array or hand one back (``no_refcount``)."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True, error_model="numpy", **COUNTED)(fn))


def leaf(fn: F) -> F:
    """A compiled kernel function without reference counting (the rules, the playouts
    and the search's inner steps): ``no_refcount`` says why and what a leaf keeps to."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True, error_model="numpy", **LEAF)(fn))


def inline(fn: F) -> F:
    """A small helper compiled into its callers (a call would copy the ``Tables``)."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(fn))


def available() -> bool:
    """Whether Tank Wars searches may run on the kernel: numba importable and
    ``TANKMAP_KERNEL`` is not ``python`` (then the plain-Python reference plays)."""
    return _numba is not None and os.environ.get("TANKMAP_KERNEL", "") != "python"


I64 = npt.NDArray[np.int64]

CELLS = 2 * FIELDS
"""Fields of the 6 × 12 grid (south's board: 0..35, north's: 36..71)."""
COMMANDS = len(ALL_COMMANDS)
KINDS = tuple(CommandKind)
NONE = -1
"""The command index of "no token" (the vehicle stays)."""

# rule numbers in Tables.rules
R_TOKENS, R_LONG_RANGE, R_DROPS, R_SUPPORT, R_STATIONARY = 0, 1, 2, 3, 4
R_MAX_ROUNDS, R_USED_UP, R_STAY, R_PER_KIND = 5, 6, 7, 8


class Tables(NamedTuple):
    """Read-only arrays of one scenario (``V`` vehicles in card order = scenario order).

    ``vside``/``vkind``: each vehicle's side (0 south) and kind index; ``k_armour``,
    ``k_shells``, ``k_gunfire``: per kind its starting AP, shells and gunfire symbols;
    ``k_pattern[kind, token kind]``: 1 if the kind executes that token; ``cmd_kind``,
    ``cmd_dx``, ``cmd_dy``, ``cmd_dist``: per command index (``ALL_COMMANDS`` order);
    ``opt[v, cell, low]`` (``low`` = 1 AP left): vehicle ``v``'s ``command_options`` there
    as command indices (``NONE`` = no token), ``opt_end`` the field each ends on (the
    start when the token is not executed), ``opt_len`` how many, ``opt_ends`` how many
    distinct end fields; ``banned[v]``: 1 for a vehicle that only ever gets its first
    not-executed option (no token, or an ``idle_commands`` token); ``rules``: see the
    ``R_*`` indices."""

    vside: I64
    vkind: I64
    banned: I64
    k_armour: I64
    k_shells: I64
    k_gunfire: I64
    k_pattern: I64
    cmd_kind: I64
    cmd_dx: I64
    cmd_dy: I64
    cmd_dist: I64
    opt: I64
    opt_end: I64
    opt_len: I64
    opt_ends: I64
    rules: I64


class Layout(NamedTuple):
    """Where each part of a position array starts (``V`` vehicles): ``cell``, ``armour``
    (0 = destroyed), ``spent`` (shells fired, for ``shells_used_up``), ``crater`` and
    ``support`` (0/1 per field), ``lost`` (gunfire symbols lost per side), ``round`` and
    ``in_round``; ``size`` is the array's length."""

    cell: int
    armour: int
    spent: int
    crater: int
    support: int
    lost: int
    round: int
    in_round: int
    size: int


def layout(v: int) -> Layout:
    return Layout(0, v, 2 * v, 3 * v, 3 * v + CELLS, 3 * v + 2 * CELLS, 3 * v + 2 * CELLS + 2,
                  3 * v + 2 * CELLS + 3, 3 * v + 2 * CELLS + 4)  # fmt: skip


def command_index(cmd: Command | None) -> int:
    return NONE if cmd is None else ALL_COMMANDS.index(cmd)


_TABLES: dict[tuple[Any, ...], Tables] = {}


def tables_of(
    state: TankWarsState,
    kinds: tuple[str, ...],
    sides: tuple[Side, ...],
    banned: frozenset[str] = frozenset(),
    me: Side = Side.SOUTH,
) -> Tables:
    """The kernel's tables for a game whose vehicles (by ident) have ``kinds`` and
    ``sides``, under ``state``'s rules, with ``me``'s vehicles of ``banned`` kinds idle
    (cached by value: a game's every decision, and every game of a scenario, share them).

    Raises ``ValueError`` for a board that is not 6 × 12."""
    rules, board = state.rules, state.board
    n = len(kinds)
    key = (rules, board, kinds, sides, banned, me)
    found = _TABLES.get(key)
    if found is not None:
        return found
    if board.size != CELLS:
        raise ValueError(f"Tank Wars needs a 6 x 12 board, not {board.columns} x {board.rows}")
    names = [k.kind for k in rules.kinds]
    a = np.asarray
    i64 = np.int64
    most = 1
    opts: dict[tuple[int, int, int], list[Command | None]] = {}
    ends: dict[tuple[int, int, int], list[int]] = {}
    for i, kind in enumerate(kinds):
        for c in board_cells(board, sides[i]):
            for low in (0, 1):
                probe = Vehicle(i, kind, sides[i], c, 1 if low else rules.kind(kind).armour)
                got = command_options(state, probe)
                opts[i, c, low] = got
                ends[i, c, low] = [
                    c if cmd is None or not executes(state, probe, cmd) else _end(board, c, cmd)
                    for cmd in got
                ]
                most = max(most, len(got))
    opt = np.full((n, CELLS, 2, most), NONE, dtype=i64)
    opt_end = np.full((n, CELLS, 2, most), -1, dtype=i64)
    opt_len = np.zeros((n, CELLS, 2), dtype=i64)
    opt_ends = np.zeros((n, CELLS, 2), dtype=i64)
    for (i, c, low), got in opts.items():
        opt[i, c, low, : len(got)] = [command_index(cmd) for cmd in got]
        opt_end[i, c, low, : len(got)] = ends[i, c, low]
        opt_len[i, c, low] = len(got)
        opt_ends[i, c, low] = len(set(ends[i, c, low]))
    tables = Tables(
        vside=a([s.index for s in sides], dtype=i64),
        vkind=a([names.index(k) for k in kinds], dtype=i64).reshape(n),
        banned=a(
            [k in banned and s is me for k, s in zip(kinds, sides, strict=True)], dtype=i64
        ).reshape(n),
        k_armour=a([k.armour for k in rules.kinds], dtype=i64),
        k_shells=a([k.shells for k in rules.kinds], dtype=i64),
        k_gunfire=a([k.gunfire for k in rules.kinds], dtype=i64),
        k_pattern=a([[t in k.moves for t in KINDS] for k in rules.kinds], dtype=i64),
        cmd_kind=a([KINDS.index(c.kind) for c in ALL_COMMANDS], dtype=i64),
        cmd_dx=a([c.step[0] // c.kind.distance for c in ALL_COMMANDS], dtype=i64),
        cmd_dy=a([c.step[1] // c.kind.distance for c in ALL_COMMANDS], dtype=i64),
        cmd_dist=a([c.kind.distance for c in ALL_COMMANDS], dtype=i64),
        opt=opt,
        opt_end=opt_end,
        opt_len=opt_len,
        opt_ends=opt_ends,
        rules=a(
            [
                rules.gunfire_tokens,
                rules.long_range_shots,
                rules.supply_drops,
                rules.support_armour,
                rules.gunfire_hits_stationary,
                rules.max_rounds,
                rules.shells_used_up,
                rules.stay_without_token,
                rules.tokens_per_kind,
            ],
            dtype=i64,
        ),
    )
    if len(_TABLES) > 16:
        _TABLES.clear()
    _TABLES[key] = tables
    return tables


def _end(board: Any, cell: int, cmd: Command) -> int:
    return int(board.offset(cell, *cmd.step))


def position_of(state: TankWarsState, vehicles: int) -> I64:
    """``state`` as a position array (``layout(vehicles)``; ``vehicles`` = the scenario's
    unit count, destroyed ones included, with cell -1 and 0 AP)."""
    lay = layout(vehicles)
    pos = np.zeros(lay.size, dtype=np.int64)
    pos[lay.cell : lay.cell + vehicles] = -1  # destroyed until seen alive
    for v in state.vehicles:
        pos[lay.cell + v.ident] = v.cell
        pos[lay.armour + v.ident] = v.armour
    for i, s in enumerate(state.spent[:vehicles]):
        pos[lay.spent + i] = s
    for c in state.craters:
        pos[lay.crater + c] = 1
    for c in state.supports:
        pos[lay.support + c] = 1
    pos[lay.lost] = state.lost_gunfire[0]
    pos[lay.lost + 1] = state.lost_gunfire[1]
    pos[lay.round] = state.round
    pos[lay.in_round] = int(state.in_round)
    return pos
