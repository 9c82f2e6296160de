"""When a 95% interval can be printed at all (docs/statistics.md §9 and §10 have the measurements).

Fish per match are heavy-tailed and skewed because of the Quinola pool: it doubles whenever the J♥ is forced or
led (R25) and carries over from deal to deal (R10), so one match in a few hundred moves thousands of fish, and a
mean over a few hundred matches rarely contains the match that would pull it to its long-run value. A t interval
on such a mean misses on one side long after the central limit theorem "should" hold. ``scripts/interval_coverage.py``
measures it against truth runs, and measured that no other method does better at the sizes users run: the
bootstrap-t, the BCa bootstrap and the skewness-corrected t of Johnson and Hall lean on the sample's own
skewness, which at these sizes points the wrong way as often as not (a sample without the rare big match looks
symmetric; one with a big match of the other sign looks skewed the wrong way), and all three cover *less* than
the plain t interval.

What does work is to stop estimating the pool from its rare extremes: its dynamics are the rules', and while no
seat decides by the pool, a deal's play does not depend on the pool it carries, so the expected pool at every deal
follows from how often a deal wins, keeps or doubles it, which a run counts with binomial precision. The
pool-path estimator (:mod:`.pool_path`) values every doubling and win at that expected size: the same quantity,
every term of its interval bounded. Its kinds (``pool_path``, ``pool_path_reason``, ``pool_path_return``,
``pool_path_tournament``, ``pool_path_cost``, ``pool_path_hand``) hold from 2,000 to 100,000 matches by table;
the plain kinds remain for the runs it does not cover (a search seat, a preset whose payments scale with the pool)
and for ``estimator="plain"``. The skewness corrections were measured too, built on the estimator's own per-match
influence: the Quinola's cost has no skew left to correct, and on fish by reason Johnson's and Hall's corrections
trade misses between the rare rows and the studentized bootstrap covers less (docs/statistics.md §10).

So the toolkit keeps the Student t interval on per-match values (the match is the unit, decision 2) and prints it
only from the number of matches at which the harness found it holding for every pair and table it measured (the
blocks of every seed judged together; each seed's own are reported beside them):
:data:`MIN_MATCHES`, by the kind of quantity. Below that, :func:`n_needed` says how many matches are needed and
the command prints :func:`too_few` instead of a number. A rule read off the sample (refuse when its skewness or
its fourth moment looks heavy) was measured too and rejected: it refuses the samples that contain a big match,
whose intervals are wide and cover, and keeps those that lack one, whose intervals are narrow and miss, so the
intervals it lets through cover *less* than all of them together.
"""

from __future__ import annotations

__all__ = ["KINDS", "MIN_MATCHES", "n_needed", "too_few"]

MIN_MATCHES = {
    "difference": 4_000,
    "rotation": 32_000,
    "pool_share": 1_000,
    "seat": 32_000,
    "pool": 128_000,
    "error_rate": 1_000,
    "pool_path": 2_000,
    "pool_path_hand": 100_000,
    "pool_path_reason": 10_000,
    "pool_path_return": 100_000,
    "pool_path_tournament": 10_000,
    "pool_path_cost": 10_000,
}
"""The fewest matches from which the t interval of each kind of quantity held its 95% coverage, neither side
missing more than the binomial band allows, in every configuration ``scripts/interval_coverage.py`` measured (parlett,
12-deal matches; docs/statistics.md §9 has the tables):

- ``difference``: a paired difference of fish per deal between two arms on the same matches (``compare``, the
  points of a ``sweep``, the pairs of a ``tournament``); measured on tuned, saver, random and search against
  their baselines;
- ``rotation``: the same difference with the tested policy in one seat only (``compare``'s ``by_rotation``), whose
  seat effects and skew do not average out over the seats;
- ``pool_share``: fish per deal of a seat with an equal share of the pool (the zero-sum view): the pool share
  takes out most of the skew (measured on a table of avoid and on a table of four different players);
- ``seat``: fish per deal of one seat, or of one position, in a run: the pool left at the end of a match is lost
  by every seat in this view, a skew to the left that takes the most matches of the views a seat has;
- ``error_rate``: a review's fish lost per non-forced decision (``review --policy``), the per-match sums of the
  losses over the per-match decisions: measured on avoid in a field of tuned by ``scripts/review_coverage.py``
  (docs/review.md);
- ``pool_path``: a mean of fish through the pool's expected size (:mod:`.pool_path`): a seat's, a position's, a
  policy's, with the pool share, the holder's fish; measured on a table of avoid and a table of four different
  players (and a row only where 1,000 of the run's matches hold it);
- ``pool_path_hand``: the tables by the hand dealt through the pool's expected size (fish by the hearts dealt,
  the Quinola's cost by its guards, ...): their rarest rows need more matches than a seat's mean; at 10,000
  matches the four players' fish by hearts missed too often on seven seeds together (0.944, 165 below of 5,600:
  the hands without a heart, 55 misses of 700), at 100,000 they held;
- ``pool_path_cost``: the Quinola's cost to its holder by fate and overall through the pool's expected size:
  measured at 10,000 to 100,000 matches on seven block runs of 1,000,000 matches of each table (seeds
  2002-2008), each run's blocks judged against a truth pooled from the truth run and the *other* block runs
  (7,000,000 matches; against the truth run alone, a truth a tenth of a block's error off moves every block's
  misses to one side): at 10,000 both held (avoid 0.952, 71 above and 64 below of 2,800; the four players 0.946,
  67 and 83), and so at 20,000, 50,000 and 100,000; its influence has no skew, so the skewness-corrected intervals
  change nothing there;
- ``pool_path_tournament``: a tournament's payoffs and ranking through the pool's expected size: measured on the
  tournament of avoid and tuned: at 4,000 matches it held on one seed and not on another, at 10,000 on both seeds
  measured (the default ``tournament`` plays 10,000 matches a pairing for it);
- ``pool_path_reason``: fish by payment reason with the pool's reasons through its expected size, measured as the
  Quinola's cost: on eight seeds nobody had looked at (4001-4008), with the rule for the floor written down before,
  the four players' table held at 10,000 (0.950, 898 above and 858 below of 35,204), 20,000, 50,000 and 100,000
  (avoid's held at every size on eleven seeds). Eleven earlier seeds had failed at 20,000 and seven of them at
  10,000 by half a point, from light rows (the antes, the Aces) that missed at every size; on 21 runs of other
  seeds those rows cover 95.0%, so it was those seeds' chance (docs/statistics.md §10). Any reason's row only
  where :data:`.pool_path.ROW_PAYMENTS` of the run's matches hold a payment of it;
- ``pool_path_return``: the row of fish by reason of the return of a rolled-back doubling (a reversis made after
  the J♥ doubled the pool), a rare payment: at a table of avoid about 54 of 10,000 matches hold one, and at 10,000
  its interval missed below 33 times and above 7 of 700 blocks (a mean of a few large payments, skewed; on four
  more seeds 21 and 3 of 400), at 20,000 and more it held (judged without the payment floor); its floor is by
  matches and not by the payments a run happened to hold, which would print it in the runs that drew more of them
  than usual, whose means are off to one side (at 50,000, where the median block held 272 and the rows of those
  holding 300 were printed, 2 of those 7 missed);
- ``pool``: every other mean of fish: a policy's mean over several seats of a run (nothing but its share of the
  pool left), the Quinola's cost to its holder, fish by payment reason (the pool won, the doubling, the returns of
  a broken reversis), a tournament's ranking and its payoff against its own table, the tables by the hand dealt:
  the strictest floor, and the default of a mean whose kind nobody measured.
"""

KINDS = tuple(MIN_MATCHES)
"""The kinds of quantity an interval is printed for."""


def n_needed(n_units: int, kind: str) -> int:
    """0 when ``n_units`` matches are enough for a reliable 95% interval of a quantity of ``kind``
    (:data:`MIN_MATCHES`), else the number of matches needed.

    Examples
    --------
    >>> n_needed(1_000, "difference"), n_needed(8_000, "difference")
    (4000, 0)
    """
    if kind not in MIN_MATCHES:
        raise ValueError(f"unknown kind of interval {kind!r}; valid kinds: {', '.join(KINDS)}")
    need = MIN_MATCHES[kind]
    return 0 if int(n_units) >= need else need


def too_few(needed: int, match_deals: int | None = None, fewest: int | None = None) -> str:
    """What is printed instead of an interval built on too few matches (``needed`` from :func:`n_needed`), with the
    deals that makes when ``match_deals`` is given; with ``fewest`` (a table whose rows need different numbers), the
    range from it to ``needed``."""
    if fewest is not None and fewest != needed:
        deals = f" ({fewest * match_deals:,} to {needed * match_deals:,} deals)" if match_deals else ""
        return f"too few matches for a reliable interval here: {fewest:,} to {needed:,} needed, by row{deals}"
    deals = f" ({needed * match_deals:,} deals)" if match_deals else ""
    return f"too few matches for a reliable interval here: {needed:,} needed{deals}"
