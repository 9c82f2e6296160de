"""The error rate tells players apart as duplicate play does, on fixed seeds: at a table of
``tuned``, the players' error rates are in the reverse order of their duplicate gains against ``tuned`` there (a
rank correlation), and wherever two error rates differ by more than twice the standard error of their difference,
the player with the lower one gains more in duplicate. The review's deals (seed 41) and the comparison's (seed 42)
are different deals: the error rate predicts, it is not read off the same cards.

The full ladder, every preset and the search, is ``studies/review_ladder/review_ladder.py`` (docs/review.md)."""

from itertools import combinations

import numpy as np
from scipy import stats as sps

from reversis_sim.analysis.stats import ratio_mean_ci
from reversis_sim.compare import compare
from reversis_sim.policies import parse_seats
from reversis_sim.review.reviewing import review_matches
from reversis_sim.rules import PRESETS

PLAYERS = ["random", "lowest", "avoid:duck=0,shed=0,count=0", "tuned"]
"""Players that really differ: the baselines, a family member without its ducking, shedding and counting, the
tuned preset."""
MATCHES = 60


def _error_rate(rules, player: str) -> tuple[float, float]:
    out = review_matches(rules, parse_seats([player, "tuned", "tuned", "tuned"]), seed=41, first_match=0,
                         n_matches=MATCHES, reviewed=[0], worlds=8, rollout="tuned")
    m = out.decisions["match"]
    ci = ratio_mean_ci(np.bincount(m, weights=out.decisions["loss"], minlength=MATCHES),
                       np.bincount(m, minlength=MATCHES).astype(float), kind="error_rate")
    return ci.mean, ci.se


def test_error_rates_order_the_players_as_their_duplicate_gains():
    rules = PRESETS["parlett"]
    rates = [_error_rate(rules, p) for p in PLAYERS]
    err = np.array([r[0] for r in rates])
    se = np.array([r[1] for r in rates])
    gain = np.array([compare(rules, p, "tuned", "tuned", n_matches=MATCHES, seed=42).mean_difference
                     for p in PLAYERS])
    assert np.all(se > 0) and np.ptp(err) > 3 * se.max(), (err, se)  # the error rates tell something apart
    rho = sps.spearmanr(err, gain).statistic
    assert rho <= -0.8, (PLAYERS, err, gain)  # more fish lost per decision: less fish won in duplicate
    significant = [(i, j) for i, j in combinations(range(len(PLAYERS)), 2)
                   if abs(err[i] - err[j]) > 2 * np.hypot(se[i], se[j])]
    assert len(significant) >= 3
    for i, j in significant:
        assert (err[i] - err[j]) * (gain[i] - gain[j]) < 0, (PLAYERS[i], PLAYERS[j], err, gain)
