"""The hands as dealt, for many deals at once, without playing them: what a study of hand features joins to the run
table (a deal's cards are a pure function of its keys, so they need no replay of the play).

:func:`dealt_hands` fills one ``uint64`` mask per (deal, seat), in the (match, deal) order of the run table; a seat
that sits out gets 0. The talon exchange that follows is a decision, not part of the deal.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..constraints import MAX_STACK, TALON, Deals
from ..kernel.compiled import P_N_SEATS, compile_rules
from ..kernel.jit import njit_parallel
from ..kernel.keys_nb import extend, seed_hash
from ..kernel.layout import H_DEALT, Dealing, alloc
from ..kernel.tricks import dealer_of
from ..rules import Rules
from .deal import deal_constrained
from .seats import constraint_arrays, seed_u64


@njit_parallel
def dealt_hands_nb(P, deck, seed, first_match, n_matches, n_deals, constraint, out, shuffles):
    """``out[i * n_deals + d, s]``: the dealt hand of seat ``s`` in deal ``d`` of match ``first_match + i``, under
    the constraints ``constraint`` (``predeal``, ``where``: :func:`.deal.deal_constrained`);
    ``shuffles[i * n_deals + d]``: the shuffles it took (0: none of the attempts passed)."""
    n = P[P_N_SEATS]
    h_seed = seed_hash(seed)
    for i in prange(n_matches):
        deal = alloc()
        dealing = Dealing(constraint[0], constraint[1], np.zeros(MAX_STACK, np.int64), np.zeros(TALON + 1, np.uint64))
        h_match = extend(h_seed, first_match + i)
        for d in range(n_deals):
            shuffles[i * n_deals + d] = deal_constrained(P, n, deck, deal, extend(h_match, d), dealer_of(P, d),
                                                         dealing)
            for s in range(n):
                out[i * n_deals + d, s] = deal.hands[H_DEALT, s]


def dealt_hands(rules: Rules, *, seed: int, first_match: int, n_matches: int,
                match_deals: int | None = None, deals: Deals | None = None,
                with_shuffles: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """``uint64 (n_matches * match_deals, n_seats)``: every seat's dealt hand, in the run table's (match, deal)
    order (a ``parlett_simple`` match that ended early has its later deals dealt all the same), under the deals'
    constraints; with ``with_shuffles``, also the shuffles each deal took (``int64``, 0: none passed)."""
    cr = compile_rules(rules)
    n_deals = rules.match_deals if match_deals is None else int(match_deals)
    out = np.zeros((int(n_matches) * n_deals, rules.n_seats), np.uint64)
    shuffles = np.zeros(int(n_matches) * n_deals, np.int64)
    if n_matches:
        dealt_hands_nb(cr.params, cr.deck, seed_u64(seed), int(first_match), int(n_matches), n_deals,
                       constraint_arrays(rules, deals), out, shuffles)
    return (out, shuffles) if with_shuffles else out
