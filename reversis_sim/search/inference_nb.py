"""Inference for the search (``infer=rollout``, :mod:`reversis_sim.policies.search`): how likely the cards the other
seats have played are in a world (:func:`loglik`, the history replayed with the rollout policy asked in each seat's
place), and the weights made of those log-likelihoods (:func:`cumulate` for resampling, :func:`relative` for importance
sampling). The worlds are drawn and weighed by :func:`.decide_nb.weigh`."""

from __future__ import annotations

import numpy as np

from ..kernel.bits import bit, count
from ..kernel.compiled import MAX_SEATS, N_ACTIVE, P_DECK_MASK, P_HAND_SIZE
from ..kernel.jit import njit_nrt_free
from ..kernel.layout import H_NOW, TR_CARDS, TR_LEADER, TR_WINNER
from ..kernel.payments import position, round_origin, seat_of
from ..kernel.tricks import legal_mask
from ..kernel.view import (
    V_CUR,
    V_DEALER,
    V_DECLARER,
    V_DOUBLE_ANTE,
    V_GOAL,
    V_HAND,
    V_LEADER,
    V_N_CUR,
    V_POOL_BEFORE,
    V_SEAT,
    V_STREAK,
    V_TRICK,
    mask,
    seat_plays,
    start_view,
)
from ..policies import dispatch

_ZERO = np.uint64(0)


@njit_nrt_free
def loglik(P, n, tables, view, lead, tricks, inv_tau, window, ws):
    """The log-likelihood of the cards the other seats have played so far in the deal of ``view``, were their hands
    at the first lead those of ``lead``, under the rollout seats of ``ws`` (:func:`.decide_nb.rollout_seats`)
    softened by ``1 / inv_tau``: of L legal cards, the model's card has probability e^(1/tau) / (e^(1/tau) + L - 1),
    each other one 1 / (e^(1/tau) + L - 1); a single legal card says nothing. -inf where a card played was not
    legal in that world (a guard: the sampler honours every rule of the history, the first lead's heart rule too).
    With ``window`` > 0, only the last ``window`` cards the other seats played count (the earlier ones are replayed
    for the hands and the cards seen, the model not asked): the weight's cost grows with the window, not the history.

    The history is replayed card by card as the kernel's trick loop plays it (:mod:`reversis_sim.policies.deal_nb`),
    each other seat asked on the view it had then (the deal's facts, the trick so far, the reversis streak, the
    cards seen, its hand in this world), but for the talon cards it knew, which the searching seat cannot know
    (none); the leaders and winners are the history's own, so nothing is settled and
    the replay stops at the decision."""
    seat, dealer, declarer = view[V_SEAT], view[V_DEALER], view[V_DECLARER]
    n_hist = view[V_TRICK] * N_ACTIVE + view[V_N_CUR]
    n_others = n_hist - count(lead[seat] & ~mask(view, V_HAND))  # the history less the seat's own cards
    skip = n_others - window if window > 0 else 0  # the others' cards replayed, not weighed
    j = 0
    v, hands, known = ws.deal.seat_view, ws.deal.hands, ws.deal.known
    start_view(v, dealer, n, n == MAX_SEATS, P[P_HAND_SIZE], np.uint64(P[P_DECK_MASK]), view[V_POOL_BEFORE],
               view[V_DOUBLE_ANTE])
    v[V_GOAL] = view[V_GOAL]
    v[V_DECLARER] = declarer
    for s in range(n):
        hands[H_NOW, s] = lead[s]
    origin = round_origin(n, dealer)
    e = np.exp(inv_tau)
    total = 0.0
    seen = _ZERO
    first_winner, one_winner = -1, True
    pos = 0
    for ti in range(view[V_TRICK] + 1):
        leader = tricks[ti, TR_LEADER]
        v[V_TRICK] = ti
        v[V_LEADER] = leader
        v[V_STREAK] = first_winner if (one_winner and ti > 0) else -1
        p_leader = position(leader, origin, n)
        led_suit = -1
        for k in range(N_ACTIVE):
            if pos >= n_hist:
                return total
            s = seat_of(p_leader + k, origin, n)
            card = tricks[ti, TR_CARDS + k]
            hand = hands[H_NOW, s]
            legal = legal_mask(P, hand, ti, led_suit, s == declarer)
            if (legal & bit(card)) == _ZERO:
                return -np.inf
            n_legal = count(legal)
            if s != seat:
                if n_legal > 1 and j >= skip:
                    seat_plays(v, s, hand, legal, seen, known[s], k)
                    model = dispatch.play(ws.seats.family[s], ws.seats.params[s], ws.deal.draws[s], v, tables)
                    total += (inv_tau if model == card else 0.0) - np.log(e + n_legal - 1)
                j += 1
            hands[H_NOW, s] = hand & ~bit(card)
            seen |= bit(card)
            v[V_CUR + k] = card
            if k == 0:
                led_suit = card >> 4
            pos += 1
        winner = tricks[ti, TR_WINNER]
        if ti == 0:
            first_winner = winner
        elif winner != first_winner:
            one_winner = False
    return total


@njit_nrt_free
def cumulate(n_pool, ws):
    """Turn the log-likelihoods ``ws.weight[:n_pool]`` into cumulative weights summing to 1; False if every world
    weighs nothing."""
    if not relative(n_pool, ws):
        return False
    total = 0.0
    for i in range(n_pool):
        total += ws.weight[i]
        ws.weight[i] = total
    for i in range(n_pool):
        ws.weight[i] /= total
    return True


@njit_nrt_free
def relative(n_pool, ws):
    """Turn the log-likelihoods ``ws.weight[:n_pool]`` into weights relative to the largest (1); False if every
    world weighs nothing."""
    top = -np.inf
    for i in range(n_pool):
        top = max(top, ws.weight[i])
    if top == -np.inf:
        return False
    for i in range(n_pool):
        ws.weight[i] = np.exp(ws.weight[i] - top)
    return True
