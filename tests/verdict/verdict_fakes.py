"""Stand-ins for ``simulate`` in the verdict's tests: agents ``x:N`` whose games are known
in advance, optionally on a fake clock."""

from __future__ import annotations

from typing import Any


class FakeGames:
    """A stand-in for ``simulate`` whose agents ``x:N`` are as strong as ``min(N, 4)``: the
    stronger one always wins; between equals, even games go to south and odd ones to north
    (so a self-play is even and a match scores exactly one half). Records every run."""

    def __init__(self) -> None:
        self.runs: list[tuple[tuple[str, str], int, int]] = []

    def __call__(self, scenario: Any, n: int, pols: Any, **kw: Any) -> Any:
        import pandas as pd

        first = int(kw.get("first_game", 0))
        self.runs.append((tuple(pols), n, first))
        s, t = (min(int(p.split(":")[1]), 4) for p in pols)
        games = range(first, first + n)
        winner = [
            "south" if s > t else "north" if s < t else ("south" if g % 2 == 0 else "north")
            for g in games
        ]
        if kw.get("progress") is not None:
            kw["progress"](n, n)
        return pd.DataFrame({"game": list(games), "winner": winner})


class TimedFakeGames(FakeGames):
    """``FakeGames`` on a clock: each game takes one second, finished ten at a time, and a
    run reports its ``progress`` and honours ``stop`` and ``abort`` after every ten as
    ``simulate`` does.
    With ``ctrl_c_at`` set, a Ctrl-C lands once that many games (counted over all runs) are
    finished: the run hands its finished games to ``interrupted``, as ``simulate`` does, and
    raises ``KeyboardInterrupt``. ``slow`` maps a game's number (in any run) to the extra
    seconds it takes; while it runs, ``abort`` is asked every second, as ``simulate`` does,
    and ends the run with that batch of ten unfinished."""

    def __init__(self, ctrl_c_at: int | None = None, slow: dict[int, float] | None = None) -> None:
        super().__init__()
        self.now = 0.0
        self.ctrl_c_at = ctrl_c_at
        self.finished = 0
        self.slow = slow or {}

    def __call__(self, scenario: Any, n: int, pols: Any, **kw: Any) -> Any:
        first = int(kw.get("first_game", 0))
        stop = kw.get("stop")
        abort = kw.get("abort")
        done = 0
        while done < n:
            extra = sum(self.slow.get(g, 0.0) for g in range(first + done, first + done + 10))
            aborted = False
            while extra > 0 and not aborted:
                self.now += 1
                extra -= 1
                aborted = abort is not None and abort()
            if aborted:
                break
            done = min(n, done + 10)
            self.now += 10
            if self.ctrl_c_at is not None and self.finished + done >= self.ctrl_c_at:
                self.ctrl_c_at = None
                if kw.get("interrupted") is not None:
                    kw["interrupted"](super().__call__(scenario, done, pols, first_game=first))
                raise KeyboardInterrupt
            if kw.get("progress") is not None:
                kw["progress"](done, n)
            if (stop is not None and stop()) or (abort is not None and abort()):
                break
        self.finished += done
        df = super().__call__(scenario, done, pols, first_game=first)
        df.attrs["stopped"] = done < n
        return df
