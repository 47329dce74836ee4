"""docs/rules.md §1.8: smoke is laid after the moves, "before shells are placed" — in a
played Final Act game the pause for smoke shows the moves but not the round's shells (they
are shown once the smoke is decided), and the agents decide it blind."""

from __future__ import annotations

import pytest

from tankmap.analysis.play import HUMAN, open_session
from tankmap.analysis.play.final_act import FinalActSession
from tankmap.analysis.simulation.final_act.agents.reference import HeuristicPolicy
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side

MIRROR = read_scenario(map_path("final-act/mirror")).with_options(smoke=True, red_cross=True)


def after_the_moves() -> FinalActSession:
    """Round 1 of the mirror map with the agents' orders and shells, at the smoke pause."""
    s = open_session(MIRROR, (HUMAN, HUMAN), 0)
    assert isinstance(s, FinalActSession)
    for side in (Side.SOUTH, Side.NORTH):
        s.submit(side, s.hint_line(side))
    assert s.phase() == "moved"
    return s


def test_the_smoke_pause_shows_the_moves_not_the_shells() -> None:
    s = after_the_moves()
    step = s.current_step()
    assert step is not None and step.moves and step.shells == ()
    assert "before the shells are shown" in step.text[0]
    s.submit(Side.SOUTH, "-")
    s.submit(Side.NORTH, "-")
    assert s.phase() == "hit"  # the Red Cross pause: the shells have landed
    step = s.current_step()
    assert step is not None and len(step.shells) == 14  # 7 tanks a side, each one shell


def test_an_agents_smoke_decision_gets_no_shells(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[int, int]] = []
    real = HeuristicPolicy.respond

    def spy(self: HeuristicPolicy, phase: str, state, shells, report, rng):  # type: ignore[no-untyped-def]
        if phase == "moved":
            seen.append(dict(shells))
        return real(self, phase, state, shells, report, rng)

    monkeypatch.setattr(HeuristicPolicy, "respond", spy)
    s = after_the_moves()
    s.hint_line(Side.SOUTH)  # a person's hint
    s.set_players(("heuristic", "heuristic"))
    s.step_agents()  # the agents' own decisions, in the round being played
    assert seen and all(shells == {} for shells in seen)
