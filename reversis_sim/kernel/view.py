"""A seat's view: everything a seat may know when it decides, as one record both engines fill and every decision
reads.

The record is one ``int64`` array of :data:`V_LEN` named slots. The numba engine keeps one per deal and sets the
slots as the deal goes (the facts of the deal once, the trick as it is played, the seat's own before each of its
decisions: :mod:`reversis_sim.kernel.tricks`, :mod:`reversis_sim.numba_engine.deal`); the reference engine fills one
from its :class:`~reversis_sim.policies.view.SeatView` before each decision (:mod:`reversis_sim.reference.seat_policy`).
A decision of any family, heuristic or search, reads this array (and the rules' per-card tables), nothing else: a
new fact a policy may read is one slot here and one line in each filler.

Card sets are 64-bit masks (:mod:`reversis_sim.cards`); a card's code is below 63, so a mask is a non-negative
``int64`` and is stored as it is (:func:`mask` reads one back as ``uint64``).
"""

from __future__ import annotations

import numpy as np

from .compiled import MAX_SEATS
from .jit import njit_nrt_free_inline

_SLOTS: list[int] = []
"""The widths of the view's slots, in order."""


def _slot(width: int = 1) -> int:
    """Declare the next slot of the view, ``width`` values wide; its index is returned, a plain ``int`` that numba
    freezes into the kernels where a module-level ``V_*`` holds it. A new fact is one such line (and a line in
    each of the two fillers)."""
    _SLOTS.append(width)
    return sum(_SLOTS) - width


# the deal: set once per deal
V_DEALER = _slot()  # the dealer's seat
V_N_SEATS = _slot()  # seats at the table: 4, or 5 under modern_five
V_SIT_OUT = _slot()  # 1: the dealer sits out (modern_five)
V_N_TRICKS = _slot()  # tricks in the deal (the hand size)
V_DECK = _slot()  # mask: every card of the rules' deck
V_POOL_BEFORE = _slot()  # the pool carried into the deal (before its antes)
V_DOUBLE_ANTE = _slot()  # 1: this deal's antes were doubled (serbian, F3.3)
V_DECLARER = _slot()  # the espagnolette declarer, or -1
V_GOAL = _slot()  # the declarer's goal where he names one: 1 win_all, 0 lose_all
# the trick in progress: set as it is played
V_TRICK = _slot()  # 0-based trick in progress (0 for the exchange and the declaration)
V_LEADER = _slot()  # who led it
V_N_CUR = _slot()  # cards already played to it
V_STREAK = _slot()  # the seat that has won every trick so far, or -1
V_PLAYED = _slot()  # mask: every card seen on the table, the trick in progress included
# V_CUR + k, k < V_N_CUR: the k-th card of the trick in progress, in playing order from the leader
V_CUR = _slot(MAX_SEATS)
# the deciding seat: set before each decision
V_SEAT = _slot()  # the seat that decides
V_HAND = _slot()  # mask: its hand
V_LEGAL = _slot()  # mask: the cards it may play (a card decision)
V_TALON_KNOWN = _slot()  # mask: the talon cards it knows (its discard, or the card it looked at; A17)
V_IS_DEALER = _slot()  # 1: it deals (the exchange: the dealer always discards, R13)
V_MUST_DISCARD = _slot()  # 1: it must discard (serbian's take-then-discard, F3.2)
V_LEN = sum(_SLOTS)
"""The length of a view."""


def new_view() -> np.ndarray:
    """A view to fill: ``int64 (V_LEN,)``, the trick's cards not yet played, no declarer, no streak."""
    view = np.zeros(V_LEN, np.int64)
    clear_trick(view)
    view[V_DECLARER] = -1
    return view


@njit_nrt_free_inline
def mask(view, slot):
    """The card mask in ``slot`` (``uint64``)."""
    return np.uint64(view[slot])


@njit_nrt_free_inline
def clear_trick(view):
    """No card played to the trick in progress yet."""
    view[V_N_CUR] = 0
    for k in range(MAX_SEATS):
        view[V_CUR + k] = -1


@njit_nrt_free_inline
def start_view(view, dealer, n, sit_out, n_tricks, deck, pool_before, double_ante):
    """The facts of a new deal: before the exchange nothing is played, no one has declared."""
    view[V_DEALER] = dealer
    view[V_N_SEATS] = n
    view[V_SIT_OUT] = 1 if sit_out else 0
    view[V_N_TRICKS] = n_tricks
    view[V_DECK] = np.int64(deck)
    view[V_POOL_BEFORE] = pool_before
    view[V_DOUBLE_ANTE] = double_ante
    view[V_DECLARER] = -1
    view[V_GOAL] = 0
    view[V_TRICK] = 0
    view[V_LEADER] = -1
    view[V_STREAK] = -1
    view[V_PLAYED] = 0
    view[V_LEGAL] = 0
    view[V_TALON_KNOWN] = 0
    view[V_IS_DEALER] = 0
    view[V_MUST_DISCARD] = 0
    clear_trick(view)


@njit_nrt_free_inline
def seat_decides(view, seat, hand, known):
    """Seat ``seat``, with ``hand`` and the talon cards it ``known``, is to decide."""
    view[V_SEAT] = seat
    view[V_HAND] = np.int64(hand)
    view[V_TALON_KNOWN] = np.int64(known)


@njit_nrt_free_inline
def seat_plays(view, seat, hand, legal, seen, known, k):
    """Seat ``seat`` is to play the ``k``-th card of the trick, a card of ``legal`` from ``hand``, the cards
    ``seen`` on the table so far (this trick's included), knowing the talon cards ``known``."""
    seat_decides(view, seat, hand, known)
    view[V_LEGAL] = np.int64(legal)
    view[V_PLAYED] = np.int64(seen)
    view[V_N_CUR] = k
