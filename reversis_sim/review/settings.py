"""What a review is asked (plain Python: the command line checks it before any numba is loaded): which seats,
in how many worlds, by which rollout policy, with how many deals dealt again to measure the luck of a hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..policies import PolicySpec, parse_spec

MAX_WORLDS = 1024
"""The most worlds a decision is reviewed in (the kernel's ``evaluate_nb.MAX_WORLDS``; a test keeps them equal)."""
MIN_WORLDS = 3
"""The fewest worlds a decision is reviewed in: half of them (one, of three) choose the best option and the others
measure its loss, whose standard error, from which the marks ?! ? ?? are judged, needs two measuring worlds (one
world would choose and measure at once; with two, one measures and every standard error is 0)."""
DEFAULT_WORLDS = 16
"""The worlds of a review when none is given: 8 choose the best option, 8 measure the loss. At it the error rate's
interval was measured to hold from 1,000 matches (docs/review.md; at 32 worlds the losses are more skewed and
1,000 matches held 85 times in 100), the ladder and its rating bands were measured, and a decision is reviewed
13,000-16,000 times a second on one core (docs/performance.md)."""
DEFAULT_ROLLOUT = "tuned"
"""The reviewer's rollout policy under the parlett family's rules (and the bots' default at the table)."""
FAMILY_DEFAULTS = {"penalty": "strong_modern", "bank": "strong_serbian"}
"""The reviewer's rollout policy and the bots' default under another family's rules, by its scoring: that family's
strongest preset, tuned under its own rules (docs/strength.md), not parlett's ``tuned``."""
DEFAULT_LUCK_SAMPLES = 256
"""Deals dealt again (the hand kept, and freely) for the luck of one reviewed deal's hands."""


def default_rollout(rules) -> str:
    """The policy a review rolls out with, and the bots' default, under ``rules``: :data:`DEFAULT_ROLLOUT` for the
    parlett family (and ``pierer``), the family's own strongest preset for the ``modern`` family and for
    ``serbian`` (:data:`FAMILY_DEFAULTS`)."""
    return FAMILY_DEFAULTS.get(rules.scoring, DEFAULT_ROLLOUT)


class ReviewError(ValueError):
    """A review that cannot be made as asked, in one sentence."""


@dataclass(frozen=True)
class ReviewSettings:
    """The reviewed seats, the worlds of each decision, the rollout policy (a heuristic in every seat of the
    rollouts), the luck samples per reviewed seat and deal (0: no luck)."""

    seats: tuple[int, ...]
    worlds: int = DEFAULT_WORLDS
    rollout: PolicySpec = parse_spec(DEFAULT_ROLLOUT)
    luck_samples: int = DEFAULT_LUCK_SAMPLES

    def as_dict(self) -> dict:
        return {"seats": list(self.seats), "worlds": self.worlds, "rollout": self.rollout.text,
                "rollout_name": _name(self.rollout), "luck_samples": self.luck_samples}


def _name(spec: PolicySpec) -> str:
    """A named preset's name for a spec, else its text."""
    from ..policies import NAMED

    for name, text in NAMED.items():
        if parse_spec(text) == spec:
            return name
    return spec.text


def check_worlds(worlds: int) -> None:
    """A :class:`ReviewError` sentence unless a decision can be reviewed in ``worlds`` worlds, a standard error
    included (:data:`MIN_WORLDS` to :data:`MAX_WORLDS`)."""
    if not MIN_WORLDS <= int(worlds) <= MAX_WORLDS:
        raise ReviewError(f"--worlds {worlds}: a decision is reviewed in {MIN_WORLDS} to {MAX_WORLDS} worlds (each "
                          "option played out in every one): half choose the best option and the others measure the "
                          "loss, whose standard error, by which a loss is marked, needs two measuring worlds")


def review_settings(n_seats: int, table: Sequence[PolicySpec], seats: Sequence[int] | None, worlds: int,
                    rollout: str | PolicySpec, luck_samples: int) -> ReviewSettings:
    """The settings of a review of ``seats`` (None: every seat) at the table ``table``, checked: every refusal is
    a :class:`ReviewError` sentence."""
    chosen = tuple(range(n_seats)) if not seats else tuple(sorted(set(int(s) for s in seats)))
    for s in chosen:
        if not 0 <= s < n_seats:
            raise ReviewError(f"review seat {s} is out of range: the table has seats 0..{n_seats - 1}")
    check_worlds(worlds)
    spec = parse_spec(rollout) if isinstance(rollout, str) else rollout
    if spec.family == "search":
        raise ReviewError("the reviewer's rollout policy must be a heuristic: a search rolling out with a search "
                          "would search inside every world")
    choosing = int(worlds) // 2 if int(worlds) > 1 else 1  # the worlds that choose the best (evaluate_nb.summarize)
    for s in chosen:
        p = table[s]
        if p.family == "search" and int(dict(p.params)["worlds"]) == choosing and p.rollout == spec:
            raise ReviewError(f"seat {s} is a search with {choosing} worlds and the reviewer's rollout policy, and "
                              f"{choosing} of the {worlds} worlds choose the reviewer's best: reviewing it so grades "
                              "the search by an equally noisy copy of itself (its losses would measure the noise of "
                              "both, not its mistakes); review it with other --worlds or another --rollout")
    if not 0 <= int(luck_samples) <= 1 << 20:
        raise ReviewError(f"--luck-samples {luck_samples}: give 0 (no luck) to {1 << 20}")
    return ReviewSettings(chosen, int(worlds), spec, int(luck_samples))
