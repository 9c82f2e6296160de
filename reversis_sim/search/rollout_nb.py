"""A searching seat's rollouts (:mod:`.decide_nb`, and the review's, :mod:`reversis_sim.review.evaluate_nb`): its
scratch arrays, the deal's public history replayed once per decision (:func:`replay_history`), and each option played
out from there in one world by the rollout policy in every seat, through the kernel's own trick loop, then settled
(:func:`rollout`)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..kernel.bits import lowest
from ..kernel.compiled import (
    MAX_CLAIMS,
    MAX_LEDGER,
    MAX_SEATS,
    N_ACTIVE,
    P_DECK_MASK,
    P_PARTY_BONUS,
    P_SCORING,
    SCORING_SIMPLE,
    T_TALON_POINTS,
)
from ..kernel.jit import njit_nrt_free
from ..kernel.keys_nb import N_DRAWS
from ..kernel.layout import (
    AT_CHOICE,
    AT_FORCED,
    AT_LEN,
    AT_N_CLAIMS,
    AT_STOP,
    COL_DECLARER,
    COL_ESP_GOAL,
    COL_FISH,
    COL_N_PAYMENTS,
    COL_PARTY_VALUE,
    COL_SCORE,
    H_NOW,
    N_COLS,
    Seats,
    alloc,
)
from ..kernel.view import (
    V_DEALER,
    V_DECLARER,
    V_DOUBLE_ANTE,
    V_GOAL,
    V_LEN,
    V_N_CUR,
    V_POOL_BEFORE,
    V_SEAT,
    V_TALON_KNOWN,
    V_TRICK,
    mask,
)
from ..policies.deal_nb import begin, start_tricks
from ..policies.search import MAX_ROLLOUT_PARAMS, N_OWN
from . import worlds as W
from .options_nb import ST_LEN

_ZERO = np.uint64(0)

LEAD_PLAYED, LEAD_WORLD = range(2)
"""The rows of ``Workspace.lead``: the cards each seat has played; each seat's hand at the first lead in a world."""
HOLD_NEED, HOLD_VOIDS, HOLD_SEAT, HOLD_VOID_SUITS = range(4)
"""The rows of ``Workspace.hold``: each holder's cards needed, its void suits, its seat (-1: the talon); each
seat's void suits."""

Workspace = namedtuple("Workspace", "deal seats lead hold worlds stats pool weight history")
"""A searching seat's scratch arrays (allocated once per thread by the engines): ``deal``, the
:class:`~reversis_sim.kernel.layout.Deal` a rollout is played in (its ``view``, the view its seats decide on);
``seats``, the rollout's :class:`~reversis_sim.kernel.layout.Seats` (the rollout policy in every seat); ``lead``
uint64 ``(2, MAX_SEATS)``: the cards each seat has played, then each seat's hand at the first lead in a world
(rows ``LEAD_*``); ``hold`` int64 ``(4, MAX_SEATS)``: each holder's cards needed, its void suits, its seat (-1: the
talon), each seat's void suits (rows ``HOLD_*``); ``worlds``: the sampler's :class:`.worlds.Scratch`; ``stats``
float64 ``(ST_LEN, 64)`` (rows :data:`.options_nb.ST_GAIN` ...): per card,
the weighted sum and sum of squares of its gain over the rollout policy's card, its last rollout's result, the sum
of the weights of its worlds and of their squares (every weight 1 without inference, or when resampled); with
inference (``infer``), ``pool`` uint64 ``(MAX_POOL, MAX_SEATS)``: the worlds drawn to be weighed, ``weight`` float64
``(MAX_POOL,)``: their log-likelihoods, then their cumulative weights; ``history``: the :class:`History` of the
decision, which every rollout resumes from."""

History = namedtuple("History", "row ledger claims seat_view at")
"""The deal of a decision as it stood at the decision (:func:`replay_history`: its public history played once,
then resumed by every rollout of the decision, in every world): the rollout deal's ``row``, ``ledger``, ``claims``,
``seat_view`` and cursor ``at`` then."""

MAX_POOL = 4096
"""The most worlds a decision draws to weigh (``pool`` × ``worlds``, capped)."""


def workspace(searching: bool) -> Workspace:
    """The :class:`Workspace` of a searching seat (numpy); ``searching`` False (no search at the table): arrays of
    the same types, too small to use, so that a table of heuristics pays nothing."""
    k = 1 if searching else 0
    fact = np.ones(64, np.float64)
    for i in range(1, 64):
        fact[i] = fact[i - 1] * i
    deal = alloc(k)
    seats = Seats(np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS * k, MAX_ROLLOUT_PARAMS), np.float64))
    worlds = W.Scratch(np.zeros((W.I_LEN, W.MAX_HOLDERS), np.int64), np.zeros((5, W.N_KEYS * k), np.float64), fact,
                       np.zeros(W.MAX_HOLDERS, np.uint64), np.zeros(64, np.int64), np.zeros(1, np.int64))
    history = History(np.zeros(N_COLS, np.int64), np.zeros((MAX_LEDGER * k, 6), np.int64),
                      np.zeros((MAX_CLAIMS * k, 4), np.int64), np.zeros(V_LEN, np.int64), np.zeros(AT_LEN, np.int64))
    return Workspace(deal, seats, np.zeros((LEAD_WORLD + 1, MAX_SEATS), np.uint64),
                     np.zeros((HOLD_VOID_SUITS + 1, MAX_SEATS), np.int64), worlds,
                     np.zeros((ST_LEN, 64), np.float64), np.zeros((MAX_POOL * k, MAX_SEATS), np.uint64),
                     np.zeros(MAX_POOL * k, np.float64), history)


@njit_nrt_free
def rollout_family(params):
    """The family id of a search's rollout policy (its parameter vector follows, from ``N_OWN + 1`` on)."""
    return np.int64(params[N_OWN])


@njit_nrt_free
def replay_history(P, n, tables, view, tricks, ws, play_from):
    """Play the public history of the decision of ``view`` once into ``ws.deal``, up to the decision, and keep the
    deal as it then stood in ``ws.history``, for every rollout of the decision to resume from (:func:`rollout`):
    the deal's facts, the antes, the declarer and his goal, the tricks with their payments and claims, the trick in
    progress. The cards played are public, so this does not depend on the world: each seat holds only the cards it
    played (every card of the history is legal with them: :func:`holders` counted them). ``play_from``: the deal
    skeleton (:data:`reversis_sim.policies.deal_nb.PLAY_FROM`), which stops at the decision (every seat stops, every
    earlier card is the history's)."""
    trick_index, n_cur, dealer = view[V_TRICK], view[V_N_CUR], view[V_DEALER]
    deal, h = ws.deal, ws.history
    row, hands, rtricks = deal.row, deal.hands, deal.tricks
    begin(P, n, deal, dealer, view[V_POOL_BEFORE], view[V_DOUBLE_ANTE])
    deal.seat_view[V_GOAL] = view[V_GOAL]
    row[COL_DECLARER] = view[V_DECLARER]
    row[COL_ESP_GOAL] = view[V_GOAL]
    start_tricks(n, deal, view[V_DECLARER])
    for s in range(MAX_SEATS):
        hands[H_NOW, s] = ws.lead[LEAD_PLAYED][s]
    for ti in range(trick_index + 1):
        for j in range(6):
            rtricks[ti, j] = tricks[ti, j]
    at = deal.at
    at[AT_FORCED] = trick_index * N_ACTIVE + n_cur
    at[AT_STOP] = (1 << MAX_SEATS) - 1
    play_from(P, n, tables, ws.seats, deal)
    at[AT_STOP] = 0
    for c in range(N_COLS):
        h.row[c] = row[c]
    for i in range(row[COL_N_PAYMENTS]):
        for j in range(6):
            h.ledger[i, j] = deal.ledger[i, j]
    for i in range(at[AT_N_CLAIMS]):
        for j in range(4):
            h.claims[i, j] = deal.claims[i, j]
    for i in range(V_LEN):
        h.seat_view[i] = deal.seat_view[i]
    for i in range(AT_LEN):
        h.at[i] = at[i]


@njit_nrt_free
def rollout(P, n, tables, view, card, lead, talon_points, tricks, ws, play_from):
    """The deal played out in one world (hands at the first lead ``lead``) from the decision's history
    (:func:`replay_history`, played once for the decision): ``card`` for the deciding seat ``view[V_SEAT]``, then the
    rollout policy in every seat to the end (``play_from``, the deal skeleton); settled. Returns the seat's result:
    its fish (minus its score under simple scoring). ``view``: the deciding seat's real view (the deal's public
    facts); the rollout's seats decide on ``ws.deal.seat_view``."""
    seat = view[V_SEAT]
    deal, h = ws.deal, ws.history
    row, ledger, claims, hands, at = deal.row, deal.ledger, deal.claims, deal.hands, deal.at
    for c in range(N_COLS):
        row[c] = h.row[c]
    for i in range(row[COL_N_PAYMENTS]):
        for j in range(6):
            ledger[i, j] = h.ledger[i, j]
    for i in range(h.at[AT_N_CLAIMS]):
        for j in range(4):
            claims[i, j] = h.claims[i, j]
    for i in range(V_LEN):
        deal.seat_view[i] = h.seat_view[i]
    for i in range(AT_LEN):
        at[i] = h.at[i]
    row[COL_PARTY_VALUE] = P[P_PARTY_BONUS] + talon_points  # R31
    for s in range(n):
        hands[H_NOW, s] = lead[s] & ~ws.lead[LEAD_PLAYED][s]  # the world's hands less the cards played
    at[AT_CHOICE] = card
    play_from(P, n, tables, ws.seats, deal)
    if P[P_SCORING] == SCORING_SIMPLE:
        return -row[COL_SCORE + seat]
    return row[COL_FISH + seat]


@njit_nrt_free
def world_talon_points(P, n, world, tables):
    """The card points of a world's talon (every card of the deck no seat holds)."""
    everyone = _ZERO
    for s in range(n):
        everyone |= world[s]
    points = 0
    m = np.uint64(P[P_DECK_MASK]) & ~everyone
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        points += tables[T_TALON_POINTS, c]
    return points


@njit_nrt_free
def rollout_seats(params, draws, view, n, ws):
    """The rollout's seats: the rollout policy everywhere, with the deciding seat's draws; only that seat knows its
    talon cards."""
    seat = view[V_SEAT]
    rfam, rpars, rdraws, rknown = ws.seats.family, ws.seats.params, ws.deal.draws, ws.deal.known
    n_rp = min(len(params) - N_OWN - 1, MAX_ROLLOUT_PARAMS)
    for s in range(n):
        rfam[s] = rollout_family(params)
        for j in range(MAX_ROLLOUT_PARAMS):
            rpars[s, j] = params[N_OWN + 1 + j] if j < n_rp else 0.0
        for j in range(N_DRAWS):
            rdraws[s, j] = draws[j]
        rknown[s] = mask(view, V_TALON_KNOWN) if s == seat else _ZERO


