"""The reviewing table: matches played exactly as the engine plays them, every decision of the
reviewed seats valued as it is taken.

The trick loop's chooser is the engine's (:func:`reversis_sim.policies.choose_nb.card_choice`, the seat's own card),
then, for a reviewed seat with more than one distinct legal card, :func:`reversis_sim.review.evaluate_nb.evaluate`:
every option played out in worlds consistent with what the seat knew, and in the true deal; the verdict goes to one
decision row. The exchange and the declaration are reviewed the same way by the deal's own exchange and declaration with
reviewing choosers (:mod:`.before_nb`: each option played out from that moment). The option taken stays the
seat's own (the deal is the engine's deal, card for card), unless ``follow_best``: then the seat takes the
reviewer's best option (a player that never errs, by the reviewer's measure).

Decision rows: ``dec_i`` (``int64 (max_dec, DI_LEN)``) and ``dec_f`` (``float64 (max_dec, F_LEN)``), their columns
declared once in :mod:`.row` (the deal slot, the seat, the 0-based trick ..., then the verdict), with each option's
card, value, standard error and hindsight value in ``opts`` where it is kept (one deal reviewed).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..kernel.bits import bit, count, suit_mask
from ..kernel.compiled import MAX_SEATS, P_COMMIT_AFTER, P_HAND_SIZE, P_REVERSIS
from ..kernel.jit import njit_nrt_free
from ..kernel.keys_nb import PURPOSE_REVIEW, extend, fill_draws, seed_hash
from ..kernel.layout import (
    ASK_CARD,
    ASK_EXCHANGE,
    AT_CHOICE,
    AT_FORCED,
    AT_FORCED_DECL,
    AT_FORCED_EXCH,
    AT_KIND,
    AT_OWN,
    AT_OWN_TOO,
    AT_SEAT,
    AT_STEP,
    AT_STOP,
    AT_STOP_FORCED,
    COL_DEAL,
    COL_ERROR,
    COL_FISH,
    COL_MATCH,
    COL_POOL_AFTER,
    COL_POOL_BEFORE,
    ERR_POOL,
    EX_CARD,
    H_DEALT,
    H_NOW,
    MAX_POOL,
    NO_CHOICE,
    PAUSED,
    PD_PLACED,
    UNKNOWN_FAMILY,
    Seats,
    alloc,
    dealing,
)
from ..kernel.tricks import QUINOLA_BIT
from ..kernel.view import V_CUR, V_HAND, V_IS_DEALER, V_LEGAL, V_MUST_DISCARD, V_N_CUR, V_STREAK, V_TRICK, mask
from ..numba_engine.deal import play_deal, start_deal
from ..numba_engine.match import next_deal
from ..policies.deal_nb import begin
from ..policies.dispatch import uses_draws
from ..search.rollout_nb import workspace
from .before_nb import DECLARATION, before_scratch, declaration_options, exchange_options
from .evaluate_nb import COUNT_OPTIONS, review_scratch, set_rollout, summarize
from .marks import (
    FLAG_LAST_TWO,
    FLAG_QUINOLA,
    FLAG_REVERSIS,
    FLAG_VOID,
    KIND_DECLARATION,
    KIND_DISCARD,
    KIND_EXCHANGE,
    KIND_FOLLOW,
    KIND_LEAD,
)
from .row import DI_FLAGS, DI_KIND, DI_POS, DI_SEAT, DI_SLOT, DI_TRICK, DI_VERDICT

# Decision kinds (KIND_*) and situation flags (FLAG_*) are declared once, with their names, in .marks. The exchange's
# options: keep the hand, -1, or the card to discard; the declaration's: policies.view.DECLARE_*. A decision before
# the first lead has trick -1 and, for the exchange, its step as its position.

FOLLOW_CARDS, FOLLOW_BEFORE = 1, 2
"""``C_FOLLOW`` bits: the reviewed seats take the reviewer's best card; its best exchange and declaration."""

BLOCK = 4  # matches per parallel work item (each allocates its scratch once)

# the configuration and the cursor of a review (int64)
C_REVIEWED, C_WORLDS, C_FOLLOW, C_ONLY_DEAL, C_PER_DEAL, C_FIRST, C_MATCHES, C_DEALS, C_LUCK, C_SLOT, C_NEXT, C_END, \
    C_LEN = range(13)

ReviewState = namedtuple("ReviewState", "search review key conf dec_i dec_f opts before")
"""What the reviewing table carries through a deal: the table's search workspace, the reviewer's
:class:`~reversis_sim.review.evaluate_nb.Review`, the deal's review key (``uint64 (1,)``), the configuration and
cursor ``conf`` (``C_*``), the decision rows it writes (module docstring), and the scratch of the decisions
before the first lead (:class:`.before_nb.Before`)."""

Units = namedtuple("Units", "play_from search evaluate evaluate_before")
"""The units a reviewed deal is played and valued with (:mod:`reversis_sim.kernel.units`): the deal skeleton, the
search's card (or its stub), the valuation of a card decision and of an exchange or a declaration."""

BEFORE_SALT = 1 << 16
"""Folds a decision before the first lead into its worlds' key (a card decision's key takes the trick, below)."""

ReviewOut = namedtuple("ReviewOut", "dec_i dec_f opts n_dec fish pool_before err n_played luck")
"""What :func:`review_blocks` writes: the decision rows (match ``i`` owns rows from ``i * n_deals *
conf[C_PER_DEAL]``, ``n_dec[i]`` of them), each deal slot's fish per seat, pool before and error, each match's
deals played, and each deal slot's luck samples (``float64 (slots, MAX_SEATS, 2)``: a reviewed seat's mean fish
over deals dealt again with its hand kept, and over deals dealt again freely, :func:`_luck`)."""

Luck = namedtuple("Luck", "deal dealing base h_pmatch total")
"""The deals of :func:`_luck`: their arrays, their constraints (the run's predeal ``base``, plus the seat's hand),
their policy streams, and the seats' fish summed over them (``float64 (MAX_SEATS,)``)."""

LuckAsk = namedtuple("LuckAsk", "d key pool_before double_ante n_samples reviewed slot")
"""What :func:`_luck` measures: deal ``d`` played again from its pool before and doubled antes, ``n_samples`` times
per reviewed seat (``reviewed``, a bit mask) under ``key``, into deal slot ``slot``."""

Scratch = namedtuple("Scratch", "deal st dealing luck h_pmatch score")
"""One thread's scratch for :func:`review_blocks` (:func:`scratch`)."""


@njit_nrt_free
def _verdict(st, n_opt, nw, seat, trick, pos, kind, flags, played):
    """Write the row of a reviewed decision (:func:`~reversis_sim.review.evaluate_nb.summarize` its verdict) and
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
def _review_before(P, n, tables, deal, st, seat, step, own, must, choice, units):
    """Value the options of a reviewed seat's exchange (``step`` < :data:`.before_nb.DECLARATION`; ``own``: its
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
    r.count[COUNT_OPTIONS] = n_opt
    nw = units.evaluate_before(P, n, tables, deal, b, r, seat, step, own, key, st.conf[C_WORLDS], units.play_from)
    if nw == 0:
        return choice
    flags = FLAG_QUINOLA if (own & QUINOLA_BIT) != np.uint64(0) else 0
    return _verdict(st, n_opt, nw, seat, -1, step if step < DECLARATION else 0, kind, flags, choice)


@njit_nrt_free
def _review_card(P, n, tables, deal, st, seat, card, units):
    """Value the options of a reviewed seat's card (it chose ``card``; its view set at the pause); write its row;
    return the card the seat plays."""
    view = deal.seat_view
    hand, ti, k = mask(view, V_HAND), view[V_TRICK], view[V_N_CUR]
    key = extend(extend(extend(st.key[0], seat), ti), k)
    nw = units.evaluate(P, n, tables, view, deal, key, st.conf[C_WORLDS], card, st.review, units.play_from)
    n_opt = st.review.count[COUNT_OPTIONS]
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


@njit_nrt_free
def decide(P, n, tables, seats, deal, st, units):
    """The choice of the decision the deal paused at (:mod:`reversis_sim.policies.deal_nb`): the seat's own (its
    family's, or the search's card), valued first where the seat is reviewed and has more than one option."""
    at, view = deal.at, deal.seat_view
    seat, own = at[AT_SEAT], at[AT_OWN]
    reviewed = (st.conf[C_REVIEWED] >> seat) & 1
    hand = mask(view, V_HAND)
    if at[AT_KIND] == ASK_CARD:
        if own == NO_CHOICE:
            own = units.search(seats.params[seat], deal.draws[seat], view, tables, P, n, deal.tricks, st.search,
                               units.play_from)
        legal = mask(view, V_LEGAL)
        if own < 0 or not reviewed or count(legal) < 2 or (legal & bit(own)) == np.uint64(0):
            return own
        return _review_card(P, n, tables, deal, st, seat, own, units)
    if at[AT_KIND] == ASK_EXCHANGE:
        must = view[V_MUST_DISCARD] != 0 or view[V_IS_DEALER] != 0
        if (own >= 0 and (hand & bit(own)) == np.uint64(0)) or (own < 0 and (must or own == UNKNOWN_FAMILY)):
            return own
        return _review_before(P, n, tables, deal, st, seat, at[AT_STEP], hand, must, own, units)
    if own == UNKNOWN_FAMILY:
        return own
    return _review_before(P, n, tables, deal, st, seat, DECLARATION, hand, False, own, units)


@njit_nrt_free
def review_deal(P, n, tables, seats, deal, st, units):
    """Play a started deal (:func:`reversis_sim.numba_engine.deal.start_deal`, or a record's, :func:`review_record_nb`)
    to its end, its reviewed seats' decisions valued as they are taken (:func:`decide`)."""
    deal.at[AT_STOP] = st.conf[C_REVIEWED]
    deal.at[AT_OWN_TOO] = 1
    while units.play_from(P, n, tables, seats, deal) == PAUSED:
        deal.at[AT_CHOICE] = decide(P, n, tables, seats, deal, st, units)


Record = namedtuple("Record", "facts dealt offered exch tricks")
"""A deal record as the kernel plays it again (:func:`review_record_nb`): ``facts`` int64 (``RF_*``), the hands
dealt (``uint64 (MAX_SEATS,)``), the talon card offered to each seat (``int64``, -1 none), each exchange step's
choice (``int64 (4,)``: the discard, -1 to keep), the tricks as the kernel keeps them (``int64 (MAX_TRICKS, 6)``)."""
RF_DEALER, RF_POOL, RF_DOUBLE_ANTE, RF_N_EXCH, RF_DECLARE, RF_N_CARDS, RF_LEN = range(7)
"""A record's facts: its dealer, the pool carried in, the doubled antes, the exchange steps, the declaration option
(``NO_CHOICE`` where nobody could declare), the cards played."""


@njit_nrt_free
def start_record(rules, n, rec, deal, st):
    """Start the deal of the record ``rec`` (:class:`Record`) in ``deal``, every decision in it taken already, and
    draw the reviewer's rollout streams under the review's key ``st.key``."""
    P, f = rules.P, rec.facts
    begin(P, n, deal, f[RF_DEALER], f[RF_POOL], f[RF_DOUBLE_ANTE])
    for s in range(MAX_SEATS):
        deal.hands[H_DEALT, s] = rec.dealt[s]
        deal.hands[H_NOW, s] = rec.dealt[s]
        deal.offered[s] = rec.offered[s]
    for k in range(f[RF_N_EXCH]):
        deal.exch[k, EX_CARD] = rec.exch[k]
    for ti in range(rec.tricks.shape[0]):
        for j in range(6):
            deal.tricks[ti, j] = rec.tricks[ti, j]
    at = deal.at
    at[AT_FORCED_EXCH] = f[RF_N_EXCH]
    at[AT_FORCED_DECL] = f[RF_DECLARE]
    at[AT_FORCED] = f[RF_N_CARDS]
    if uses_draws(st.review.ws.seats.family[0]):
        for s in range(n):
            fill_draws(extend(st.key[0], s), P[P_HAND_SIZE], 1, st.review.ws.deal.draws[s])


@njit_nrt_free
def review_record_nb(rules, n, seats, rec, deal, st, units):
    """The decisions of the reviewed seats (``st.conf[C_REVIEWED]``) in the record ``rec``, each valued as
    :func:`decide` values them in the reviewing table, with the choice taken in the record: the decision rows of
    ``st`` from ``st.conf[C_NEXT]`` on. ``seats``: any heuristics (every decision is the record's)."""
    start_record(rules, n, rec, deal, st)
    deal.at[AT_STOP_FORCED] = 1
    review_deal(rules.P, n, rules.tables, seats, deal, st, units)


@njit_nrt_free
def review_card_nb(rules, n, seats, rec, deal, st, units, card):
    """The decision after the last card of the record ``rec`` (a deal in progress), valued with ``card`` as the
    card played: one decision row in ``st`` (none where every legal card comes to the same). Returns its seat."""
    start_record(rules, n, rec, deal, st)
    deal.at[AT_STOP] = (1 << MAX_SEATS) - 1
    units.play_from(rules.P, n, rules.tables, seats, deal)
    seat = deal.at[AT_SEAT]
    _review_card(rules.P, n, rules.tables, deal, st, seat, card, units)
    return seat


@njit_nrt_free
def _luck(rules, n, seats, dealt, ask, lk, ws, luck, units):
    """The luck of each reviewed seat's dealt hand (:class:`LuckAsk`: in deal slot ``slot``): the table's
    policies play deal ``d`` again (the same dealer, pool before and doubled antes) ``n_samples`` times with the
    seat's hand ``dealt[s]`` kept and the other cards dealt anew, and as many times dealt anew entirely (shared by
    the seats), each sample keyed by ``key``; ``luck[slot, s]`` gets the two mean fish of the seat (its luck is
    their difference: E[fish | its hand] - E[fish], an unbiased estimate of both). The run's constraints hold in
    every sample; a sample they reject is left out."""
    predeal, base, row = lk.dealing.predeal, lk.base, lk.deal.row
    d, key, pool_before, double_ante, n_samples, reviewed, slot = ask
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
            play_deal(rules, n, seats, h, lk.h_pmatch, d, pool_before, double_ante, lk.deal, ws, lk.dealing, units)
            if row[COL_ERROR]:
                continue
            m += 1
            for t in range(n):
                total[t] += row[COL_FISH + t]
        for t in range(n):
            if s == n or t == s:
                luck[slot, t, 0 if s < n else 1] = total[t] / m if m else np.nan


@njit_nrt_free
def review_blocks(rules, n, seats, seed, policy_seeds, conf0, b0, b1, out, scratch, units):
    """Play and review the matches of blocks ``b0 .. b1 - 1`` (:data:`BLOCK` matches each) of matches
    ``conf0[C_FIRST] ..`` (``conf0[C_MATCHES]`` of them, ``conf0[C_DEALS]`` deals each) into ``out``
    (:class:`ReviewOut`). ``conf0``: ``C_REVIEWED`` the reviewed seats' bit mask, ``C_WORLDS``, ``C_FOLLOW``
    (:data:`FOLLOW_CARDS`, :data:`FOLLOW_BEFORE`), ``C_ONLY_DEAL`` the one deal to review or -1, ``C_PER_DEAL``
    the most decisions a deal can hold, ``C_LUCK`` the luck's samples; ``scratch``: this thread's (:func:`scratch`,
    the reviewer's rollout policy in its review scratch); the other arguments as
    :func:`reversis_sim.numba_engine.match.play_blocks`'s. Deal by deal the matches are those of a run with the same
    seats, unless the reviewed seats follow the reviewer's best."""
    P, tables = rules.P, rules.tables
    first_match, n_matches, n_deals = conf0[C_FIRST], conf0[C_MATCHES], conf0[C_DEALS]
    dec_i, dec_f, opts, n_dec, fish, pool_out, err, n_played, luck = out
    deal, st, h_pmatch, score = scratch.deal, scratch.st, scratch.h_pmatch, scratch.score
    row, conf = deal.row, st.conf
    rollout_family = st.review.ws.seats.family[0]
    reviewed = conf0[C_REVIEWED]
    h_seed = seed_hash(seed)
    for i in range(b0 * BLOCK, min(n_matches, b1 * BLOCK)):
        match = first_match + i
        h_match = extend(h_seed, match)
        for s in range(MAX_SEATS):
            h_pmatch[s] = extend(seed_hash(policy_seeds[s]), match)
        for s in range(n):
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
                for s in range(n):
                    fill_draws(extend(st.key[0], s), P[P_HAND_SIZE], 1, st.review.ws.deal.draws[s])
            if start_deal(rules, n, seats, h_match, h_pmatch, d, pool, double_ante, deal, scratch.dealing):
                review_deal(P, n, tables, seats, deal, st, units)
            pool_out[r] = row[COL_POOL_BEFORE]
            if conf0[C_LUCK] > 0 and conf[C_REVIEWED] != 0 and row[COL_ERROR] == 0:
                ask = LuckAsk(d, extend(st.key[0], MAX_SEATS + 1), pool, double_ante, conf0[C_LUCK], conf[C_REVIEWED],
                              r)
                _luck(rules, n, seats, deal.hands[H_DEALT], ask, scratch.luck, st.search, luck, units)
            for s in range(n):
                fish[r, s] = row[COL_FISH + s]
            err[r] = row[COL_ERROR]
            pool, double_ante, over = next_deal(P, row, row[COL_POOL_AFTER], score)
            if over or row[COL_ERROR]:
                played = d + 1
                break
        n_played[i] = played
        n_dec[i] = conf[C_NEXT] - base


def scratch(n_seats: int, searching: bool, constraint, reviewer: Seats, conf0: np.ndarray, out: ReviewOut) -> Scratch:
    """One thread's :class:`Scratch` (numpy) for a table of ``n_seats`` (``searching``: a search sits at it), the
    deals' constraints ``constraint``, the reviewer's rollout policy ``reviewer`` (a one-seat
    :class:`~reversis_sim.kernel.layout.Seats`) and the review's configuration ``conf0``, writing into ``out``."""
    review = review_scratch()
    set_rollout(review, reviewer, n_seats)
    st = ReviewState(workspace(searching), review, np.zeros(1, np.uint64), conf0.copy(), out.dec_i, out.dec_f,
                     out.opts, before_scratch())
    luck = Luck(alloc(), dealing(*constraint), constraint[0], np.zeros(MAX_SEATS, np.uint64),
                np.zeros(MAX_SEATS, np.float64))
    return Scratch(alloc(), st, dealing(*constraint), luck, np.zeros(MAX_SEATS, np.uint64), np.zeros(n_seats, np.int64))
