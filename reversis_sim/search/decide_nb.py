"""The numba code of the ``search`` family (declared, with how it searches, in :mod:`reversis_sim.policies.search`): the
worlds a seat samples, the card it plays (its rollouts: :mod:`.rollout_nb`)."""

from __future__ import annotations

import numpy as np
from numba import typeof

from ..kernel.bits import bit, count, lowest
from ..kernel.compiled import (
    MAX_SEATS,
    N_ACTIVE,
    P_ESP_RENOUNCE,
    P_FIRST_LEAD_HEART,
    P_HAND_SIZE,
)
from ..kernel.jit import njit_nrt_free
from ..kernel.keys_nb import PLAY, extend
from ..kernel.layout import TR_CARDS, TR_LEADER, UNKNOWN_FAMILY
from ..kernel.payments import position, round_origin, seat_of, sitting_out
from ..kernel.tricks import HEARTS
from ..kernel.units import F64_VECTOR, I64, P_TYPE, TABLES_TYPE, U64_VECTOR, Unit
from ..kernel.view import (
    V_DEALER,
    V_DECK,
    V_DECLARER,
    V_HAND,
    V_LEGAL,
    V_N_CUR,
    V_SEAT,
    V_TALON_KNOWN,
    V_TRICK,
    mask,
)
from ..policies import dispatch
from ..policies.deal_nb import PLAY_FROM
from ..policies.search import (
    N_OWN,
    SEARCH_FIRST,
    SEARCH_INFER,
    SEARCH_MARGIN,
    SEARCH_POOL,
    SEARCH_RACE,
    SEARCH_START,
    SEARCH_TAU,
    SEARCH_WINDOW,
    SEARCH_WORLDS,
)
from . import worlds as W
from .inference_nb import cumulate, loglik, relative
from .options_nb import ST_GAIN, ST_GAIN_SQ, ST_LAST, ST_WEIGHT, ST_WEIGHT_SQ, best, distinct, raced
from .rollout_nb import (
    HOLD_NEED,
    HOLD_SEAT,
    HOLD_VOID_SUITS,
    HOLD_VOIDS,
    LEAD_PLAYED,
    LEAD_WORLD,
    MAX_POOL,
    replay_history,
    rollout,
    rollout_family,
    rollout_seats,
    workspace,
    world_talon_points,
)

_SALT = 0x5EA5C4  # folds the search's purpose into its draws' key
_ZERO = np.uint64(0)


@njit_nrt_free
def weigh(P, n, tables, view, tricks, key, n_pool, inv_tau, window, ws):
    """Draw ``n_pool`` worlds of the decision of ``view`` (uniformly, :func:`draw_world`, the first draws of stream
    ``key``) into ``ws.pool`` and their log-likelihoods (:func:`.inference_nb.loglik`, of the last ``window`` cards
    the others played, 0: all) into ``ws.weight``. Returns
    (how many were drawn, the next draw index)."""
    seat, hand = view[V_SEAT], mask(view, V_HAND)
    unseen, nh, decl, decl_played = holders(P, n, view, tricks, ws)
    world = ws.lead[LEAD_WORLD]
    index = 0
    for i in range(n_pool):
        index = draw_world(P, n, seat, hand, key, index, unseen, nh, decl, decl_played, ws)
        if index < 0:
            return i, index
        for s in range(MAX_SEATS):
            ws.pool[i, s] = world[s]
        ws.weight[i] = loglik(P, n, tables, view, world, tricks, inv_tau, window, ws)
    return n_pool, index


@njit_nrt_free
def pool_worlds(params, draws, view, tables, P, n, tricks, ws, out, logw):
    """The worlds a search with inference would weigh at the decision of ``view`` (``len(out)`` of them, at most
    :data:`MAX_POOL`) into ``out`` (``uint64 (k, MAX_SEATS)``) and their log-likelihoods into ``logw``, under its
    parameters ``params`` (its ``tau`` and rollout policy). Returns how many were drawn. For tests and studies."""
    trick_index, n_cur = view[V_TRICK], view[V_N_CUR]
    rollout_seats(params, draws, view, n, ws)
    key = extend(extend(draws[PLAY + trick_index], n_cur), _SALT)
    got, _ = weigh(P, n, tables, view, tricks, key, min(out.shape[0], MAX_POOL), 1.0 / params[SEARCH_TAU],
                   np.int64(params[SEARCH_WINDOW]), ws)
    for i in range(got):
        for s in range(MAX_SEATS):
            out[i, s] = ws.pool[i, s]
        logw[i] = ws.weight[i]
    return got


@njit_nrt_free
def knowledge(P, n, view, tricks, played_by, void_suits):
    """What the deciding seat of ``view`` knows of the hidden cards, from the trick history ``tricks``: each seat's
    played cards (``played_by``), the suits each has shown it lacks (``void_suits``, bit ``s`` for suit ``s``; an
    espagnolette declarer's renounce in the first tricks shows nothing, R39; under the first lead's heart rule, a
    first lead of another suit shows the leader had no heart), and the unseen cards (returned): the
    deck less its hand, the cards played and the talon cards it knows."""
    trick_index, n_cur, dealer, declarer = view[V_TRICK], view[V_N_CUR], view[V_DEALER], view[V_DECLARER]
    origin = round_origin(n, dealer)
    for s in range(MAX_SEATS):
        played_by[s] = _ZERO
        void_suits[s] = 0
    seen = _ZERO
    for ti in range(trick_index + 1):
        m = N_ACTIVE if ti < trick_index else n_cur
        if m == 0:
            break
        p_leader = position(tricks[ti, TR_LEADER], origin, n)
        led = tricks[ti, TR_CARDS] >> 4
        for k in range(m):
            s = seat_of(p_leader + k, origin, n)
            c = tricks[ti, TR_CARDS + k]
            played_by[s] |= bit(c)
            seen |= bit(c)
            if k > 0 and (c >> 4) != led and not (s == declarer and ti < P[P_ESP_RENOUNCE]):
                void_suits[s] |= 1 << led
            elif k == 0 and ti == 0 and P[P_FIRST_LEAD_HEART] and led != HEARTS:
                void_suits[s] |= 1 << HEARTS  # R20's option: the first lead is a heart if the leader has one
    return mask(view, V_DECK) & ~mask(view, V_HAND) & ~seen & ~mask(view, V_TALON_KNOWN)


@njit_nrt_free
def holders(P, n, view, tricks, ws):
    """Set up the sampling of a decision's worlds in ``ws``: who holds the unseen cards (the other seats with cards
    left, then the talon), how many each, the suits each lacks. Returns (unseen cards, number of holders, the
    declarer's holder index or -1, the declarer's played cards)."""
    seat, dealer, declarer = view[V_SEAT], view[V_DEALER], view[V_DECLARER]
    played_by = ws.lead[LEAD_PLAYED]
    need, voids, holder_seat, void_suits = (ws.hold[HOLD_NEED], ws.hold[HOLD_VOIDS], ws.hold[HOLD_SEAT],
                                            ws.hold[HOLD_VOID_SUITS])
    unseen = knowledge(P, n, view, tricks, played_by, void_suits)
    n_tricks = P[P_HAND_SIZE]
    sit = sitting_out(n, dealer)
    nh = 0
    held = 0
    decl = -1
    for s in range(n):
        if s == seat or s == sit:
            continue
        nd = n_tricks - count(played_by[s])
        if nd > 0:
            if s == declarer:
                decl = nh
            holder_seat[nh] = s
            need[nh] = nd
            voids[nh] = void_suits[s]
            nh += 1
            held += nd
    if count(unseen) > held:
        holder_seat[nh] = -1
        need[nh] = count(unseen) - held
        voids[nh] = 0
        nh += 1
    ws.worlds.state[0] = W.NOT_COUNTED  # nothing counted yet for this decision (.worlds.sample)
    return unseen, nh, decl, played_by[declarer] if decl >= 0 else _ZERO


@njit_nrt_free
def draw_world(P, n, seat, hand, key, index, unseen, nh, decl, decl_played, ws):
    """Draw one world (:func:`.worlds.sample`) and set ``ws.lead[LEAD_WORLD][s]``: each seat's hand at the first
    lead in it. Returns the next draw index, or -1 if no world is consistent."""
    played_by, world, hold, out = ws.lead[LEAD_PLAYED], ws.lead[LEAD_WORLD], ws.hold, ws.worlds.out
    index = W.sample(P, key, index, unseen, hold[HOLD_NEED], nh, hold[HOLD_VOIDS], decl, decl_played, ws.worlds)
    if index < 0:
        return index
    for s in range(n):
        world[s] = played_by[s]
    world[seat] |= hand
    for h in range(nh):
        if hold[HOLD_SEAT][h] >= 0:
            world[hold[HOLD_SEAT][h]] |= out[h]
    return index


@njit_nrt_free
def draw_worlds(P, n, view, tricks, key, out, ws):
    """``len(out)`` worlds of the decision of ``view`` into ``out`` (``uint64 (n_worlds, MAX_SEATS)``: each seat's
    hand at the first lead); returns how many were drawn (fewer only if none is consistent). For tests and
    studies."""
    seat, hand = view[V_SEAT], mask(view, V_HAND)
    unseen, nh, decl, decl_played = holders(P, n, view, tricks, ws)
    index = 0
    for w in range(out.shape[0]):
        index = draw_world(P, n, seat, hand, key, index, unseen, nh, decl, decl_played, ws)
        if index < 0:
            return w
        for s in range(n):
            out[w, s] = ws.lead[LEAD_WORLD][s]
    return out.shape[0]


@njit_nrt_free
def decide(params, draws, view, tables, P, n, tricks, ws, play_from):
    """The card to play: the rollout policy's own card, unless another legal card does better across ``worlds``
    consistent worlds by more than ``margin`` standard errors of the paired difference (then the best such card).
    With ``race`` > 0, from world ``first`` on a card leaves the race once its gain cannot be above 0
    (:func:`raced`), and the search stops when only the own card is left. With ``infer``, the worlds are resampled
    from ``pool`` × ``worlds`` weighed ones (:func:`weigh`), or with ``pool`` 1 each world drawn counts by its
    weight (self-normalised importance sampling: weighted means, the standard error on the effective number of
    worlds, :func:`mean_se`).

    What it reads: the seat's ``view`` (:mod:`reversis_sim.kernel.view`: its hand and legal cards, the talon cards
    it knows, the declarer and his goal, the pool before the deal and whether its antes were doubled) and the trick
    history ``tricks[:view[V_TRICK]]`` (leader, cards in playing order, winner) with the trick in progress: all
    public or its own. ``n``: the seats at the table; ``play_from``: the deal skeleton its rollouts are played by
    (:data:`reversis_sim.policies.deal_nb.PLAY_FROM`). No consistent world (never seen; the sampler is exact) leaves the
    rollout policy's card."""
    seat, hand, legal, trick_index, n_cur = (view[V_SEAT], mask(view, V_HAND), mask(view, V_LEGAL), view[V_TRICK],
                                             view[V_N_CUR])
    world, stats = ws.lead[LEAD_WORLD], ws.stats
    own = _own_card(params, draws, view, tables)
    if count(legal) == 1 or trick_index < params[SEARCH_START]:
        return own
    unseen, nh, decl, decl_played = holders(P, n, view, tricks, ws)
    candidates = distinct(legal, hand, ws.lead[LEAD_PLAYED], n, own, tables)
    if candidates == bit(own):
        return own
    replay_history(P, n, tables, view, tricks, ws, play_from)
    rollout_seats(params, draws, view, n, ws)
    for c in range(64):
        stats[ST_GAIN, c] = 0.0
        stats[ST_GAIN_SQ, c] = 0.0
        stats[ST_WEIGHT, c] = 0.0
        stats[ST_WEIGHT_SQ, c] = 0.0
    key = extend(extend(draws[PLAY + trick_index], n_cur), _SALT)
    index = 0
    n_worlds = 0
    wanted = np.int64(params[SEARCH_WORLDS])
    race, first = params[SEARCH_RACE], np.int64(params[SEARCH_FIRST])
    n_pool, picked, step, u = 0, 0, 0.0, 0.0
    weighted = params[SEARCH_INFER] > 0.0 and params[SEARCH_POOL] <= 1.0
    if params[SEARCH_INFER] > 0.0:  # inference: weigh a larger draw, then resample (systematic: one uniform, steps)
        n_pool, index = weigh(P, n, tables, view, tricks, key, min(wanted * np.int64(params[SEARCH_POOL]), MAX_POOL),
                              1.0 / params[SEARCH_TAU], np.int64(params[SEARCH_WINDOW]), ws)
        if weighted:
            if n_pool == 0 or not relative(n_pool, ws):
                return own
        else:
            if n_pool == 0 or not cumulate(n_pool, ws):
                return own
            step = 1.0 / wanted
            u = W.uniform(extend(key, 1), 0) * step
    last, k = -1, 0
    for w in range(wanted):
        again = False
        wt, wt2 = 1.0, 1.0  # the world's weight, and what it adds to the sum of the squared weights
        if weighted:
            if w >= n_pool:
                break
            wt = ws.weight[w]
            if wt == 0.0:
                continue  # a world that could not have played the history
            wt2 = wt * wt
            for s in range(MAX_SEATS):
                world[s] = ws.pool[w, s]
        elif n_pool > 0:
            while picked < n_pool - 1 and ws.weight[picked] <= u:
                picked += 1
            u += step
            # drawn again: its rollouts (deterministic) are still in stats[ST_LAST], and it is one world of weight k,
            # its multiplicity, not k worlds (the square of its weight grows by (k + 1)^2 - k^2)
            again = picked == last
            k = k + 1 if again else 1
            wt2 = 2.0 * k - 1.0
            last = picked
            for s in range(MAX_SEATS):
                world[s] = ws.pool[picked, s]
        else:
            index = draw_world(P, n, seat, hand, key, index, unseen, nh, decl, decl_played, ws)
            if index < 0:
                break
        n_worlds += 1
        m = candidates if not again else _ZERO
        if m:
            talon_points = world_talon_points(P, n, world, tables)
        while m:
            c = lowest(m)
            m &= m - np.uint64(1)
            stats[ST_LAST, c] = rollout(P, n, tables, view, c, world, talon_points, tricks, ws, play_from)
        m = candidates
        while m:  # paired with the rollout policy's own card in the same world
            c = lowest(m)
            m &= m - np.uint64(1)
            d = stats[ST_LAST, c] - stats[ST_LAST, own]
            stats[ST_GAIN, c] += wt * d
            stats[ST_GAIN_SQ, c] += wt * d * d
            stats[ST_WEIGHT, c] += wt
            stats[ST_WEIGHT_SQ, c] += wt2
        if race > 0.0 and n_worlds >= first:
            candidates = raced(candidates, own, stats, race)
            if candidates == bit(own):
                break
    return best(candidates, own, stats, params[SEARCH_MARGIN])


@njit_nrt_free
def _own_card(params, draws, view, tables):
    """The rollout policy's card on the seat's real view (what a heuristic sees)."""
    legal = mask(view, V_LEGAL)
    card = dispatch.play(rollout_family(params), params[N_OWN + 1:], draws, view, tables)
    return card if card >= 0 and (legal & bit(card)) != _ZERO else lowest(legal)


def _signature():
    """``decide``'s: the seat's parameters and draws, its view, the rules' tables and parameters, the seats at the
    table, the trick history, the workspace, the deal skeleton."""
    return I64(F64_VECTOR, U64_VECTOR, P_TYPE, TABLES_TYPE, P_TYPE, I64, TABLES_TYPE, typeof(workspace(False)),
               PLAY_FROM.type)


play = Unit(decide, _signature)
"""The search's card as a unit (:mod:`reversis_sim.kernel.units`): ``play(params, draws, view, tables, P, n, tricks,
ws, play_from)``, called through its address by the engines for a seat of the ``search`` family."""


@njit_nrt_free
def no_search(params, draws, view, tables, P, n, tricks, ws, play_from):
    """What a table with no search passes where the search would be: never asked (no seat pauses for it); an
    unknown family if it were."""
    return UNKNOWN_FAMILY


NO_SEARCH = Unit(no_search, _signature)
"""The unit a table of heuristics passes for the search: nothing of the search is compiled for it."""
