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

from .family import Family

FAMILY = Family("random", 0, "uniformly random legal play at every decision (the baseline)", (), ".random_nb")
