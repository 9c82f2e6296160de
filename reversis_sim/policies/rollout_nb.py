"""A searching seat's rollouts (:mod:`.search_nb`, and the review's, :mod:`.review_nb`): its scratch arrays, the
deal's public history replayed once per decision (:func:`replay_history`), and each option played out from there in
one world by the rollout policy in every seat, through the kernel's own trick loop, then settled
(:func:`rollout`)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..kernel.bits import bit, lowest
from ..kernel.compiled import (
    MAX_CLAIMS,
    MAX_LEDGER,
    MAX_SEATS,
    MAX_TRICKS,
    N_ACTIVE,
    P_DECK_MASK,
    P_HAND_SIZE,
    P_PARTY_BONUS,
    P_SCORING,
    SCORING_SIMPLE,
    T_TALON_POINTS,
)
from ..kernel.jit import njit, njit_nrt_free, njit_nrt_free_inline
from ..kernel.keys_nb import N_DRAWS
from ..kernel.layout import (
    COL_DECLARER,
    COL_ESP_GOAL,
    COL_FISH,
    COL_N_PAYMENTS,
    COL_PARTY_VALUE,
    COL_SCORE,
    H_NOW,
    N_COLS,
    STOP,
    Deal,
    Seats,
)
from ..kernel.payments import antes
from ..kernel.tricks import make_play_tricks, settle_deal, start_row
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
    seat_plays,
    start_view,
)
from . import dispatch
from . import worlds as W
from .search import MAX_ROLLOUT_PARAMS, N_OWN

_ZERO = np.uint64(0)

Workspace = namedtuple("Workspace", "deal seats lead hold worlds stats pool weight history")
"""A searching seat's scratch arrays (allocated once per thread by the engines): ``deal``, the
:class:`~reversis_sim.kernel.layout.Deal` a rollout is played in (its ``view``, the view its seats decide on);
``seats``, the rollout's :class:`~reversis_sim.kernel.layout.Seats` (the rollout policy in every seat); ``lead``
uint64 ``(2, MAX_SEATS)``: the cards each seat has played, then each seat's hand at the first lead in a world;
``hold`` int64 ``(4, MAX_SEATS)``: each holder's cards needed, its void suits, its seat (-1: the talon), each
seat's void suits; ``worlds``: the sampler's :class:`.worlds.Scratch`; ``stats`` float64 ``(5, 64)``: per card,
the weighted sum and sum of squares of its gain over the rollout policy's card, its last rollout's result, the sum
of the weights of its worlds and of their squares (every weight 1 without inference, or when resampled); with
inference (``infer``), ``pool`` uint64 ``(MAX_POOL, MAX_SEATS)``: the worlds drawn to be weighed, ``weight`` float64
``(MAX_POOL,)``: their log-likelihoods, then their cumulative weights; ``history``: the :class:`History` of the
decision, which every rollout resumes from."""

History = namedtuple("History", "row ledger claims seat_view before at halt")
"""The deal of a decision as it stood when the trick in progress began (:func:`replay_history`: its public history
played once, then resumed by every rollout of the decision, in every world): the rollout deal's ``row``,
``ledger``, ``claims`` and ``seat_view`` then, ``before`` uint64 ``(MAX_SEATS,)``: each seat's cards played in the
tricks before, ``at`` int64 ``(2,)``: the trick in progress, and the number of led claims then; ``halt`` int64
``(MAX_SEATS,)``: :data:`~reversis_sim.kernel.layout.STOP` in every seat, the families of the replay's seats."""

MAX_POOL = 4096
"""The most worlds a decision draws to weigh (``pool`` × ``worlds``, capped)."""


@njit
def workspace(searching):
    """The :class:`Workspace` of a searching seat; ``searching`` False (no search at the table): arrays of the same
    types, too small to use, so that a table of heuristics pays nothing."""
    k = 1 if searching else 0
    fact = np.ones(64, np.float64)
    for i in range(1, 64):
        fact[i] = fact[i - 1] * i
    deal = Deal(np.zeros(N_COLS, np.int64), np.zeros((3, MAX_SEATS), np.uint64), np.zeros(0, np.int64),
                np.zeros((0, 3), np.int64), np.zeros((MAX_TRICKS * k, 6), np.int64),
                np.zeros((MAX_LEDGER * k, 6), np.int64), np.zeros((MAX_CLAIMS * k, 4), np.int64),
                np.zeros(0, np.int64), np.zeros((MAX_SEATS * k, N_DRAWS), np.uint64), np.zeros(MAX_SEATS, np.uint64),
                np.zeros(V_LEN, np.int64))
    seats = Seats(np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS * k, MAX_ROLLOUT_PARAMS), np.float64))
    worlds = W.Scratch(np.zeros((5, W.MAX_HOLDERS), np.int64), np.zeros((5, W.N_KEYS * k), np.float64), fact,
                       np.zeros(W.MAX_HOLDERS, np.uint64), np.zeros(64, np.int64), np.zeros(1, np.int64))
    history = History(np.zeros(N_COLS, np.int64), np.zeros((MAX_LEDGER * k, 6), np.int64),
                      np.zeros((MAX_CLAIMS * k, 4), np.int64), np.zeros(V_LEN, np.int64),
                      np.zeros(MAX_SEATS, np.uint64), np.zeros(2, np.int64), np.full(MAX_SEATS, STOP, np.int64))
    return Workspace(deal, seats, np.zeros((2, MAX_SEATS), np.uint64), np.zeros((4, MAX_SEATS), np.int64), worlds,
                     np.zeros((5, 64), np.float64), np.zeros((MAX_POOL * k, MAX_SEATS), np.uint64),
                     np.zeros(MAX_POOL * k, np.float64), history)


@njit_nrt_free
def rollout_family(params):
    """The family id of a search's rollout policy (its parameter vector follows, :func:`rollout_params`)."""
    return np.int64(params[N_OWN])


@njit_nrt_free_inline
def rollout_params(params):
    """The parameter vector of a search's rollout policy (a view of the search's; inlined where it is used)."""
    return params[N_OWN + 1:]


@njit_nrt_free_inline
def _rollout_choose(P, n, sit_out, tables, seats, deal, ws, seat, hand, legal, seen, k):
    """A rollout's card: the rollout policy's on the seat's view, through the heuristics' dispatch (never a
    search); :data:`~reversis_sim.kernel.layout.STOP` in a seat whose family is STOP (:func:`replay_history`
    ends the loop there)."""
    if seats.family[seat] == STOP:
        return STOP
    seat_plays(deal.seat_view, seat, hand, legal, seen, deal.known[seat], k)
    return dispatch.play(seats.family[seat], seats.params[seat], deal.draws[seat], deal.seat_view, tables)


_rollout_tricks = make_play_tricks(_rollout_choose)


@njit_nrt_free
def replay_history(P, n, sit_out, tables, view, tricks, ws):
    """Play the public history of the decision of ``view`` once into ``ws.deal``, up to the trick in progress, and
    keep the deal as it then stood in ``ws.history``, for every rollout of the decision to resume from
    (:func:`rollout`): the deal's facts, the antes, the declarer and his goal, and the tricks before with their
    payments and claims. The cards played are public, so this does not depend on the world: each seat holds only
    the cards it played (every card of the history is legal with them). Call it after :func:`holders` (which
    counts each seat's played cards)."""
    trick_index, n_cur, dealer = view[V_TRICK], view[V_N_CUR], view[V_DEALER]
    declarer, pool_before, double_ante = view[V_DECLARER], view[V_POOL_BEFORE], view[V_DOUBLE_ANTE]
    deal, h = ws.deal, ws.history
    row, hands, rtricks, ledger = deal.row, deal.hands, deal.tricks, deal.ledger
    start_row(row, dealer, pool_before, double_ante)
    start_view(deal.seat_view, dealer, n, sit_out, P[P_HAND_SIZE], np.uint64(P[P_DECK_MASK]), pool_before, double_ante)
    deal.seat_view[V_GOAL] = view[V_GOAL]
    antes(P, n, row, ledger, dealer, double_ante)
    row[COL_DECLARER] = declarer
    row[COL_ESP_GOAL] = view[V_GOAL]
    current = _ZERO
    for k in range(n_cur):
        current |= bit(tricks[trick_index, 1 + k])
    for s in range(MAX_SEATS):
        hands[H_NOW, s] = ws.lead[0][s]
        h.before[s] = ws.lead[0][s] & ~current
    for ti in range(trick_index + 1):
        for j in range(6):
            rtricks[ti, j] = tricks[ti, j]
    halted = Seats(h.halt, ws.seats.params)  # every seat stops the loop at the first card not in the history
    _, _, n_claims = _rollout_tricks(P, n, sit_out, tables, halted, deal, dealer, declarer, trick_index * N_ACTIVE,
                                     ws, 0, 0)
    for c in range(N_COLS):
        h.row[c] = row[c]
    for i in range(row[COL_N_PAYMENTS]):
        for j in range(6):
            h.ledger[i, j] = ledger[i, j]
    for i in range(n_claims):
        for j in range(4):
            h.claims[i, j] = deal.claims[i, j]
    for i in range(V_LEN):
        h.seat_view[i] = deal.seat_view[i]
    h.at[0] = trick_index
    h.at[1] = n_claims


@njit_nrt_free
def rollout(P, n, sit_out, tables, view, card, lead, talon_points, tricks, ws):
    """The deal played out in one world (hands at the first lead ``lead``) from the decision's history
    (:func:`replay_history`, played once for the decision): the trick in progress as it was, then ``card`` for the
    deciding seat ``view[V_SEAT]``, then the rollout policy in every seat to the end; settled. Returns the seat's
    result: its fish (minus its score under simple scoring). ``view``: the deciding seat's real view (the deal's
    public facts); the rollout's seats decide on ``ws.deal.seat_view``."""
    seat, trick_index, n_cur, dealer, declarer = view[V_SEAT], view[V_TRICK], view[V_N_CUR], view[V_DEALER], \
        view[V_DECLARER]
    deal, h = ws.deal, ws.history
    row, ledger, claims, hands, rtricks = deal.row, deal.ledger, deal.claims, deal.hands, deal.tricks
    for c in range(N_COLS):
        row[c] = h.row[c]
    for i in range(row[COL_N_PAYMENTS]):
        for j in range(6):
            ledger[i, j] = h.ledger[i, j]
    n_claims = h.at[1]
    for i in range(n_claims):
        for j in range(4):
            claims[i, j] = h.claims[i, j]
    for i in range(V_LEN):
        deal.seat_view[i] = h.seat_view[i]
    row[COL_PARTY_VALUE] = P[P_PARTY_BONUS] + talon_points  # R31
    for s in range(n):
        hands[H_NOW, s] = lead[s] & ~h.before[s]
    for j in range(6):
        rtricks[trick_index, j] = tricks[trick_index, j]
    rtricks[trick_index, 1 + n_cur] = card
    committed, breaker, n_claims = _rollout_tricks(P, n, sit_out, tables, ws.seats, deal, dealer, declarer,
                                                   trick_index * N_ACTIVE + n_cur + 1, ws, trick_index, n_claims)
    settle_deal(P, n, row, ledger, claims, n_claims, rtricks, dealer, declarer, committed, breaker)
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


