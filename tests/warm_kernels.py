"""Compile, in a process of its own beside the test suite, the kernels its later tests need (started by
``conftest.py``): the suite compiles on one core, so on a cold numba cache the review kernel and the five-seat
engine are compiled on the other one meanwhile and the tests that need them load them from the cache. Each is one
tiny run with the argument types the tests use; a kernel not finished in time is compiled by the test itself (the
cache's files are written atomically: the two processes never see half a file)."""

from reversis_sim.numba_engine import play_matches
from reversis_sim.numba_engine.reviewing import review_matches
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS


def main() -> None:
    parlett, five = PRESETS["parlett"], PRESETS["modern_five"]
    play_matches(five, parse_seats(["avoid", "random", "tuned", "lowest", "avoid"], 5), seed=0, first_match=0,
                 n_matches=1, match_deals=1)
    review_matches(parlett, parse_seats(["tuned"]), seed=0, first_match=0, n_matches=1, reviewed=[0], worlds=2,
                   rollout="tuned", match_deals=1, luck_samples=1)


if __name__ == "__main__":
    main()
