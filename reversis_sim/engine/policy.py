"""Seat policies inside the kernels: dispatch on the integer family id (DESIGN.md decision 5).

numba compiles a function argument separately for each function, so policies are not passed around as
functions: each decision is one small function that branches on ``family[seat]`` (``FAMILIES[...].family_id``)
and reads the seat's ``float64`` parameter vector ``params[seat]``. Adding a family adds one ``elif`` per decision.

Family 0, ``random`` (the twin of :class:`reversis_sim.policies.random.RandomPolicy`): every choice is drawn from
the seat's keyed stream with the same decision index and the same ``below`` mapping, over the same candidates in
the same order (cards sorted by card code = mask bits from low to high), so it makes exactly the reference's
choices.

Randomness: ``draws[seat, i]`` is ``keys.draw(stream(seed, match, deal, PURPOSE_POLICY, seat), i)`` for the
decision indices of :mod:`reversis_sim.keys` the engine uses (``TAKE``, ``DISCARD``, ``DECLARE`` and
``PLAY + trick``; the other slots are not filled), drawn in bulk at the start of the deal (vectorised loops, off the
critical path of the play).
"""

from __future__ import annotations

from ..bits import count, select
from ..jit import njit_nrt_free
from .keys import DECLARE, DISCARD, PLAY, TAKE, below

RANDOM = 0  # family id of ``random``
KERNEL_FAMILIES = {RANDOM: "random"}  # family id -> name, for every family this module plays
N_DRAWS = 24  # decision indices drawn per seat and deal: PLAY + 13 tricks fit


@njit_nrt_free
def choose_exchange(family, params, draws, seat, is_dealer, hand):
    """Talon exchange (R13, R14): the card to discard, or -1 to keep the hand (never -1 for the dealer).

    ``hand``: the seat's mask before the exchange.
    """
    f = family[seat]
    if f == RANDOM:
        if not is_dealer and below(draws[seat, TAKE], 2) == 0:
            return -1
        return select(hand, below(draws[seat, DISCARD], count(hand)))
    return -1


@njit_nrt_free
def choose_declare(family, params, draws, seat, hand):
    """Declare the espagnolette (R38)? Asked only of an eligible seat."""
    f = family[seat]
    if f == RANDOM:
        return below(draws[seat, DECLARE], 2) == 1
    return False


@njit_nrt_free
def choose_play(family, params, draws, seat, legal, trick_index):
    """The card to play (a card of the non-empty mask ``legal``) to trick ``trick_index`` (0-based)."""
    f = family[seat]
    if f == RANDOM:
        return select(legal, below(draws[seat, PLAY + trick_index], count(legal)))
    return select(legal, 0)
