"""A seat's decisions by its family, on its view: the exchange, the declaration and its goal, and a card, as the deal
skeleton (:mod:`.deal_nb`) asks them of every seat it decides for.

numba compiles a function argument separately for each function, so policies are not passed around as functions:
each decision passes ``family[seat]`` (the family id) to the dispatch, which calls the registered family's numba
decision (:mod:`.dispatch`). The reference engine calls the very same decisions
(:class:`reversis_sim.reference.SeatPolicy`); the engines are checked against each other, the policy code is shared.

A search's exchange and declaration are its rollout policy's (:mod:`.search`); its cards are not decided here (the
skeleton pauses for them). Randomness: ``draws[seat]`` holds the seat's keyed draws of the deal
(:func:`reversis_sim.kernel.keys_nb.fill_draws`), drawn in bulk at the start of the deal.

An unknown family id makes every decision return ``UNKNOWN_FAMILY``; the skeleton records ``ERR_FAMILY`` for the
seat (:mod:`reversis_sim.kernel.layout`) and the wrappers raise, so an unknown id never plays as another family.
"""

from __future__ import annotations

from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.layout import UNKNOWN_FAMILY
from ..kernel.view import V_SEAT, V_TRICK, seat_plays
from . import dispatch, random_nb
from .random import FAMILY as RANDOM
from .search import N_OWN, SEARCH_ID
from .view import DECLARE_LOSE_ALL

RANDOM_ID = RANDOM.family_id



@njit_nrt_free
def decider(family, params):
    """The family that takes a seat's exchange and declaration: its own, or a search's rollout policy."""
    if family == SEARCH_ID:
        return int(params[N_OWN])
    return family


@njit_nrt_free_inline
def exchange_choice(seats, draws, view, tables):
    """Talon exchange (R13, R14) of the seat ``view[V_SEAT]``: the card to discard, -1 to keep the hand (never for
    the dealer, nor where it must discard: ``serbian``'s take-then-discard, F3.2, where the non-dealer has already
    taken his card), or ``UNKNOWN_FAMILY``."""
    seat = view[V_SEAT]
    family = seats.family[seat]
    f = decider(family, seats.params[seat])
    p = seats.params[seat, N_OWN + 1:] if family == SEARCH_ID else seats.params[seat]
    return dispatch.exchange(f, p, draws[seat], view, tables)


@njit_nrt_free_inline
def declaration_option(P_esp_goal, seats, draws, view, tables):
    """The declaration option of the one eligible seat ``view[V_SEAT]`` (R38): :data:`DECLARE_PASS`, or to declare
    with its goal where the preset asks one (``modern``, F1.4; ``P_esp_goal``), or ``UNKNOWN_FAMILY``."""
    seat = view[V_SEAT]
    family = seats.family[seat]
    f = decider(family, seats.params[seat])
    p = seats.params[seat, N_OWN + 1:] if family == SEARCH_ID else seats.params[seat]
    declares = dispatch.declare(f, p, draws[seat], view, tables)
    if declares == UNKNOWN_FAMILY or not declares:
        return declares
    if not P_esp_goal:
        return DECLARE_LOSE_ALL
    goal = dispatch.goal(f, p, draws[seat], view, tables)
    return UNKNOWN_FAMILY if goal == UNKNOWN_FAMILY else DECLARE_LOSE_ALL + goal


@njit_nrt_free_inline
def card_choice(tables, seats, deal, seat, hand, legal, seen, k):
    """The card ``seat`` plays, the ``k``-th of the trick (a card of the non-empty mask ``legal``, from ``hand``;
    ``seen``: every card on the table so far), or ``UNKNOWN_FAMILY``: its family's decision on its view
    ``deal.seat_view`` (:mod:`reversis_sim.kernel.view`: the seat's own facts set here, the deal's and the trick's
    kept by the trick loop), through the dispatch. Inlined into the trick loop. Never asked of a search.

    The ``random`` family, whose play reads only the legal cards and the trick, is called without its view being
    filled: measured, filling it (six slots a card) costs a table of ``random`` 7% of its deals a second, and
    ``random`` is the baseline of every A/A test and the policy of the fastest runs."""
    f = seats.family[seat]
    if f == RANDOM_ID:
        return random_nb.pick(deal.draws[seat], legal, deal.seat_view[V_TRICK])
    seat_plays(deal.seat_view, seat, hand, legal, seen, deal.known[seat], k)
    return dispatch.play(f, seats.params[seat], deal.draws[seat], deal.seat_view, tables)

