"""The design assistant's run for the editor: ``SuggestJob`` runs
``analysis.suggest.suggest`` in a ``ThreadJob`` with progress and cancel (its long runs of
games on every CPU: spawned worker processes, ``jobs.gui_executor``), and the texts the
Suggestions dock shows (refusals, the headline, one line per suggestion).

Promises: ``refusal`` answers before anything runs (illegal, finished or incomplete board:
one sentence); ``cancel`` stops a running search at its next step (after the edit being
generated or the batch of games being played) and the job then signals ``cancelled``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal

from tankmap.analysis.simulation.games import get_driver
from tankmap.analysis.suggest import Edit, Measured, SuggestResult, suggest
from tankmap.editor.jobs import ThreadJob, gui_executor
from tankmap.rules.errors import TankmapError
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.violations import Severity


@dataclass(frozen=True)
class SuggestSettings:
    """What the dock's controls ask ``suggest`` for."""

    agent: str | None = None  # None: the strongest that fits the budget, else the heuristic
    games: int = 400
    budget: float = 60.0
    seed: int = 0
    keep_symmetry: bool = False
    units: bool = False
    confirm_agent: str | None = None  # re-measure the listed edits with this agent too


class SuggestJob(ThreadJob):
    """One ``suggest`` run in its own thread: ``progress(played, total)`` after each
    candidate played, then ``finished(SuggestResult)``, ``failed(message)`` or, after
    ``cancel``, ``cancelled()`` (at the search's next step)."""

    progress = Signal(int, int)

    def __init__(self, scenario: Scenario, settings: SuggestSettings) -> None:
        super().__init__(self._suggest)
        self.scenario = scenario
        self.settings = settings

    def _tick(self, done: int, total: int) -> None:
        self.interrupt()
        self.progress.emit(done, total)

    def _suggest(self) -> SuggestResult:
        s = self.settings
        # runs that take 10 s or more in one process play on every CPU (spawned workers,
        # started at the first such run: the GUI process must not fork); the others here
        with gui_executor() as executor:
            return suggest(
                self.scenario,
                s.agent,
                s.games,
                s.budget,
                s.seed,
                s.keep_symmetry,
                workers=1,
                progress=self._tick,
                interrupt=self.interrupt,
                units=s.units,
                confirm_agent=s.confirm_agent,
                executor=executor,
            )


def refusal(scenario: Scenario) -> str | None:
    """Why ``suggest`` cannot run on ``scenario`` (one sentence), or ``None``: an illegal or
    finished board is refused as the command line refuses it; an incomplete one too, since
    every candidate edit must leave a complete board."""
    from tankmap.analysis.simulation.runner import require_legal

    try:
        require_legal(scenario)
    except TankmapError as exc:
        return sentence(str(exc))
    missing = [
        v.message
        for v in get_ruleset(scenario.ruleset).check(scenario)
        if v.severity is Severity.INCOMPLETE
    ]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        return f"The set-up is incomplete ({missing[0]}{more}): finish it first."
    return None


def sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _figures(m: Measured) -> str:
    lo, hi = m.stats.balance_ci95()
    return f"{m.stats.balance:.3f} [{lo:.3f}, {hi:.3f}]"


def before_text(result: SuggestResult, with_reason: bool = True) -> str:
    """The run's headline: the board's balance now, the agent and why, what the search did,
    and — when nothing was listed and ``with_reason`` — why."""
    b = result.before
    text = (
        f"Now: balance {_figures(b)} with {result.agent}, {b.stats.games} games on the "
        "search's own seeds (1 = even; 95 % interval; Simulate balance plays other games "
        f"and can differ within the intervals). {result.candidates} legal edits, {result.played} "
        f"played, {result.remeasured} re-measured on fresh seeds, {result.seconds:.0f} s."
    )
    if result.reason:
        if with_reason:
            text += f" {sentence(result.reason)}"
    elif result.heuristic_only:
        text += " These rest on the heuristic alone: confirm them with the verdict's agent."
    return text


def suggestion_text(k: int, edit: Edit, measured: Measured, before: Measured) -> str:
    """One list entry: the edit in words, the balance before → after on the same fresh
    seeds, and the improvement with its interval (the level guards against picking noise
    among the re-measured edits); a confirmation by another agent when there is one."""
    gain = measured.gain
    line = f"{k}. {'; '.join(edit.words)}\nbalance {_figures(before)} → {_figures(measured)}"
    if gain is not None:
        line += (
            f", gain {gain.estimate:+.3f} [{gain.lower:+.3f}, {gain.upper:+.3f}] "
            f"({gain.level:.1%}), {measured.stats.games} games each"
        )
    c = measured.confirmation
    if c:
        lo, hi = c["improvement_ci95"]
        word = "confirmed" if c["confirmed"] else "not confirmed"
        line += f"\n{word} by {c['agent']}: {c['improvement']:+.3f} [{lo:+.3f}, {hi:+.3f}]"
    return line


def agent_names(ruleset: str) -> list[str]:
    """The ruleset's agents, the heuristic first and the reference engines last."""
    names = get_driver(ruleset).policy_names()
    return sorted(names, key=lambda n: (n != "heuristic", n.endswith("-ref"), n))
