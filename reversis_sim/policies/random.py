"""The ``random`` family: a uniformly random legal choice at every decision (the baseline of every comparison).

Its randomness is the seat's keyed draws of the deal (``draws[i]`` = the ``i``-th draw of the seat's policy stream,
:mod:`reversis_sim.keys`), one decision index per decision, so both engines make exactly the same choices:

- talon: take with probability 1/2 (``TAKE``); the discard is uniform over the hand (``DISCARD``); the dealer
  always discards, uniformly; under ``take_then_discard`` (``serbian``) everyone discards;
- espagnolette: declare with probability 1/2 when eligible (``DECLARE``); where a goal is chosen (``modern``),
  ``lose_all`` or ``win_all`` with probability 1/2 each (``GOAL``);
- play: uniform over the legal cards in card-code order (``PLAY + trick``).
"""

from __future__ import annotations

from ..bits import count, select
from ..jit import njit_nrt_free as njit
from ..jit import njit_nrt_free_inline as njit_inline
from ..keys_nb import DECLARE, DISCARD, GOAL, PLAY, TAKE, below
from .family import Family


@njit
def exchange(params, draws, seat, is_dealer, must_discard, hand, strength, points):
    if not (is_dealer or must_discard) and below(draws[TAKE], 2) == 0:
        return -1
    return select(hand, below(draws[DISCARD], count(hand)))


@njit
def declare(params, draws, hand, strength):
    return below(draws[DECLARE], 2) == 1


@njit
def goal(params, draws, hand, deck, strength):
    return below(draws[GOAL], 2) == 1  # ("lose_all", "win_all")[draw]


@njit_inline
def play(params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats, sit_out, played,
         talon_known, streak, declarer, deck, strength, points):
    return select(legal, below(draws[PLAY + trick_index], count(legal)))


FAMILY = Family("random", 0, "uniformly random legal play at every decision (the baseline)", (),
                exchange, declare, goal, play)
