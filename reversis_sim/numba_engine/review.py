"""The reviewing table (issue 26): matches played exactly as the engine plays them, every decision of the
reviewed seats valued as it is taken.

The trick loop's chooser is the engine's (:func:`.policy.choose_play`, the seat's own card), then, for a reviewed
seat with more than one distinct legal card, :func:`reversis_sim.policies.review_nb.evaluate`: every option
played out in worlds consistent with what the seat knew, and in the true deal; the verdict goes to one decision
row. The exchange and the declaration are reviewed the same way by the deal's own exchange and declaration with
reviewing choosers (:mod:`.review_before`: each option played out from that moment). The option taken stays the
seat's own (the deal is the engine's deal, card for card), unless ``follow_best``: then the seat takes the
reviewer's best option (a player that never errs, by the reviewer's measure).

Decision rows: ``dec_i`` (``int64 (max_dec, DI_LEN)``: the deal slot, the seat, the 0-based trick, the position in
the trick, the kind, the situation flags, then :data:`~reversis_sim.policies.review_nb.S_BEST` ...) and ``dec_f``
(``float64 (max_dec, 6)``: :data:`~reversis_sim.policies.review_nb.F_VALUE_PLAYED` ...), with each option's card,
value, standard error and hindsight value in ``opts`` where it is kept (one deal reviewed).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ..constraints import MAX_STACK, TALON
from ..kernel.bits import bit, count, suit_mask
from ..kernel.compiled import (
    MAX_SEATS,
    P_COMMIT_AFTER,
    P_HAND_SIZE,
    P_REVERSIS,
)
from ..kernel.jit import njit, njit_nrt_free, njit_nrt_free_inline, njit_parallel
from ..kernel.keys_nb import PURPOSE_REVIEW, extend, fill_draws, seed_hash
from ..kernel.layout import (
    COL_DEAL,
    COL_ERROR,
    COL_FISH,
    COL_MATCH,
    COL_POOL_BEFORE,
    ERR_POOL,
    H_DEALT,
    MAX_POOL,
    PD_PLACED,
    Dealing,
    alloc,
)
from ..kernel.tricks import QUINOLA_BIT, make_play_tricks
from ..kernel.view import V_CUR, V_STREAK, V_TRICK, seat_plays
from ..policies.dispatch import UNKNOWN_FAMILY, uses_draws
from ..policies.review_nb import evaluate, review_scratch, set_rollout, summarize
from ..policies.rollout_nb import workspace
from ..policies.search_nb import searching
from .deal import make_declare, make_exchange, make_play_deal, play_deal, seat_declares, seat_exchange
from .match import next_deal
from .policy import choose_play
from .review_before import DECLARATION, before_scratch, declaration_options, evaluate_before, exchange_options

# the decision row's integer columns: where, who, what kind; then the verdict (review_nb.S_*)
DI_SLOT, DI_SEAT, DI_TRICK, DI_POS, DI_KIND, DI_FLAGS = range(6)
DI_VERDICT = 6
DI_LEN = DI_VERDICT + 5
KIND_EXCHANGE, KIND_DECLARATION, KIND_LEAD, KIND_FOLLOW, KIND_DISCARD = 0, 1, 2, 3, 4
"""Decision kinds: the exchange (its options: keep the hand, -1, or the card to discard), the declaration (its
options: :data:`.deal.DECLARE_PASS` ...), then the cards: leading, following suit, discarding off-suit. A decision
before the first lead has trick -1 and, for the exchange, its step as its position."""
FLAG_QUINOLA, FLAG_VOID, FLAG_REVERSIS, FLAG_LAST_TWO = 1, 2, 4, 8
"""Situations of a decision: the seat holds the J♥; it is void in the suit led; a reversis is committed; one of
the last two tricks."""

FOLLOW_CARDS, FOLLOW_BEFORE = 1, 2
"""``C_FOLLOW`` bits: the reviewed seats take the reviewer's best card; its best exchange and declaration."""

BLOCK = 4  # matches per parallel work item (each allocates its scratch once)

# the configuration and the cursor of a review (int64)
C_REVIEWED, C_WORLDS, C_FOLLOW, C_ONLY_DEAL, C_PER_DEAL, C_FIRST, C_MATCHES, C_DEALS, C_LUCK, C_SLOT, C_NEXT, C_END, \
    C_LEN = range(13)

ReviewState = namedtuple("ReviewState", "search review key conf dec_i dec_f opts before")
"""What the reviewing choosers carry through the deal: the table's search workspace, the reviewer's
:class:`~reversis_sim.policies.review_nb.Review`, the deal's review key (``uint64 (1,)``), the configuration and
cursor ``conf`` (``C_*``), the decision rows it writes (module docstring), and the scratch of the decisions
before the first lead (:class:`.review_before.Before`)."""

BEFORE_SALT = 1 << 16
"""Folds a decision before the first lead into its worlds' key (a card decision's key takes the trick, below)."""

ReviewOut = namedtuple("ReviewOut", "dec_i dec_f opts n_dec fish pool_before err n_played luck")
"""What :func:`review_matches_nb` writes: the decision rows (match ``i`` owns rows from ``i * n_deals *
conf[C_PER_DEAL]``, ``n_dec[i]`` of them), each deal slot's fish per seat, pool before and error, each match's
deals played, and each deal slot's luck samples (``float64 (slots, MAX_SEATS, 2)``: a reviewed seat's mean fish
over deals dealt again with its hand kept, and over deals dealt again freely, :func:`_luck`)."""

LuckScratch = namedtuple("LuckScratch", "deal dealing base h_pmatch total")
"""The deals of :func:`_luck`: their arrays, their constraints (the run's predeal ``base``, plus the seat's hand),
their policy streams, and the seats' fish summed over them (``float64 (MAX_SEATS,)``)."""


@njit_nrt_free
def _verdict(st, n_opt, nw, seat, trick, pos, kind, flags, played):
    """Write the row of a reviewed decision (:func:`~reversis_sim.policies.review_nb.summarize` its verdict) and
    return the option the seat takes: its own, or the reviewer's best where the seat follows it. Nothing to
    review (one option), or no row left: its own."""
    conf = st.conf
    i = conf[C_NEXT]
    if n_opt < 2 or i >= conf[C_END]:
        return played
    conf[C_NEXT] = i + 1
    row = st.dec_i[i]
    row[DI_SLOT] = conf[C_SLOT]
    row[DI_SEAT] = seat
    row[DI_TRICK] = trick
    row[DI_POS] = pos
    row[DI_KIND] = kind
    row[DI_FLAGS] = flags
    opts = st.opts[i if st.opts.shape[0] > i else 0]
    follow = (conf[C_FOLLOW] & (FOLLOW_BEFORE if kind < KIND_LEAD else FOLLOW_CARDS)) != 0
    best = summarize(st.review, n_opt, nw, played, follow, row[DI_VERDICT:], st.dec_f[i], opts)
    return best if follow else played


@njit_nrt_free
def _review_before(P, n, sit_out, tables, deal, st, seat, step, own, must, choice):
    """Value the options of a reviewed seat's exchange (``step`` < :data:`.review_before.DECLARATION`; ``own``: its
    hand, ``must``: it must discard) or declaration (``choice``: its own option); write its row; return the option
    the seat takes."""
    r, b = st.review, st.before
    if step < DECLARATION:
        n_opt = exchange_options(own, must, choice, r.cards, b, n, tables)
        kind = KIND_EXCHANGE
    else:
        n_opt = declaration_options(P, r.cards)
        kind = KIND_DECLARATION
    for s in range(n):  # the rollout seats' draws, the reviewer's
        for j in range(b.deal.draws.shape[1]):
            b.deal.draws[s, j] = r.ws.deal.draws[s, j]
    key = extend(extend(extend(st.key[0], seat), BEFORE_SALT), step)
    nw = evaluate_before(P, n, tables, deal, b, r, seat, step, own, n_opt, key, st.conf[C_WORLDS])
    if nw == 0:
        return choice
    flags = FLAG_QUINOLA if (own & QUINOLA_BIT) != np.uint64(0) else 0
    return _verdict(st, n_opt, nw, seat, -1, step if step < DECLARATION else 0, kind, flags, choice)


@njit_nrt_free_inline
def _reviewing_exchange(P, n, sit_out, tables, seats, deal, st, k, seat, hand, must):
    """The engine's exchange choice (:func:`.deal.seat_exchange`), reviewed where the seat is."""
    choice = seat_exchange(P, n, sit_out, tables, seats, deal, st, k, seat, hand, must)
    if ((st.conf[C_REVIEWED] >> seat) & 1) == 0 or (choice >= 0 and (hand & bit(choice)) == np.uint64(0)) \
            or (choice < 0 and (must or choice == UNKNOWN_FAMILY)):
        return choice
    return _review_before(P, n, sit_out, tables, deal, st, seat, k, hand, must, choice)


@njit_nrt_free_inline
def _reviewing_declaration(P, n, sit_out, tables, seats, deal, st, seat, hand):
    """The engine's declaration option (:func:`.deal.seat_declares`), reviewed where the seat is."""
    option = seat_declares(P, n, sit_out, tables, seats, deal, st, seat, hand)
    if ((st.conf[C_REVIEWED] >> seat) & 1) == 0 or option == UNKNOWN_FAMILY:
        return option
    return _review_before(P, n, sit_out, tables, deal, st, seat, DECLARATION, hand, False, option)


@njit_nrt_free
def _review(P, n, sit_out, tables, deal, st, seat, hand, legal, seen, k, card):
    """Value the options of a reviewed seat's decision (the engine chose ``card``); write its row; return the card
    the seat plays."""
    view = deal.seat_view
    seat_plays(view, seat, hand, legal, seen, deal.known[seat], k)
    conf = st.conf
    key = extend(extend(extend(st.key[0], seat), view[V_TRICK]), k)
    n_opt, nw = evaluate(P, n, sit_out, tables, view, deal, key, conf[C_WORLDS], card, st.review)
    ti = view[V_TRICK]
    if k == 0:
        kind = KIND_LEAD
    elif (hand & suit_mask(view[V_CUR] >> 4)) != np.uint64(0):
        kind = KIND_FOLLOW
    else:
        kind = KIND_DISCARD
    flags = 0
    if (hand & QUINOLA_BIT) != np.uint64(0):
        flags |= FLAG_QUINOLA
    if kind == KIND_DISCARD:
        flags |= FLAG_VOID
    if P[P_REVERSIS] and ti >= P[P_COMMIT_AFTER] and view[V_STREAK] >= 0:
        flags |= FLAG_REVERSIS
    if ti >= P[P_HAND_SIZE] - 2:
        flags |= FLAG_LAST_TWO
    return _verdict(st, n_opt, nw, seat, ti, k, kind, flags, card)


@njit_nrt_free_inline
def _reviewing_choose(P, n, sit_out, tables, seats, deal, st, seat, hand, legal, seen, k):
    """The engine's card (:func:`.policy.choose_play`), reviewed where the seat is (:func:`_review`)."""
    card = choose_play(P, n, sit_out, tables, seats, deal, st.search, seat, hand, legal, seen, k)
    if card < 0 or ((st.conf[C_REVIEWED] >> seat) & 1) == 0 or count(legal) < 2 or (legal & bit(card)) == 0:
        return card
    return _review(P, n, sit_out, tables, deal, st, seat, hand, legal, seen, k, card)


review_deal = make_play_deal(make_play_tricks(_reviewing_choose), make_exchange(_reviewing_exchange),
                             make_declare(_reviewing_declaration))
"""One deal of the engine, its reviewed seats' decisions valued as they are taken."""


@njit_nrt_free
def _luck(rules, n, sit_out, seats, dealt, d, key, state, lk, ws, luck):
    """The luck of each reviewed seat's dealt hand in deal slot ``state[4]``: the table's policies play deal ``d``
    again (the same dealer, pool before ``state[0]`` and doubled antes ``state[1]``) ``state[2]`` times with the
    seat's hand ``dealt[s]`` kept and the other cards dealt anew, and as many times dealt anew entirely (shared by
    the seats), each sample keyed by ``key``; ``luck[slot, s]`` gets the two mean fish of the seat (its luck is
    their difference: E[fish | its hand] - E[fish], an unbiased estimate of both). The run's constraints hold in
    every sample; a sample they reject is left out."""
    pool_before, double_ante, n_samples, reviewed, slot = state[0], state[1], state[2], state[3], state[4]
    predeal, base, row = lk.dealing.predeal, lk.base, lk.deal.row
    for s in range(n + 1):  # seat s, then (s == n) the free deals
        if s < n and ((reviewed >> s) & 1) == 0:
            continue
        total = lk.total
        for t in range(MAX_SEATS):
            total[t] = 0.0
        m = 0
        for j in range(len(base)):
            predeal[j] = base[j]
        if s < n:
            predeal[s] = dealt[s]
            predeal[PD_PLACED] = base[PD_PLACED] | dealt[s]
        for sample in range(n_samples):
            h = extend(extend(key, s), sample)
            for t in range(MAX_SEATS):
                lk.h_pmatch[t] = extend(h, t + 1)
            play_deal(rules, n, sit_out, seats, h, lk.h_pmatch, d, pool_before, double_ante, lk.deal, ws,
                      lk.dealing)
            if row[COL_ERROR]:
                continue
            m += 1
            for t in range(n):
                total[t] += row[COL_FISH + t]
        for t in range(n):
            if s == n or t == s:
                luck[slot, t, 0 if s < n else 1] = total[t] / m if m else np.nan


@njit_parallel
def review_matches_nb(rules, n_seats, sit_out, seats, seed, policy_seeds, constraint, reviewer, conf0, out):
    """Play and review matches ``conf0[C_FIRST] ..`` (``conf0[C_MATCHES]`` of them, ``conf0[C_DEALS]`` deals each)
    into ``out`` (:class:`ReviewOut`). ``conf0``: ``C_REVIEWED`` the reviewed seats' bit mask, ``C_WORLDS``,
    ``C_FOLLOW`` (:data:`FOLLOW_CARDS`, :data:`FOLLOW_BEFORE`), ``C_ONLY_DEAL`` the one deal to review or -1,
    ``C_PER_DEAL`` the most decisions a deal can hold;
    ``reviewer``: the rollout policy (a one-seat :class:`~reversis_sim.kernel.layout.Seats`); the other arguments
    as :func:`.match.play_matches_nb`'s. Deal by deal the matches are those of a run with the same seats, unless
    the reviewed seats follow the reviewer's best."""
    P = rules.P
    first_match, n_matches, n_deals = conf0[C_FIRST], conf0[C_MATCHES], conf0[C_DEALS]
    rollout_family = reviewer.family[0]
    dec_i, dec_f, opts, n_dec, fish, pool_out, err, n_played, luck = out
    h_seed = seed_hash(seed)
    n_blocks = (n_matches + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):  # blocks of matches, as play_matches_nb (a write indexed by the prange index was lost)
        deal = alloc()
        row = deal.row
        conf = conf0.copy()
        st = ReviewState(workspace(searching(seats.family, n_seats)), review_scratch(), np.zeros(1, np.uint64), conf,
                         dec_i, dec_f, opts, before_scratch())
        set_rollout(st.review, reviewer, n_seats)
        reviewed = conf0[C_REVIEWED]
        dealing = Dealing(constraint[0], constraint[1], np.zeros(MAX_STACK, np.int64), np.zeros(TALON + 1, np.uint64))
        lk = LuckScratch(alloc(), Dealing(constraint[0].copy(), constraint[1], np.zeros(MAX_STACK, np.int64),
                                          np.zeros(TALON + 1, np.uint64)), constraint[0],
                         np.empty(MAX_SEATS, np.uint64), np.zeros(MAX_SEATS, np.float64))
        state = np.zeros(5, np.int64)
        h_pmatch = np.empty(MAX_SEATS, np.uint64)
        score = np.zeros(MAX_SEATS, np.int64)
        for i in range(b * BLOCK, min(n_matches, (b + 1) * BLOCK)):
            match = first_match + i
            h_match = extend(h_seed, match)
            for s in range(MAX_SEATS):
                h_pmatch[s] = extend(seed_hash(policy_seeds[s]), match)
                score[s] = 0
            base = i * n_deals * conf0[C_PER_DEAL]
            conf[C_NEXT] = base
            conf[C_END] = base + n_deals * conf0[C_PER_DEAL]
            pool = 0
            double_ante = 0
            played = n_deals
            for d in range(n_deals):
                r = i * n_deals + d
                row[COL_MATCH] = match
                row[COL_DEAL] = d
                if pool > MAX_POOL:
                    err[r] = ERR_POOL
                    played = d + 1
                    break
                conf[C_SLOT] = r
                conf[C_REVIEWED] = reviewed if (conf0[C_ONLY_DEAL] < 0 or conf0[C_ONLY_DEAL] == d) else 0
                st.key[0] = extend(extend(h_match, d), PURPOSE_REVIEW)
                if uses_draws(rollout_family):
                    for s in range(n_seats):
                        fill_draws(extend(st.key[0], s), P[P_HAND_SIZE], 1, st.review.ws.deal.draws[s])
                state[0], state[1], state[2], state[3], state[4] = pool, double_ante, conf0[C_LUCK], conf[C_REVIEWED], r
                pool = review_deal(rules, n_seats, sit_out, seats, h_match, h_pmatch, d, pool, double_ante, deal, st,
                                   dealing)
                pool_out[r] = row[COL_POOL_BEFORE]
                if state[2] > 0 and state[3] != 0 and row[COL_ERROR] == 0:
                    _luck(rules, n_seats, sit_out, seats, deal.hands[H_DEALT], d, extend(st.key[0], MAX_SEATS + 1),
                          state, lk, st.search, luck)
                for s in range(n_seats):
                    fish[r, s] = row[COL_FISH + s]
                err[r] = row[COL_ERROR]
                pool, double_ante, over = next_deal(P, row, pool, score)
                if over or row[COL_ERROR]:
                    played = d + 1
                    break
            n_played[i] = played
            n_dec[i] = conf[C_NEXT] - base


@njit
def review_matches_four(rules, seats, seed, policy_seeds, constraint, reviewer, conf0, out):
    """:func:`review_matches_nb` at a four-seat table."""
    review_matches_nb(rules, 4, False, seats, seed, policy_seeds, constraint, reviewer, conf0, out)


@njit
def review_matches_five(rules, seats, seed, policy_seeds, constraint, reviewer, conf0, out):
    """:func:`review_matches_nb` at a five-seat table whose dealer sits out (``modern_five``)."""
    review_matches_nb(rules, MAX_SEATS, True, seats, seed, policy_seeds, constraint, reviewer, conf0, out)
