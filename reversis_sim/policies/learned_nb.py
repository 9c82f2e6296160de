"""The numba decisions of ``learned`` (declared in :mod:`.learned`): the facts of a card decision read from the
seat's view, and the linear model's card.

The facts are computed into two small arrays on the stack (:func:`scratch`: the decisions borrow their callers'
arrays and allocate nothing), the decision's facts weigh the option facts once (``v = W' [1, D]``), then each legal
card costs its option facts and one dot product with ``v``. The exchange is the exchange model's where the vector
carries one (:mod:`.learned_exchange_nb`: the same bilinear form over the hand's facts), otherwise ``avoid``'s;
the declaration and the goal are the declaration model's where the vector carries one
(:mod:`.learned_declaration_nb`), otherwise ``avoid``'s (:mod:`.avoid_nb`) with the parameters the vector carries.

:func:`decision_facts` and :func:`option_facts` are also what ``reversis-sim learn`` fits the weights on (called
on the views of the reviewed decisions), so the facts trained on are the facts played on.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from .. import cards as C
from ..kernel.bits import ONE, bit, count, lowest, suit_mask
from ..kernel.compiled import T_ABOVE, T_STRENGTH, T_TRICK_POINTS, compile_rules
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.tricks import ACES_MASK
from ..kernel.view import (
    V_CUR,
    V_DEALER,
    V_DECK,
    V_DECLARER,
    V_HAND,
    V_LEADER,
    V_LEGAL,
    V_N_CUR,
    V_N_SEATS,
    V_N_TRICKS,
    V_PLAYED,
    V_POOL_BEFORE,
    V_SEAT,
    V_SIT_OUT,
    V_STREAK,
    V_TALON_KNOWN,
    V_TRICK,
    mask,
)
from . import avoid_nb
from .cardsense import current_best, nth_seat
from .learned import (
    AT_DFLAG,
    AT_EXCHANGE,
    AT_WEIGHTS,
    AT_XFLAG,
    D_ACES_UNSEEN,
    D_BEST_IN_TRICK,
    D_DECLARER_ME,
    D_DECLARER_OTHER,
    D_DISCARD,
    D_FOLLOW,
    D_HOLD_QUINOLA,
    D_LAST_TO_PLAY,
    D_LAST_TWO,
    D_LEAD,
    D_LEADER_OPPOSITE,
    D_LEGAL_CARDS,
    D_POOL,
    D_POSITION,
    D_QUINOLA_GONE,
    D_QUINOLA_IN_MY_TALON,
    D_STREAK_ME,
    D_STREAK_OTHER,
    D_TRICK,
    D_TRICK_HAS_ACE,
    D_TRICK_HAS_QUINOLA,
    D_TRICK_POINTS,
    D_WINNER_OPPOSITE,
    N_D,
    N_DD,
    N_EXCHANGE,
    N_O,
    N_XD,
    N_XO,
    O_ACE,
    O_ACE_OF_DIAMONDS,
    O_BOTTOM_OF_SUIT,
    O_DIAMOND,
    O_HEART,
    O_MASTER,
    O_MINE_ABOVE,
    O_POINTS,
    O_QUINOLA,
    O_SINGLETON,
    O_STRENGTH,
    O_SUIT_LENGTH,
    O_TAKES_NOW,
    O_TAKES_POINTS,
    O_TOP_OF_SUIT,
    O_UNSEEN_ABOVE,
    O_UNSEEN_BELOW,
    O_UNSEEN_SUIT,
)
from .learned_declaration_nb import choice as declaration_choice
from .learned_exchange_nb import choose
from .view import DECLARE_PASS, DECLARE_WIN_ALL

_ELEVENTH, _TWELFTH, _TENTH, _QUARTER, _HUNDREDTH = 1 / 11, 1 / 12, 1 / 10, 1 / 4, 1 / 100
"""The scales of the facts, as factors (without fastmath a division stays a division, several times slower)."""


@intrinsic
def scratch(typingctx, n):
    """A ``float64 (n,)`` array on the caller's stack (``n`` a constant): scratch for a decision that may not
    allocate (numba's reference counting is off in the kernels)."""
    if not isinstance(n, types.IntegerLiteral):
        return None
    size = n.literal_value
    arrty = types.Array(types.float64, 1, "C")

    def impl(context, builder, sig, args):
        ptr = cgutils.alloca_once(builder, context.get_value_type(types.float64), size=size)
        ary = make_array(arrty)(context, builder)
        itemsize = context.get_constant(types.intp, 8)
        populate_array(ary, data=ptr, shape=[context.get_constant(types.intp, size)], strides=[itemsize],
                       itemsize=itemsize, meminfo=None)
        return ary._getvalue()
    return arrty(n), impl


@njit_nrt_free_inline
def decision_facts(view, tables, d):
    """Fill ``d`` (``float64 (N_D,)``, :data:`.learned.DECISION_FACTS`) for the card decision in ``view``."""
    seat, hand, legal = view[V_SEAT], mask(view, V_HAND), mask(view, V_LEGAL)
    n_cur, trick, n_tricks, n_seats = view[V_N_CUR], view[V_TRICK], view[V_N_TRICKS], view[V_N_SEATS]
    played, known = mask(view, V_PLAYED), mask(view, V_TALON_KNOWN)
    strength, points = tables[T_STRENGTH], tables[T_TRICK_POINTS]
    unseen = mask(view, V_DECK) & ~hand & ~played & ~known
    cur = view[V_CUR:]
    lead = n_cur == 0
    follow = (not lead) and (legal & suit_mask(cur[0] >> 4)) != 0
    t_pts, has_q, has_ace = 0, False, False
    for i in range(n_cur):
        t_pts += points[cur[i]]
        has_q = has_q or cur[i] == C.QUINOLA
        has_ace = has_ace or (cur[i] & 15) == C.RANK_ACE
    opposite = (seat + 2) % n_seats if n_seats == 4 else -1
    winner_opp, best_s = False, 0
    if not lead:
        bi, bs = current_best(cur, n_cur, strength)
        best_s = bs
        winner_opp = nth_seat(view[V_LEADER], bi, view[V_DEALER], n_seats, view[V_SIT_OUT] != 0) == opposite
    streak, declarer = view[V_STREAK], view[V_DECLARER]
    d[D_LEAD] = 1.0 if lead else 0.0
    d[D_FOLLOW] = 1.0 if follow else 0.0
    d[D_DISCARD] = 1.0 if not (lead or follow) else 0.0
    d[D_POSITION] = n_cur / (n_seats - 1.0)
    d[D_TRICK] = trick / (n_tricks - 1.0)
    d[D_LAST_TWO] = 1.0 if trick >= n_tricks - 2 else 0.0
    d[D_TRICK_POINTS] = t_pts * _TENTH
    d[D_TRICK_HAS_QUINOLA] = 1.0 if has_q else 0.0
    d[D_TRICK_HAS_ACE] = 1.0 if has_ace else 0.0
    d[D_HOLD_QUINOLA] = 1.0 if hand & bit(C.QUINOLA) else 0.0
    d[D_QUINOLA_GONE] = 1.0 if played & bit(C.QUINOLA) else 0.0
    d[D_QUINOLA_IN_MY_TALON] = 1.0 if known & bit(C.QUINOLA) else 0.0
    d[D_STREAK_ME] = 1.0 if trick > 0 and streak == seat else 0.0
    d[D_STREAK_OTHER] = 1.0 if trick > 0 and streak >= 0 and streak != seat else 0.0
    d[D_LEADER_OPPOSITE] = 1.0 if (not lead) and view[V_LEADER] == opposite else 0.0
    d[D_WINNER_OPPOSITE] = 1.0 if winner_opp else 0.0
    d[D_POOL] = view[V_POOL_BEFORE] * _HUNDREDTH
    d[D_ACES_UNSEEN] = count(unseen & ACES_MASK) * _QUARTER
    d[D_BEST_IN_TRICK] = best_s * _TWELFTH
    d[D_LEGAL_CARDS] = count(legal) * _ELEVENTH
    d[D_LAST_TO_PLAY] = 1.0 if n_cur == n_seats - 1 - (1 if view[V_SIT_OUT] != 0 else 0) else 0.0
    d[D_DECLARER_OTHER] = 1.0 if declarer >= 0 and declarer != seat else 0.0
    d[D_DECLARER_ME] = 1.0 if declarer == seat else 0.0


@njit_nrt_free_inline
def trick_context(view, tables):
    """What every option of a card decision shares: the unseen cards (mask), the suit led (-1 leading), the
    strength of the card winning the trick so far, and the trick's points so far."""
    n_cur = view[V_N_CUR]
    strength, points = tables[T_STRENGTH], tables[T_TRICK_POINTS]
    unseen = mask(view, V_DECK) & ~mask(view, V_HAND) & ~mask(view, V_PLAYED) & ~mask(view, V_TALON_KNOWN)
    if n_cur == 0:
        return unseen, -1, -1, 0
    cur = view[V_CUR:]
    bi, bs = current_best(cur, n_cur, strength)
    t_pts = 0
    for i in range(n_cur):
        t_pts += points[cur[i]]
    return unseen, cur[0] >> 4, bs, t_pts


@njit_nrt_free_inline
def facts_in_context(hand, strength, points, above, unseen, led, bs, t_pts, c, o):
    """Fill ``o`` (``float64 (N_O,)``, :data:`.learned.OPTION_FACTS`) for playing card ``c`` from ``hand``, the
    decision's :func:`trick_context` given (inlined into :func:`play`: a call would pass its arrays word by
    word for every legal card)."""
    s, sc = c >> 4, strength[c]
    takes = led < 0 or (s == led and sc > bs)
    higher = np.uint64(above[c])
    n_above = count(unseen & higher)
    below = count(unseen & suit_mask(s)) - n_above
    mine = hand & suit_mask(s)
    n_mine, mine_above = count(mine), count(hand & higher)
    o[O_STRENGTH] = sc * _TWELFTH
    o[O_POINTS] = points[c] * _QUARTER
    o[O_ACE] = 1.0 if (c & 15) == C.RANK_ACE else 0.0
    o[O_QUINOLA] = 1.0 if c == C.QUINOLA else 0.0
    o[O_ACE_OF_DIAMONDS] = 1.0 if c == C.ACE_OF_DIAMONDS else 0.0
    o[O_HEART] = 1.0 if s == C.HEARTS else 0.0
    o[O_DIAMOND] = 1.0 if s == C.DIAMONDS else 0.0
    o[O_TAKES_NOW] = 1.0 if takes else 0.0
    o[O_TAKES_POINTS] = (t_pts + points[c]) * _TENTH if takes else 0.0
    o[O_UNSEEN_ABOVE] = n_above * _ELEVENTH
    o[O_UNSEEN_BELOW] = below * _ELEVENTH
    o[O_UNSEEN_SUIT] = (n_above + below) * _ELEVENTH
    o[O_MASTER] = 1.0 if n_above == 0 else 0.0
    o[O_SUIT_LENGTH] = n_mine * _ELEVENTH
    o[O_TOP_OF_SUIT] = 1.0 if mine_above == 0 else 0.0
    o[O_BOTTOM_OF_SUIT] = 1.0 if mine_above == n_mine - 1 else 0.0
    o[O_SINGLETON] = 1.0 if n_mine == 1 else 0.0
    o[O_MINE_ABOVE] = mine_above * _ELEVENTH


@njit_nrt_free_inline
def score_in_context(hand, strength, points, above, unseen, led, bs, t_pts, c, v):
    """The score of card ``c``: the option facts of :func:`facts_in_context` weighed by ``v`` (one weight per option
    fact), summed as each fact is computed (the binary ones as additions): the same number up to rounding,
    without filling an array per card (``tests/test_learned.py`` checks the two against each other)."""
    s, sc = c >> 4, strength[c]
    takes = led < 0 or (s == led and sc > bs)
    higher = np.uint64(above[c])
    n_above = count(unseen & higher)
    below = count(unseen & suit_mask(s)) - n_above
    n_mine, mine_above = count(hand & suit_mask(s)), count(hand & higher)
    x = sc * _TWELFTH * v[O_STRENGTH] + points[c] * _QUARTER * v[O_POINTS]
    y = (n_above * _ELEVENTH * v[O_UNSEEN_ABOVE] + below * _ELEVENTH * v[O_UNSEEN_BELOW]
         + (n_above + below) * _ELEVENTH * v[O_UNSEEN_SUIT])
    z = n_mine * _ELEVENTH * v[O_SUIT_LENGTH] + mine_above * _ELEVENTH * v[O_MINE_ABOVE]
    if (c & 15) == C.RANK_ACE:
        x += v[O_ACE]
    if c == C.QUINOLA:
        x += v[O_QUINOLA]
    if c == C.ACE_OF_DIAMONDS:
        x += v[O_ACE_OF_DIAMONDS]
    if s == C.HEARTS:
        y += v[O_HEART]
    if s == C.DIAMONDS:
        y += v[O_DIAMOND]
    if takes:
        z += v[O_TAKES_NOW] + (t_pts + points[c]) * _TENTH * v[O_TAKES_POINTS]
    if n_above == 0:
        x += v[O_MASTER]
    if mine_above == 0:
        y += v[O_TOP_OF_SUIT]
    if mine_above == n_mine - 1:
        z += v[O_BOTTOM_OF_SUIT]
    if n_mine == 1:
        x += v[O_SINGLETON]
    return x + y + z


@njit_nrt_free
def option_score(view, tables, c, v):
    """:func:`score_in_context` of card ``c`` in ``view`` (for tests)."""
    unseen, led, bs, t_pts = trick_context(view, tables)
    return score_in_context(mask(view, V_HAND), tables[T_STRENGTH], tables[T_TRICK_POINTS], tables[T_ABOVE], unseen,
                            led, bs, t_pts, c, v)


@njit_nrt_free
def option_facts(view, tables, c, o):
    """Fill ``o`` (``float64 (N_O,)``, :data:`.learned.OPTION_FACTS`) for playing card ``c`` in ``view``."""
    unseen, led, bs, t_pts = trick_context(view, tables)
    facts_in_context(mask(view, V_HAND), tables[T_STRENGTH], tables[T_TRICK_POINTS], tables[T_ABOVE], unseen, led, bs,
                     t_pts, c, o)


@njit_nrt_free_inline
def play(params, draws, view, tables):
    """The legal card with the highest score (the lowest card code among equal scores); a single legal card is
    played without scoring. Inlined into the trick loops (through the dispatch), as ``avoid``'s is: a call passing
    the view, the tables and the weights array by array held a table of four to 84,000 deals a second where the
    inlined one plays 112,000 (one thread, measured beside `strong`)."""
    legal = mask(view, V_LEGAL)
    if (legal & (legal - ONE)) == 0:
        return lowest(legal)
    d = scratch(23)
    v = scratch(18)
    decision_facts(view, tables, d)
    for j in range(N_O):
        v[j] = params[AT_WEIGHTS + j]
    for i in range(N_D):
        if d[i] != 0.0:
            row = AT_WEIGHTS + (i + 1) * N_O
            for j in range(N_O):
                v[j] += d[i] * params[row + j]
    hand, strength, points, above = mask(view, V_HAND), tables[T_STRENGTH], tables[T_TRICK_POINTS], tables[T_ABOVE]
    unseen, led, bs, t_pts = trick_context(view, tables)
    best, best_score = -1, -1e300
    m = legal
    while m:
        c = lowest(m)
        m &= m - ONE
        score = score_in_context(hand, strength, points, above, unseen, led, bs, t_pts, c, v)
        if score > best_score:
            best, best_score = c, score
    return best


@njit_nrt_free
def exchange(params, draws, view, tables):
    """The talon decision: the card to discard, or -1 to keep the hand (never -1 when the seat is the dealer or must
    discard). The exchange model's choice where the vector carries one (:func:`.learned_exchange_nb.choose`),
    otherwise ``avoid``'s decision with the parameters the vector carries. Called, not inlined: four calls a deal,
    and inlined into the deal skeleton it cost every first run about 2.5 s more of compile for no speed that a
    table of four showed (0.50-0.52 of ``strong``'s deals a second either way, loaded machine)."""
    if params[AT_XFLAG] < 0.5:
        return avoid_nb.exchange(params[AT_EXCHANGE:AT_EXCHANGE + N_EXCHANGE], draws, view, tables)
    return choose(params, view, tables, scratch(10), scratch(13))


@njit_nrt_free
def declare(params, draws, view, tables):
    """Whether to declare the espagnolette: the declaration model's choice where the vector carries one
    (:func:`.learned_declaration_nb.choice`, called), otherwise ``avoid``'s declaration with the parameters the
    vector carries."""
    if params[AT_DFLAG] < 0.5:
        return avoid_nb.declare(params[AT_EXCHANGE:AT_EXCHANGE + N_EXCHANGE], draws, view, tables)
    return declaration_choice(params, view, tables, scratch(12)) != DECLARE_PASS


@njit_nrt_free
def goal(params, draws, view, tables):
    """The declarer's goal, to win every trick: the declaration model's where the vector carries one, otherwise
    ``avoid``'s (it reads no parameter)."""
    if params[AT_DFLAG] < 0.5:
        return avoid_nb.goal(params, draws, view, tables)
    return declaration_choice(params, view, tables, scratch(12)) == DECLARE_WIN_ALL


assert N_D == 23 and N_O == 18 and N_XD == 10 and N_XO == 13 and N_DD == 12, \
    "scratch() takes constants: keep its sizes those of .learned"


@njit_nrt_free
def facts(views, tables, cards, decision, o_out, d_out):
    """The facts of many options, for fitting: option ``r`` (card ``cards[r]``) of decision ``decision[r]``, whose
    view is ``views[decision[r]]``, into ``o_out[r]``; each decision's facts into ``d_out`` (``float64`` arrays
    ``(n_options, N_O)`` and ``(n_decisions, N_D)``)."""
    for i in range(views.shape[0]):
        decision_facts(views[i], tables, d_out[i])
    for r in range(cards.shape[0]):
        option_facts(views[decision[r]], tables, cards[r], o_out[r])


def facts_of(rules, views: np.ndarray, cards: np.ndarray, decision: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The option facts ``float64 (len(cards), N_O)`` and the decision facts ``float64 (len(views), N_D)`` of
    options ``cards`` (each of decision ``decision``, whose view is ``views[decision]``) under ``rules``."""
    opt, dec = np.zeros((len(cards), N_O)), np.zeros((len(views), N_D))
    if len(views):
        facts(np.ascontiguousarray(views, np.int64), compile_rules(rules).tables, np.asarray(cards, np.int64),
              np.asarray(decision, np.int64), opt, dec)
    return opt, dec
