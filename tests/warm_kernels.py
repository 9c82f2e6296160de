"""Compile, in processes of their own, the kernels the test suite needs (started by ``conftest.py``), so that the
tests load them from numba's on-disk cache instead of each compiling its own: ``heuristics`` (tables of heuristic
players at four and five seats, the hands dealt, a condition's acceptance: the skeleton of heuristics alone) and
``search`` (tables with a search, a searching seat's record and a traced deal of heuristics, the reviewing table and a
record reviewed: the skeleton that pauses and is given decisions). Each is a tiny run with the
argument types the tests use; a kernel not finished in time is compiled by the test itself (the cache's files are
written atomically: two processes never see half a file). With no argument, both, one after the other."""

import sys

from reversis_sim.constraints import deals_of
from reversis_sim.engines import get_engine
from reversis_sim.numba_engine.hands import acceptance, dealt_hands
from reversis_sim.policies import parse_seats
from reversis_sim.review.reviewing import record_arrays, review_key, review_matches, review_record
from reversis_sim.rules import PRESETS

PARTS = ("heuristics", "search")


def heuristics() -> None:
    parlett, five, fast = PRESETS["parlett"], PRESETS["modern_five"], get_engine("numba")
    fast.columns(parlett, parse_seats(["avoid", "random", "tuned", "lowest"], 4), seed=0, first_match=0, n_matches=1,
                 match_deals=1)
    fast.columns(five, parse_seats(["avoid", "random", "tuned", "lowest", "avoid"], 5), seed=0, first_match=0,
                 n_matches=1, match_deals=1)
    dealt_hands(parlett, seed=0, first_match=0, n_matches=1)
    acceptance(parlett, deals_of(parlett, (), "hearts(0) >= 0"), 4)


def search() -> None:
    parlett, fast = PRESETS["parlett"], get_engine("numba")
    searches = parse_seats(["search:worlds=2", "tuned", "tuned", "avoid"], 4)
    fast.columns(parlett, searches, seed=0, first_match=0, n_matches=1, match_deals=1)
    record = fast.deal_record(parlett, searches, seed=0, match=0, deal=0)
    fast.deal_record(parlett, parse_seats(["tuned"], 4), seed=0, match=0, deal=0)
    review_matches(parlett, parse_seats(["tuned"]), seed=0, first_match=0, n_matches=1, reviewed=[0], worlds=2,
                   rollout="tuned", match_deals=1, luck_samples=1)
    review_record(parlett, record_arrays(parlett, record), key=review_key(record), reviewed=[1], worlds=2,
                  rollout="tuned")


def main(parts) -> None:
    for part in parts or PARTS:
        {"heuristics": heuristics, "search": search}[part]()


if __name__ == "__main__":
    main(sys.argv[1:])
