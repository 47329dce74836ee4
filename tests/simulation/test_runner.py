"""Runner, executors and statistics against the fake "race" game (see conftest.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
import pytest

from tankmap.analysis.simulation.games import NoDriverError, PolicyError, parse_policy
from tankmap.analysis.simulation.runner import COLUMNS, simulate
from tankmap.analysis.simulation.stats import balance, death_map, route_map, summary, wilson
from tankmap.rules.scenario import Scenario


def test_table_shape_and_columns(race: Scenario) -> None:
    df = simulate(race, 30, "random", seed=3)
    assert list(df.columns) == list(COLUMNS)
    assert len(df) == 30
    assert list(df["game"]) == list(range(30))
    assert set(df["winner"]) <= {"south", "north", "draw"}
    assert df.attrs["seed"] == 3


def test_same_seed_same_table_whatever_workers_and_batches(race: Scenario) -> None:
    one = simulate(race, 90, ("heuristic", "random"), seed=11, workers=1)
    two = simulate(race, 90, ("heuristic", "random"), seed=11, workers=2, batch_size=7)
    pd.testing.assert_frame_equal(one, two)
    other = simulate(race, 90, ("heuristic", "random"), seed=12, workers=1)
    assert not one.equals(other)


def test_prefix_property(race: Scenario) -> None:
    # Game i depends only on (seed, i): a longer run starts with the shorter one.
    short = simulate(race, 20, "random", seed=5)
    long = simulate(race, 45, "random", seed=5)
    pd.testing.assert_frame_equal(short, long.iloc[:20])


def test_until_ci_stops_when_narrow(race: Scenario) -> None:
    df = simulate(race, 50, "random", seed=2, until_ci=0.2)
    n = len(df)
    assert n % 50 == 0
    for side in ("south", "north"):
        lo, hi = wilson(int((df["winner"] == side).sum()), n)
        assert hi - lo < 0.2
    # one chunk fewer would not have been narrow enough (else it would have stopped there)
    if n > 50:
        prev = df.iloc[: n - 50]
        widths = [
            (lambda lo_hi: lo_hi[1] - lo_hi[0])(wilson(int((prev["winner"] == s).sum()), n - 50))
            for s in ("south", "north")
        ]
        assert max(widths) >= 0.2


def test_progress_reaches_total(race: Scenario) -> None:
    seen: list[tuple[int, int]] = []
    simulate(race, 45, "random", seed=1, batch_size=10, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (45, 45)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_bad_policy_and_ruleset(race: Scenario) -> None:
    with pytest.raises(PolicyError):
        simulate(race, 5, "clever")
    with pytest.raises(PolicyError):
        parse_policy("random+berms")
    assert parse_policy("Heuristic+no-berms+no-at") == ("heuristic", ("no-berms", "no-at"))
    from dataclasses import replace

    with pytest.raises(NoDriverError):
        simulate(replace(race, ruleset="toy-without-engine"), 5, "random")


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # Wilson: centre = (p + z²/2n)/(1 + z²/n), half = z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n),
        # z = 1.959964. k=50,n=100: centre 0.5, half = 1.96·sqrt(.0025+.000096)/1.038415
        # = 1.96·0.050951/1.038415 = 0.096170 → [0.40383, 0.59617].
        (50, 100, 0.40383, 0.59617),
        # k=0,n=10: p=0, centre = 0.19208/1.38415 = 0.138772, half = 1.96·sqrt(.0096040)/1.38415
        # = 0.138772 → [0, 0.277544].
        (0, 10, 0.0, 0.27754),
        # k=10,n=10 is the mirror image: [0.72246, 1].
        (10, 10, 0.72246, 1.0),
    ],
)
def test_wilson_hand_values(k: int, n: int, lo: float, hi: float) -> None:
    a, b = wilson(k, n)
    assert a == pytest.approx(lo, abs=1e-4)
    assert b == pytest.approx(hi, abs=1e-4)


def test_balance_definition() -> None:
    # 1 - |ws - wn|: 60 vs 30 of 100 → 1 - 0.3 = 0.7; 50/50 → 1; 100/0 → 0.
    assert balance(60, 30, 100) == pytest.approx(0.7)
    assert balance(50, 50, 100) == 1.0
    assert balance(100, 0, 100) == 0.0


def test_summary_contract_keys(race: Scenario) -> None:
    df = simulate(race, 40, ("heuristic", "random"), seed=9)
    s = summary(df)
    assert s["games"] == 40 and s["seed"] == 9
    assert s["policy"] == {"south": "heuristic", "north": "random"}
    assert s["wins"]["south"] + s["wins"]["north"] + s["draws"] == 40
    for side in ("south", "north"):
        wr = s["win_rate"][side]
        assert wr["ci95"][0] <= wr["estimate"] <= wr["ci95"][1]
        assert wr["estimate"] == pytest.approx(s["wins"][side] / 40)
    ws, wn = s["wins"]["south"] / 40, s["wins"]["north"] / 40
    assert s["balance"] == pytest.approx(1 - abs(ws - wn))
    assert s["length"]["mean"] == pytest.approx(df["length"].mean())
    assert s["length"]["median"] == df["length"].median()
    assert sum(s["length"]["histogram"]["counts"]) == 40
    assert s["playouts_per_second"] > 0


def test_heat_maps_count_cells(race: Scenario) -> None:
    df = simulate(race, 40, "random", seed=4)
    deaths = death_map(df, race.board)
    assert deaths.shape == (10, 2)
    # every decided game has exactly one death (the loser's runner)
    assert deaths.sum() == int((df["winner"] != "draw").sum())
    routes = route_map(df, race.board, "south")
    # a south winner starts on a1 (col 0, row 1) in every game it wins
    assert routes[0, 0] == int((df["winner"] == "south").sum())


def test_report_heat_maps_title_each_panel_with_its_side_and_note(race: Scenario) -> None:
    from tankmap.analysis.simulation.report import heat_figure

    df = simulate(race, 20, "random", seed=4)
    grids = {s: death_map(df, race.board, s) for s in ("south", "north")}
    fig = heat_figure(race, grids, "losses", "Reds", {"south": "3 losses", "north": "5 losses"})
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles == ["South: 3 losses", "North: 5 losses"]


def test_losses_and_kills_by_kind_hand_table() -> None:
    # Two games: (1) south tank lost on c4 to a north AT, north AT run over by a south tank
    # on d5; (2) a north tank lost on e6 with no single killer ("-").
    from tankmap.analysis.simulation.stats import kills_by_kind, losses_by_kind

    df = pd.DataFrame({"deaths": ["south:tank:c4:at north:at:d5:tank", "north:tank:e6:-"]})
    assert losses_by_kind(df) == {"south": {"tank": 1}, "north": {"at": 1, "tank": 1}}
    assert kills_by_kind(df) == {"south": {"tank": 1}, "north": {"at": 1}}


def _pid_after(seconds: float) -> int:
    import os
    import time

    time.sleep(seconds)
    return os.getpid()


def test_two_workers_are_this_process_and_one_worker_process() -> None:
    import os

    from tankmap.analysis.simulation.executors import make_executor

    done: list[int] = []
    with make_executor(2) as ex:
        pids = ex.map(_pid_after, [(0.05,)] * 12, lambda i, _r: done.append(i))
    assert sorted(done) == list(range(12))  # every task reported once
    assert os.getpid() in pids  # the caller took its share...
    others = set(pids) - {os.getpid()}
    assert len(others) == 1  # ...and one worker process the rest
    assert pids.count(os.getpid()) >= 3 and len(pids) - pids.count(os.getpid()) >= 3


def _sleep_here_or_fail(caller: int, folder: str) -> None:
    import os
    import time
    from pathlib import Path

    if os.getpid() == caller:  # by now a worker process sleeps in its first task
        while not any(Path(folder).glob("started-*")):
            time.sleep(0.01)
        raise RuntimeError("stopped")
    (Path(folder) / f"started-{os.getpid()}").touch()
    time.sleep(5)
    (Path(folder) / "finished").touch()


def test_a_failed_run_stops_the_worker_processes_without_waiting(tmp_path: Path) -> None:
    import os
    import time

    from tankmap.analysis.simulation.executors import make_executor

    with pytest.raises(RuntimeError, match="stopped"), make_executor(2) as ex:
        ex.map(_sleep_here_or_fail, [(os.getpid(), str(tmp_path))] * 4, None)
    # the worker was killed in its 5-second task, not waited for (nor left running)
    assert not (tmp_path / "finished").exists()
    (started,) = tmp_path.glob("started-*")
    worker = Path("/proc") / started.name.removeprefix("started-") / "stat"
    deadline = time.monotonic() + 30
    while _running(worker) and time.monotonic() < deadline:  # killed: soon gone or a zombie
        time.sleep(0.01)
    assert not _running(worker)


def _mark_and_sleep(folder: str, seconds: float) -> int:
    import os
    import time
    from pathlib import Path

    (Path(folder) / f"started-{os.getpid()}").touch()
    time.sleep(seconds)
    (Path(folder) / f"finished-{os.getpid()}").touch()
    return os.getpid()


def test_an_aborted_run_leaves_its_tasks_in_the_middle(tmp_path: Path) -> None:
    """``abort`` is asked while tasks run, not only between them: an abortable executor
    runs every task in worker processes (none in the caller), and kills them in the middle
    of their tasks when it answers true."""
    import os
    import time

    from tankmap.analysis.simulation.executors import make_executor
    from tankmap.analysis.simulation.interrupt import RunAborted

    workers = 2
    started = time.monotonic()

    def abort() -> bool:  # once every worker is in its first (minute-long) task
        return len(list(tmp_path.glob("started-*"))) >= workers

    with pytest.raises(RunAborted), make_executor(workers, abortable=True) as ex:
        ex.map(_mark_and_sleep, [(str(tmp_path), 60.0)] * 4, None, abort=abort)
    assert time.monotonic() - started < 30  # (not the minute of a task)
    pids = [p.name.removeprefix("started-") for p in tmp_path.glob("started-*")]
    assert len(pids) == workers and str(os.getpid()) not in pids
    assert not list(tmp_path.glob("finished-*"))
    for pid in pids:
        stat = Path("/proc") / pid / "stat"
        deadline = time.monotonic() + 30
        while _running(stat) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _running(stat)


def test_with_one_worker_an_abort_is_asked_after_each_task_in_this_process() -> None:
    """(No process is forked from the caller: the editor runs its jobs in a thread of its
    window's process.)"""
    import os

    from tankmap.analysis.simulation.executors import make_executor
    from tankmap.analysis.simulation.interrupt import RunAborted

    done: list[int] = []
    with pytest.raises(RunAborted), make_executor(1, abortable=True) as ex:
        ex.map(_pid_after, [(0.0,)] * 6, lambda i, pid: done.append(pid), abort=lambda: True)
    assert done == [os.getpid()]


def test_an_abortable_executor_gives_every_result_in_task_order() -> None:
    import os

    from tankmap.analysis.simulation.executors import make_executor

    done: list[int] = []
    with make_executor(2, abortable=True) as ex:
        pids = ex.map(_pid_after, [(0.02,)] * 8, lambda i, _r: done.append(i), abort=lambda: False)
    assert sorted(done) == list(range(8))
    assert os.getpid() not in pids and len(set(pids)) == 2


def test_a_run_aborted_in_the_middle_keeps_the_games_before_the_first_unfinished() -> None:
    from tankmap.maps import map_path
    from tankmap.rules.fileformat import read_scenario

    path = map_path("final-act/mirror")
    assert path is not None
    s = read_scenario(path)
    whole = simulate(s, 200, "heuristic", seed=3, workers=1)
    seen: list[int] = []
    part = simulate(
        s, 200, "heuristic", seed=3, workers=2, batch_size=1,
        progress=lambda done, total: seen.append(done), abort=lambda: bool(seen) and seen[-1] >= 6,
    )  # fmt: skip
    assert part.attrs["stopped"]
    assert len(part) < 200  # (those finished after a game in progress are dropped)
    cols = ["game", "winner", "length"]
    assert part[cols].equals(whole[cols].iloc[: len(part)].reset_index(drop=True))


def _snooze(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("how", ["stopped", "closed"])
def test_the_pool_s_thread_has_ended_when_a_pool_is_stopped_or_closed(how: str) -> None:
    """Left running, that thread closes its wake-up pipe while the interpreter's exit
    handler writes to it, and "Exception ignored ... handle is closed" (a traceback) follows
    a command's last line (seen after SIGTERM in the test suite). ``shutdown`` drops the
    pool's reference to the thread, so it must be taken before."""
    from tankmap.analysis.simulation.executors import ProcessExecutor, local_pool, stop_pool

    if how == "stopped":
        pool = local_pool(2)
        pool.submit(_snooze, 5.0)
        pool.submit(_snooze, 0.0).result()  # (the workers are up, one in its long task)
        thread = pool._executor_manager_thread  # type: ignore[attr-defined]
        stop_pool(pool)
    else:
        ex = ProcessExecutor(2)
        assert ex.map(_snooze, [(0.0,)] * 4, None) == [0.0] * 4
        thread = ex._pool._executor_manager_thread  # type: ignore[attr-defined]
        ex.close()
    assert thread is not None and not thread.is_alive()


def test_a_pool_broken_with_tasks_its_caller_cancelled_raises_nothing_in_its_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ProcessExecutor`` cancels the pool's tasks it runs itself; when a worker is killed
    (``stop_pool`` after SIGTERM) while such tasks wait in the pool, Python 3.11's pool
    thread raised ``InvalidStateError`` failing them, printed as "Exception in thread"
    after the command's last line (seen once in a full test run). The tasks not cancelled
    still fail with ``BrokenProcessPool``."""
    import os
    import signal
    import threading
    from concurrent.futures.process import BrokenProcessPool

    from tankmap.analysis.simulation.executors import local_pool

    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    pool = local_pool(1)
    pool.submit(_snooze, 0.0).result()  # (the worker is up)
    busy = pool.submit(_snooze, 30.0)
    waiting = [pool.submit(_snooze, 0.0) for _ in range(6)]
    time.sleep(0.3)  # (the long task is running)
    assert all(f.cancel() for f in waiting[2:])  # (still in the pool: the caller's now)
    thread = pool._executor_manager_thread  # type: ignore[attr-defined]
    for process in list(pool._processes.values()):  # type: ignore[attr-defined]
        os.kill(process.pid, signal.SIGKILL)
    thread.join(10.0)
    assert not thread.is_alive()
    assert raised == []
    with pytest.raises(BrokenProcessPool):
        busy.result(timeout=5)
    pool.shutdown(wait=True)


def _running(stat: Path) -> bool:
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_tasks_shrink_towards_the_end_with_several_workers() -> None:
    from tankmap.analysis.simulation.runner import task_games

    one = task_games(range(10), 3, 1)
    assert one == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    # 2 workers: a task takes at most a quarter of what is left, at least 1000 // 8 games
    sizes = [len(t) for t in task_games(range(20_000), 1000, 2)]
    assert sizes[:17] == [1000] * 17  # the 17th: a quarter of the 4,000 left is a batch
    assert sizes[17:] == [750, 563, 422, 317, 237, 178, 134, 125, 125, 125, 24]
    assert sum(task_games(range(20_000), 1000, 2), []) == list(range(20_000))


def test_a_stopped_run_keeps_only_the_games_up_to_the_first_missing_one(race: Scenario) -> None:
    from tankmap.analysis.simulation.executors import Executor

    class OutOfOrder(Executor):
        """Finishes the tasks (one game each) in the order 0, 1, 2, 4, 5, 3."""

        def map(self, fn, tasks, on_done, abort=None):  # type: ignore[no-untyped-def]
            out = [None] * len(tasks)
            for i in (0, 1, 2, 4, 5, 3):
                out[i] = fn(*tasks[i])
                on_done(i, out[i])
            return out

    finished = []
    df = simulate(
        race,
        6,
        "random",
        seed=4,
        batch_size=1,
        first_game=20,
        executor=OutOfOrder(),
        progress=lambda done, _total: finished.append(done),
        stop=lambda: len(finished) >= 5,  # after games 20, 21, 22, 24 and 25
    )
    # game 23 did not finish: 24 and 25, finished after the gap, are dropped
    assert list(df["game"]) == [20, 21, 22] and df.attrs["stopped"] is True


@pytest.mark.parametrize("failure", [KeyboardInterrupt, RuntimeError])
def test_an_interrupted_run_hands_over_its_finished_games_then_goes_on(
    race: Scenario, failure: type[BaseException]
) -> None:
    """Ctrl-C (or any failure) in the middle of a run: ``interrupted`` gets the games
    finished, up to the first one missing, as ``stop`` would keep them; then the exception
    goes on. (Before: the finished games were lost with the run.)"""
    from tankmap.analysis.simulation.executors import Executor

    class BrokenOff(Executor):
        """Finishes tasks 0, 1, 3 (one game each), then fails as task 2 runs."""

        def map(self, fn, tasks, on_done, abort=None):  # type: ignore[no-untyped-def]
            for i in (0, 1, 3):
                on_done(i, fn(*tasks[i]))
            raise failure

    handed: list[pd.DataFrame] = []
    with pytest.raises(failure):
        simulate(
            race, 6, "random", seed=4, batch_size=1, first_game=20, executor=BrokenOff(),
            interrupted=handed.append,
        )  # fmt: skip
    (table,) = handed
    assert list(table["game"]) == [20, 21] and table.attrs["stopped"] is True
    whole = simulate(race, 6, "random", seed=4, first_game=20)
    pd.testing.assert_frame_equal(table, whole.iloc[:2], check_like=True)


def test_a_failing_interrupted_callback_does_not_hide_the_interruption(race: Scenario) -> None:
    from tankmap.analysis.simulation.executors import Executor

    class Interrupted(Executor):
        def map(self, fn, tasks, on_done, abort=None):  # type: ignore[no-untyped-def]
            on_done(0, fn(*tasks[0]))
            raise KeyboardInterrupt

    def broken(_table: pd.DataFrame) -> None:
        raise OSError("disk full")

    with pytest.raises(KeyboardInterrupt):
        simulate(
            race, 4, "random", seed=1, batch_size=1, executor=Interrupted(), interrupted=broken
        )


def test_an_executor_serves_the_next_run_after_one_aborted() -> None:
    """An aborted run kills the worker processes; the next ``map`` on the same executor
    starts new ones (the editor's verdict keeps one executor for its whole climb)."""
    import os

    from tankmap.analysis.simulation.executors import make_executor
    from tankmap.analysis.simulation.interrupt import RunAborted

    with make_executor(2, abortable=True) as ex:
        with pytest.raises(RunAborted):
            ex.map(_pid_after, [(30.0,)] * 2, None, abort=lambda: True)
        first = ex.map(_pid_after, [(0.2,)] * 4, None, abort=lambda: False)
        assert first and os.getpid() not in first
        again = ex.map(_pid_after, [(0.2,)] * 4, None)
        assert set(again) <= set(_worker_pids(ex))  # (a run that ends normally keeps them)
        assert set(first) <= set(_worker_pids(ex))


def _worker_pids(ex: object) -> list[int]:
    """The process ids of a ``ProcessExecutor``'s current worker processes."""
    pool = ex._pool  # type: ignore[attr-defined]
    return list(pool._processes)


def test_the_report_counts_kills_no_single_unit_made_apart() -> None:
    """Tank Wars' losses come from artillery dice and gunfire tokens, credited to no unit:
    the report showed "–" kills beside 39 units lost."""
    from tankmap.analysis.simulation.report import _kills

    tank_wars = {"kills_by_kind": {"south": {}, "north": {}}, "kills": {"south": 43, "north": 0}}
    assert _kills(tank_wars, "south") == "43 credited to no single unit"
    assert _kills(tank_wars, "north") == "–"
    final_act = {"kills_by_kind": {"south": {"tank": 30, "at": 4}}, "kills": {"south": 36}}
    assert _kills(final_act, "south") == "30 tank, 4 at; 2 credited to no single unit"
    assert _kills({**final_act, "kills": {"south": 34}}, "south") == "30 tank, 4 at"


def test_a_heat_map_panel_with_no_count_says_so() -> None:
    """Tank Wars games end by destruction, so no winning unit has a route: the panels were
    blank boards under a 0-1 scale, as if the drawing had failed."""
    import numpy as np

    from tankmap.analysis.simulation.report import heat_figure
    from tankmap.maps import map_path
    from tankmap.rules.fileformat import read_scenario

    s = read_scenario(map_path("tank-wars/default"))  # type: ignore[arg-type]
    zero = np.zeros((s.board.rows, s.board.columns), dtype=np.int64)
    some = zero.copy()
    some[0, 0] = 3
    fig = heat_figure(s, {"south": zero, "north": some}, "t", "Greens", {"south": "", "north": ""},
                      empty="nothing here")  # fmt: skip
    said = [[t.get_text() for t in ax.texts] for ax in fig.axes[:2]]
    assert "nothing here" in said[0] and "nothing here" not in said[1]


def test_the_length_chart_keys_only_outcomes_that_happened() -> None:
    import pandas as pd

    from tankmap.analysis.simulation.report import length_figure

    df = pd.DataFrame({"winner": ["south", "north", "south"], "length": [9, 11, 12]})
    legend = length_figure(df, "rounds").axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["South wins", "North wins"]
    df = pd.DataFrame({"winner": ["south", "draw"], "length": [9, 100]})
    legend = length_figure(df, "rounds").axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["South wins", "draws"]
