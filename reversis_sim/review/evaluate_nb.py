"""The value of every option of a card decision, from what the deciding seat knew: the review's numba core
(the reviewing table is :mod:`reversis_sim.review.table_nb`).

The options are the seat's distinct legal cards (:func:`reversis_sim.search.options_nb.distinct`: one of each set of
equivalent cards, the card it played for its own set). Each is played out in the same ``n_worlds`` worlds consistent
with the seat's information (:func:`reversis_sim.search.decide_nb.draw_world`, sampled as the search samples them) by
the same rollout policy in every seat (:func:`reversis_sim.search.rollout_nb.rollout`), so the options are compared on
common random numbers: the loss of the card played against the best is a paired difference whose standard error is that
of the per-world differences; half the worlds choose the best, the other half measure (:func:`summarize`). Then the
*hindsight* values: each option played out once in the true deal (every hand known), as bridge's double-dummy
analysis shows it.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import typeof, types

from ..kernel.bits import lowest
from ..kernel.compiled import MAX_SEATS, P_PARTY_BONUS
from ..kernel.jit import njit_nrt_free
from ..kernel.layout import COL_PARTY_VALUE, H_LEAD
from ..kernel.units import I64, P_TYPE, TABLES_TYPE, Unit, deal_type
from ..kernel.view import V_HAND, V_LEGAL, V_SEAT, V_TALON_KNOWN, mask
from ..policies.deal_nb import PLAY_FROM
from ..search.decide_nb import draw_world, holders
from ..search.options_nb import distinct
from ..search.rollout_nb import LEAD_PLAYED, LEAD_WORLD, replay_history, rollout, workspace, world_talon_points
from .row import (
    F_H_LOSS,
    F_H_PLAYED,
    F_LOSS,
    F_LOSS_SE,
    F_VALUE_BEST,
    F_VALUE_PLAYED,
    S_BEST,
    S_H_BEST,
    S_N_OPTIONS,
    S_N_WORLDS,
    S_PLAYED,
)

MAX_WORLDS = 1024
"""The most worlds a decision is reviewed in (``--worlds``)."""
MAX_OPTIONS = 16
"""The most distinct options of a card decision (a hand has at most 13 cards)."""

COUNT_OPTIONS, COUNT_WORLDS = range(2)
"""The cells of ``Review.count``: the options of the decision in review, the worlds they were played out in."""
O_CARD, O_VALUE, O_SE, O_HINDSIGHT = range(4)
"""The columns of an option's row (``opts``, :func:`summarize`): the option, its value, its standard error, its
value in the true deal."""

Review = namedtuple("Review", "ws cards values count")
"""A reviewer's scratch (one per thread): ``ws``, a search :class:`~reversis_sim.search.rollout_nb.Workspace` whose
rollout seats hold the reviewer's rollout policy (:func:`set_rollout`); ``cards`` int64 ``(MAX_OPTIONS,)``: the options
of the decision in review; ``values`` float64 ``(MAX_WORLDS + 1, MAX_OPTIONS)``: each option's result in each world, the
last row its result in the true deal; ``count`` int64 ``(2,)``: the options and the worlds played out."""


def review_scratch() -> Review:
    """A :class:`Review` to fill (numpy)."""
    return Review(workspace(True), np.zeros(MAX_OPTIONS, np.int64), np.zeros((MAX_WORLDS + 1, MAX_OPTIONS), np.float64),
                  np.zeros(COUNT_WORLDS + 1, np.int64))


def set_rollout(r: Review, reviewer, n: int) -> None:
    """The reviewer's rollout policy (``reviewer``: a one-seat :class:`~reversis_sim.kernel.layout.Seats`, a
    heuristic family and its parameters) in every seat of its rollouts (numpy)."""
    params = reviewer.params[0]
    k = min(len(params), r.ws.seats.params.shape[1])
    r.ws.seats.family[:n] = reviewer.family[0]
    r.ws.seats.params[:n] = 0.0
    r.ws.seats.params[:n, :k] = params[:k]


@njit_nrt_free
def evaluate(P, n, tables, view, deal, key, n_worlds, played, r, play_from):
    """Play out every option of the decision of ``view`` (the seat's real view) in the deal ``deal`` (a
    :class:`~reversis_sim.kernel.layout.Deal` in play: its trick history) in ``n_worlds`` worlds drawn with
    ``key``, then in the true deal (each seat's hand at the first lead, the talon's points, the talon card each
    seat knows), into ``r.values``, by the deal skeleton ``play_from``. Sets ``r.count`` to (options, worlds drawn)
    and returns the worlds; one option: nothing to review (every legal card is equivalent), nothing played out."""
    seat, hand, legal = view[V_SEAT], mask(view, V_HAND), mask(view, V_LEGAL)
    tricks, true_lead, true_known = deal.tricks, deal.hands[H_LEAD], deal.known
    true_talon_points = deal.row[COL_PARTY_VALUE] - P[P_PARTY_BONUS]
    ws, cards, values = r.ws, r.cards, r.values
    unseen, nh, decl, decl_played = holders(P, n, view, tricks, ws)
    options = distinct(legal, hand, ws.lead[LEAD_PLAYED], n, played, tables)
    n_opt = 0
    m = options
    while m and n_opt < MAX_OPTIONS:
        cards[n_opt] = lowest(m)
        m &= m - np.uint64(1)
        n_opt += 1
    r.count[COUNT_OPTIONS] = n_opt
    r.count[COUNT_WORLDS] = 0
    if n_opt < 2:
        return 0
    replay_history(P, n, tables, view, tricks, ws, play_from)
    known = ws.deal.known
    for s in range(MAX_SEATS):  # the rollout seats: only the deciding seat knows its talon card
        known[s] = mask(view, V_TALON_KNOWN) if s == seat else np.uint64(0)
    index = 0
    nw = 0
    for _ in range(min(n_worlds, MAX_WORLDS)):
        index = draw_world(P, n, seat, hand, key, index, unseen, nh, decl, decl_played, ws)
        if index < 0:
            break
        world = ws.lead[LEAD_WORLD]
        talon_points = world_talon_points(P, n, world, tables)
        for j in range(n_opt):
            values[nw, j] = rollout(P, n, tables, view, cards[j], world, talon_points, tricks, ws, play_from)
        nw += 1
    for s in range(MAX_SEATS):  # hindsight: the true deal, each seat knowing what it really knew
        known[s] = true_known[s]
    for j in range(n_opt):
        values[MAX_WORLDS, j] = rollout(P, n, tables, view, cards[j], true_lead, true_talon_points, tricks, ws,
                                        play_from)
    r.count[COUNT_WORLDS] = nw
    return nw


EVALUATE = Unit(evaluate, lambda: I64(P_TYPE, I64, TABLES_TYPE, P_TYPE, deal_type(), types.uint64, I64, I64,
                                      typeof(review_scratch()), PLAY_FROM.type))
"""The valuation of a card decision as a unit (:mod:`reversis_sim.kernel.units`): ``evaluate(P, n, tables, view,
deal, key, n_worlds, played, r, play_from)``, compiled once for the reviewing table and a record's review."""


@njit_nrt_free
def summarize(r, n_opt, nw, played, follow, out_i, out_f, opts):
    """The verdict of a decision :func:`evaluate` played out, on two independent halves of its worlds: the first
    half chooses the best option (the highest mean; the card played where it ties), the second half measures every
    value, so that the loss of the card played (the best option's value minus its own, paired world by world, with
    the standard error of the paired differences) is not biased upwards by the choice (the largest of noisy means
    is too large: at 16 worlds about as large as the losses it would measure). A loss can then be negative: the
    reviewer's choice measured worse on fresh worlds. (One world: it chooses and measures.)

    Writes ``out_i`` (the best option, the one played, the best in hindsight, the options, the worlds: ``S_*``),
    ``out_f`` (the played and best options' values, the loss and its standard error, the hindsight loss and the
    played option's hindsight value: ``F_*``) and, where ``opts`` has rows (``float64 (MAX_OPTIONS, 4)``), each
    option's card, value, standard error and hindsight value. ``follow``: the seat plays the best option instead of
    ``played`` (its loss is 0). Returns the best option."""
    cards, values = r.cards, r.values
    jp = 0
    for j in range(n_opt):
        if cards[j] == played:
            jp = j
    n_choose = nw // 2 if nw > 1 else nw
    lo = n_choose if nw > 1 else 0  # the measuring worlds: lo .. nw - 1
    m = nw - lo
    best, best_sum = jp, -1e300
    h_best = jp
    for j in range(n_opt):
        s = 0.0
        for w in range(n_choose):
            s += values[w, j]
        if s > best_sum or (s == best_sum and j == jp):
            best, best_sum = j, s
        if values[MAX_WORLDS, j] > values[MAX_WORLDS, h_best]:
            h_best = j
    s_played = 0.0
    for w in range(n_choose):
        s_played += values[w, jp]
    if best_sum <= s_played:  # ties, and float rounding of equal sums, go to the card played
        best = jp
    if follow:
        jp = best
    for j in range(n_opt):
        s = 0.0
        ss = 0.0
        for w in range(lo, nw):
            s += values[w, j]
            ss += values[w, j] * values[w, j]
        mean = s / m if m > 0 else 0.0
        if j == jp:
            out_f[F_VALUE_PLAYED] = mean
        if j == best:
            out_f[F_VALUE_BEST] = mean
        if opts.shape[0] > j:
            var = max(ss - m * mean * mean, 0.0) / (m - 1) if m > 1 else 0.0
            opts[j, O_CARD] = cards[j]
            opts[j, O_VALUE] = mean
            opts[j, O_SE] = np.sqrt(var / m) if m > 0 else 0.0
            opts[j, O_HINDSIGHT] = values[MAX_WORLDS, j]
    sd = 0.0
    sdd = 0.0
    for w in range(lo, nw):
        d = values[w, best] - values[w, jp]
        sd += d
        sdd += d * d
    loss = sd / m if m > 0 else 0.0
    var = max(sdd - m * loss * loss, 0.0) / (m - 1) if m > 1 else 0.0
    if values[MAX_WORLDS, h_best] <= values[MAX_WORLDS, jp]:  # ties in hindsight go to the card played
        h_best = jp
    out_i[S_BEST] = cards[best]
    out_i[S_PLAYED] = cards[jp]
    out_i[S_H_BEST] = cards[h_best]
    out_i[S_N_OPTIONS] = n_opt
    out_i[S_N_WORLDS] = nw
    out_f[F_LOSS] = loss
    out_f[F_LOSS_SE] = np.sqrt(var / m) if m > 0 else 0.0
    out_f[F_H_LOSS] = values[MAX_WORLDS, h_best] - values[MAX_WORLDS, jp]
    out_f[F_H_PLAYED] = values[MAX_WORLDS, jp]
    return cards[best]
