"""The stopping rule of a verdict's climb, on the match and self-play counts alone.

A climb plays one agent family at budgets B, 2B, 4B, … (``analysis.simulation.families``).
Each rung (``Step``) has its self-play run on the board (``BalanceEstimate``) and, from the
second rung on, a side-swapped match against the rung before it on common seeds (the
points the new budget scored). The climb is **converged** after a rung when

(a) the new budget no longer beats the previous one: the 95 % interval of its score
    includes 0.5 (or lies below it) and the score is under ``NO_GAIN`` (0.55); and
(b) the two last rungs' self-play verdicts agree: the same favoured side, or both even
    (``BalanceEstimate.favoured``; "undecided" — too few games — never agrees).

A rung whose match shows that it still beats the rung before may have no self-play
(``self_play is None``): the climb goes on without it, since (a) already fails there.

When (a) holds but the two self-play verdicts disagree only by noise — the 95 % intervals
of their win-rate differences overlap, so one board seen by both rungs could give both
counts — the rule is asked again on more games: ``more_self_play`` names the size (2 or 4
times a run's games, ``MORE_SELF_PLAY``) both self-plays go on to. A board that sits near
the line between "even" and a side then gets its side from enough games, where 200 games
of each rung would call it either way by chance. Two verdicts whose intervals do not
overlap disagree beyond noise: more games would not change that, a stronger budget might.

``judge`` applies the rule and says in one sentence why a climb is or is not converged;
it is a pure function of the counts, tested on hand-made tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tankmap.analysis.estimates import BalanceEstimate, games_text, score_interval

MORE_SELF_PLAY = (2, 4)
"""The sizes, in a run's games, that the two self-plays of a rung that no longer beats the
one before go on to while their verdicts disagree only by noise (``more_self_play``)."""

NO_GAIN = 0.55
"""A bigger budget scoring under this (with 0.5 inside its interval) no longer beats the
smaller one."""

WORD = {
    "south": "favours south",
    "north": "favours north",
    "even": "calls it even",
    "undecided": "is undecided",
}


def side_word(favoured: str, names: Mapping[str, str]) -> str:
    """``"favours White"``, ``"calls it even"``, … (``WORD`` with the game's side names)."""
    return f"favours {names[favoured]}" if favoured in names else WORD[favoured]


@dataclass(frozen=True)
class Step:
    """One rung of a climb: ``agent`` at ``budget``, its self-play (``None`` when it was not
    played), and its match against the previous rung (``match_games`` = 0 on the first
    rung)."""

    agent: str
    budget: int
    self_play: BalanceEstimate | None
    match_points: float = 0.0
    match_games: int = 0
    seconds: float = 0.0

    @property
    def score(self) -> float | None:
        """Share of the match's points this rung scored against the previous one."""
        return self.match_points / self.match_games if self.match_games else None

    def score_ci95(self) -> tuple[float, float] | None:
        """95 % interval of ``score`` (``None`` on the first rung)."""
        return score_interval(self.match_points, self.match_games) if self.match_games else None

    def beats_previous(self) -> bool | None:
        """Whether this budget still beats the previous one (``None`` on the first rung):
        not when its score's interval reaches down to 0.5 and the score is under
        ``NO_GAIN``."""
        ci = self.score_ci95()
        if ci is None or self.score is None:
            return None
        return not (ci[0] <= 0.5 and self.score < NO_GAIN)

    def clearly_beats_previous(self) -> bool:
        """Whether this budget's score against the previous one has its whole 95 % interval
        above 0.5 (a match's look stops on it; ``False`` on the first rung)."""
        ci = self.score_ci95()
        return ci is not None and ci[0] > 0.5

    def favoured(self, min_games: int) -> str:
        """The self-play's favoured side; ``"undecided"`` when it was not played."""
        return "undecided" if self.self_play is None else self.self_play.favoured(min_games)

    def to_json(self, min_games: int) -> dict[str, Any]:
        ci = self.score_ci95()
        sp = self.self_play
        return {
            "agent": self.agent,
            "budget": self.budget,
            "games": 0 if sp is None else sp.games,
            "favoured": self.favoured(min_games),
            "balance": None if sp is None else round(sp.balance, 6),
            "balance_ci95": None if sp is None else [round(v, 6) for v in sp.balance_ci95()],
            "win_rate": None
            if sp is None
            else {side: round(sp.win_rate(side)[0], 6) for side in ("south", "north")},
            "score_vs_previous": None if self.score is None else round(self.score, 6),
            "score_ci95": None if ci is None else [round(v, 6) for v in ci],
            "match_games": self.match_games,
            "seconds": round(self.seconds, 2),
        }


@dataclass(frozen=True)
class Judgement:
    """Whether a climb is converged, and why (or what is missing) in one sentence."""

    converged: bool
    reason: str


def strongest_played(steps: list[Step], min_games: int = 0) -> Step | None:
    """The rung a verdict is read from: the last of ``steps`` whose self-play has at least
    ``min_games`` games, else the last with any self-play (a self-play cut short by a
    time limit is passed over for a decided one below it), or ``None``."""
    played = [s for s in steps if s.self_play is not None]
    decided = [s for s in played if s.self_play is not None and s.self_play.games >= min_games]
    pick = decided or played
    return pick[-1] if pick else None


def within_noise(a: BalanceEstimate, b: BalanceEstimate) -> bool:
    """Whether two self-plays' win-rate differences could be the same board's: their 95 %
    intervals (``BalanceEstimate.difference_ci95``) overlap."""
    a_lo, a_hi = a.difference_ci95()
    b_lo, b_hi = b.difference_ci95()
    return a_lo <= b_hi and b_lo <= a_hi


def more_self_play(steps: list[Step], min_games: int, games: int) -> int | None:
    """How many self-play games both of the last two rungs should have before the rule is
    asked again, or ``None`` when more would not help: the last rung no longer beats the one
    before, both self-plays are decided (``min_games``) and disagree, only by noise
    (``within_noise``), and a size of ``MORE_SELF_PLAY`` (times ``games``, a run's games)
    is still above the smaller of the two."""
    if len(steps) < 2:
        return None
    prev, last = steps[-2], steps[-1]
    if prev.self_play is None or last.self_play is None or last.beats_previous() is not False:
        return None
    fp, fl = prev.favoured(min_games), last.favoured(min_games)
    if "undecided" in (fp, fl) or fp == fl or not within_noise(prev.self_play, last.self_play):
        return None
    fewer = min(prev.self_play.games, last.self_play.games)
    return next((games * k for k in MORE_SELF_PLAY if games * k > fewer), None)


def _score_text(step: Step) -> str:
    ci = step.score_ci95()
    assert ci is not None and step.score is not None
    return f"{step.score:.3f} [{ci[0]:.3f}, {ci[1]:.3f}] over {games_text(step.match_games)}"


def _beats_text(step: Step, prev: Step) -> str:
    """Why ``step`` still counts as beating ``prev``: clearly (its score's whole interval
    above 0.5), or by its score alone (at least ``NO_GAIN``, the interval reaching 0.5)."""
    ci = step.score_ci95()
    if ci is not None and ci[0] <= 0.5:
        return (
            f"{step.agent} may still beat {prev.agent} ({_score_text(step)}: "
            f"a score of {NO_GAIN} or more)"
        )
    return f"{step.agent} still beats {prev.agent} ({_score_text(step)})"


def unplayed_text(rung: Mapping[str, Any]) -> str:
    """Why a rung of a verdict document's trace has no self-play: it still beats the rung
    before (none is needed), or the climb ended before it played one."""
    score, ci = rung.get("score_vs_previous"), rung.get("score_ci95")
    if score is not None and ci is not None and not (ci[0] <= 0.5 and score < NO_GAIN):
        return "not needed: it still beats the rung before"
    return "not played"


def judge(
    steps: list[Step],
    min_games: int,
    names: Mapping[str, str] | None = None,
    settling: int | None = None,
) -> Judgement:
    """Apply the stopping rule (module docstring) after the last rung of ``steps``; the
    reason names the sides as ``names`` says (``{"south": "White", "north": "Black"}``).
    ``settling``: the last two self-plays are going on to this many games each
    (``more_self_play``) and are judged only once both have them — not wherever a time
    limit cut them, which would let the cut pick a moment they agree."""
    word = dict(WORD)
    for side, name in (names or {}).items():
        if side in word:
            word[side] = f"favours {name}"
    if not steps:
        return Judgement(False, "no rung played")
    last = steps[-1]
    if len(steps) < 2:
        return Judgement(
            False, f"only {last.agent} played so far: no stronger budget compared with it yet"
        )
    prev = steps[-2]
    beats = last.beats_previous()
    fl = last.favoured(min_games)
    fp = prev.favoured(min_games)
    agree = fl == fp and fl != "undecided"
    missing = []
    if beats:
        missing.append(_beats_text(last, prev))
    unplayed = [s.agent for s in (prev, last) if s.self_play is None]
    if unplayed:
        if not beats:  # (a rung that still beats the one before needs no self-play)
            missing.append(f"no self-play of {' and '.join(unplayed)}")
    elif not agree:
        if "undecided" in (fl, fp):
            missing.append(f"fewer than {min_games} self-play games")
        else:
            odds = f"{last.agent} {word[fl]} but {prev.agent} {word[fp]}"
            assert prev.self_play is not None and last.self_play is not None
            if within_noise(prev.self_play, last.self_play):
                odds += (
                    f" (within noise, over {last.self_play.games} and "
                    f"{prev.self_play.games} self-play games)"
                )
            missing.append(odds)
    if missing:
        return Judgement(False, "; ".join(missing))
    if settling is not None and any(
        s.self_play is not None and s.self_play.games < settling for s in (prev, last)
    ):
        return Judgement(
            False,
            f"{last.agent} no longer beats {prev.agent}, and their self-play verdicts, which "
            f"differed within noise, are judged again at {settling} games each",
        )
    return Judgement(
        True,
        f"{last.agent} no longer beats {prev.agent} ({_score_text(last)}) and both "
        f"{word[fl].replace('favours', 'favour').replace('calls', 'call')}",
    )


def state_text(doc: Mapping[str, Any]) -> str:
    """How settled a verdict document (``verdict --json``) is, as its headline says it:
    ``"converged"`` or ``"NOT converged"``, and ``"; search disagrees"`` after either when
    its cross-check's family of the other kind sees the board differently."""
    state = "converged" if doc.get("converged") else "NOT converged"
    check = doc.get("cross_check") or {}
    if check.get("agrees") is False:
        state += f"; {check.get('agent')} disagrees"
    return state
