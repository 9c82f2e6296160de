"""Seat policies inside the kernels: the policies' numba dispatch (:mod:`reversis_sim.policies.dispatch`) called
with each seat's family id, parameter vector and draws, and the seat's view the kernel keeps
(:mod:`reversis_sim.kernel.view`).

numba compiles a function argument separately for each function, so policies are not passed around as functions:
each decision passes ``family[seat]`` (the family id) to the dispatch, which calls the registered family's numba
decision (DESIGN.md decision 5). The reference engine calls the very same functions
(:class:`reversis_sim.policies.SeatPolicy`); the engines are checked against each other, the policy code is shared.

Randomness: ``draws[seat]`` holds the seat's keyed draws of the deal (:func:`reversis_sim.keys_nb.fill_draws`),
drawn in bulk at the start of the deal (vectorised loops, off the critical path of the play).

An unknown family id makes every decision return ``UNKNOWN_FAMILY``; the deal kernel records ``ERR_FAMILY`` for the
seat (:mod:`reversis_sim.kernel.layout`) and the wrappers raise, so an unknown id never plays as another family.
"""

from __future__ import annotations

from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.view import V_SEAT, V_TRICK, seat_plays
from ..policies import dispatch, random_nb, search_nb
from ..policies.dispatch import UNKNOWN_FAMILY, uses_draws
from ..policies.random import FAMILY as RANDOM
from ..policies.search import SEARCH_ID

RANDOM_ID = RANDOM.family_id

__all__ = ["UNKNOWN_FAMILY", "choose_declare", "choose_exchange", "choose_goal", "choose_play", "uses_draws"]


@njit_nrt_free_inline
def _decider(family, params):
    """The family and parameters that take a seat's exchange and declaration decisions: its own, or a search's
    rollout policy (:mod:`reversis_sim.policies.search`)."""
    if family == SEARCH_ID:
        return search_nb.rollout_family(params), search_nb.rollout_params(params)
    return family, params


@njit_nrt_free
def choose_exchange(seats, draws, view, tables):
    """Talon exchange (R13, R14) of the seat ``view[V_SEAT]``: the card to discard, -1 to keep the hand (never for
    the dealer, nor where it must discard: ``serbian``'s take-then-discard, F3.2, where the non-dealer has already
    taken his card), or ``UNKNOWN_FAMILY``."""
    seat = view[V_SEAT]
    f, p = _decider(seats.family[seat], seats.params[seat])
    return dispatch.exchange(f, p, draws[seat], view, tables)


@njit_nrt_free
def choose_declare(seats, draws, view, tables):
    """Declare the espagnolette (R38)? 1 or 0 (or ``UNKNOWN_FAMILY``); asked only of an eligible seat."""
    seat = view[V_SEAT]
    f, p = _decider(seats.family[seat], seats.params[seat])
    return dispatch.declare(f, p, draws[seat], view, tables)


@njit_nrt_free
def choose_goal(seats, draws, view, tables):
    """The declarer's goal where the preset asks one (``modern``, F1.4): 1 ``win_all``, 0 ``lose_all`` (or
    ``UNKNOWN_FAMILY``)."""
    seat = view[V_SEAT]
    f, p = _decider(seats.family[seat], seats.params[seat])
    return dispatch.goal(f, p, draws[seat], view, tables)


@njit_nrt_free_inline
def choose_play(P, n, sit_out, tables, seats, deal, ws, seat, hand, legal, seen, k):
    """The card ``seat`` plays, the ``k``-th of the trick (a card of the non-empty mask ``legal``, from ``hand``;
    ``seen``: every card on the table so far) at a table of ``n`` seats whose dealer ``sit_out`` or not (literal
    constants, :func:`.deal.play_deal`), or ``UNKNOWN_FAMILY``: its family's decision on its view ``deal.seat_view``
    (:mod:`reversis_sim.kernel.view`: the seat's own facts set here, the deal's and the trick's kept by the trick
    loop), through the dispatch. Inlined into the trick loop.

    Two families are not dispatched here, the registry's two exceptions. A search needs the table too (the whole
    trick history ``deal.tricks`` and its workspace ``ws``: :func:`reversis_sim.policies.search_nb.play`). And the
    ``random`` family, whose play reads only the legal cards and the trick, is called without its view being
    filled: measured, filling it (six slots a card) costs a table of ``random`` 7% of its deals a second, and
    ``random`` is the baseline of every A/A test and the policy of the fastest runs."""
    f = seats.family[seat]
    if f == RANDOM_ID:
        return random_nb.pick(deal.draws[seat], legal, deal.seat_view[V_TRICK])
    seat_plays(deal.seat_view, seat, hand, legal, seen, deal.known[seat], k)
    if f == SEARCH_ID:
        return _searched_play(P, n, sit_out, tables, seats, deal, ws)
    return dispatch.play(f, seats.params[seat], deal.draws[seat], deal.seat_view, tables)


@njit_nrt_free
def _searched_play(P, n, sit_out, tables, seats, deal, ws):
    """A search's card (:func:`reversis_sim.policies.search_nb.play`)."""
    seat = deal.seat_view[V_SEAT]
    return search_nb.play(seats.params[seat], deal.draws[seat], deal.seat_view, tables, P, n, sit_out, deal.tricks,
                          ws)
