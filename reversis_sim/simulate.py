"""Running batches of matches: the only place the stages are composed.

For now the batches run on the reference engine, one match after another; the numba engine (issue 3) plugs in
here with the same determinism: a match is a pure function of (rules, seats, seed, match).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from . import reference
from .policies import PolicySpec
from .rules import Rules


def simulate_records(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, n_matches: int,
                     match_deals: int | None = None, first_match: int = 0,
                     progress: Callable[[int], None] | None = None) -> Iterator[dict]:
    """Deal records of matches ``first_match .. first_match + n_matches - 1``, in order.

    ``progress`` is called with the number of deals finished after each match.
    """
    done = 0
    for match in range(first_match, first_match + n_matches):
        for record in reference.play_match(rules, seats, seed=seed, match=match, n_deals=match_deals):
            done += 1
            yield record
        if progress is not None:
            progress(done)
