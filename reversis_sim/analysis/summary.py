"""A first summary of a batch of deal records: fish per seat with 95% intervals, the Quinola's fate, the reversis
and espagnolette counts. (The Parquet-based analysis of issue 5 supersedes this for large runs.)"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

Z95 = 1.959963984540054


@dataclass
class MatchSummary:
    """Per-seat mean fish per deal, with the match as the sampling unit (deals of one match share the pool)."""

    n_seats: int
    n_deals: int = 0
    n_matches: int = 0
    seat_match_means: list[list[float]] = field(default_factory=list)  # [seat][match]
    quinola_fate: Counter = field(default_factory=Counter)
    reversis_committed: int = 0
    reversis_made: int = 0
    espagnolette_declared: int = 0
    espagnolette_made: int = 0
    pool_left: int = 0

    def seat_rows(self) -> list[dict]:
        """One row per seat: mean fish per deal, its standard error and 95% interval."""
        rows = []
        for seat, means in enumerate(self.seat_match_means):
            k = len(means)
            mean = sum(means) / k if k else float("nan")
            var = sum((x - mean) ** 2 for x in means) / (k - 1) if k > 1 else float("nan")
            se = math.sqrt(var / k) if k > 1 else float("nan")
            rows.append({"seat": seat, "mean_fish_per_deal": mean, "se": se,
                         "ci_low": mean - Z95 * se, "ci_high": mean + Z95 * se, "n_matches": k})
        return rows

    def to_dict(self) -> dict:
        return {
            "n_deals": self.n_deals, "n_matches": self.n_matches, "seats": self.seat_rows(),
            "quinola_fate": dict(sorted(self.quinola_fate.items())),
            "reversis": {"committed": self.reversis_committed, "made": self.reversis_made},
            "espagnolette": {"declared": self.espagnolette_declared, "made": self.espagnolette_made},
            "pool_left_at_match_ends": self.pool_left,
        }


def quinola_fate(record: dict) -> str:
    """How the J♥ ended: ``dumped``, ``forced``, ``led`` (§1.7) or ``talon`` (R27)."""
    if "JH" in record["talon"]:
        return "talon"
    for trick in record["tricks"]:
        if "JH" in trick["cards"]:
            i = trick["cards"].index("JH")
            if i == 0:
                return "led"
            return "forced" if trick["cards"][0][1] == "H" else "dumped"
    return "not_played"


def summarize_records(records: Iterable[dict], n_seats: int = 4) -> MatchSummary:
    """Summarise deal records given in match order (all deals of a match consecutive)."""
    s = MatchSummary(n_seats=n_seats, seat_match_means=[[] for _ in range(n_seats)])
    current: tuple | None = None
    totals = [0] * n_seats
    count = 0
    last_pool = 0

    def close() -> None:
        if count:
            for seat in range(n_seats):
                s.seat_match_means[seat].append(totals[seat] / count)
            s.n_matches += 1
            s.pool_left += last_pool

    for rec in records:
        key = (rec["run_seed"], rec["match"])
        if key != current:
            close()
            current, totals, count = key, [0] * n_seats, 0
        res = rec["result"]
        for seat in range(n_seats):
            totals[seat] += res["fish"][seat]
        count += 1
        last_pool = res["pool_after"]
        s.n_deals += 1
        s.quinola_fate[quinola_fate(rec)] += 1
        if res["reversis"]:
            s.reversis_committed += 1
            s.reversis_made += bool(res["reversis"]["made"])
        if res["espagnolette"]:
            s.espagnolette_declared += 1
            s.espagnolette_made += bool(res["espagnolette"]["made"])
    close()
    return s
