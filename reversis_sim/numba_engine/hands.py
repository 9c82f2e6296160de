"""The hands as dealt, for many deals at once, without playing them: what a study of hand features joins to the run
table (a deal's cards are a pure function of its keys, so they need no replay of the play).

:func:`dealt_hands` fills one ``uint64`` mask per (deal, seat), in the (match, deal) order of the run table; a seat
that sits out gets 0. The talon exchange that follows is a decision, not part of the deal. :func:`acceptance`
counts how often a first shuffle meets a ``--where`` condition, the estimate a command prints before it runs.
"""

from __future__ import annotations

import numba
import numpy as np

from ..constraints import ACCEPTANCE_MATCH, Deals
from ..kernel.compiled import P_N_SEATS, compile_rules
from ..kernel.jit import njit_nrt_free
from ..kernel.keys_nb import extend, seed_hash
from ..kernel.layout import H_DEALT, alloc, dealing
from ..kernel.tricks import dealer_of
from ..rules import Rules
from .batch import numba_threads, run_pieces
from .deal import deal_attempt, deal_constrained, meets
from .match import BLOCK
from .seats import constraint_arrays, seed_u64


@njit_nrt_free
def dealt_hands_nb(P, deck, seed, first_match, i0, i1, n_deals, deal, dealing, out, shuffles):
    """``out[i * n_deals + d, s]``: the dealt hand of seat ``s`` in deal ``d`` of match ``first_match + i`` for
    ``i0 <= i < i1``, under the constraints of ``dealing`` (:func:`.deal.deal_constrained`; ``deal``: the scratch
    deal); ``shuffles[i * n_deals + d]``: the shuffles it took (0: none of the attempts passed)."""
    n = P[P_N_SEATS]
    h_seed = seed_hash(seed)
    for i in range(i0, i1):
        h_match = extend(h_seed, first_match + i)
        for d in range(n_deals):
            shuffles[i * n_deals + d] = deal_constrained(P, n, deck, deal, extend(h_match, d), dealer_of(P, d),
                                                         dealing)
            for s in range(n):
                out[i * n_deals + d, s] = deal.hands[H_DEALT, s]


def dealt_hands(rules: Rules, *, seed: int, first_match: int, n_matches: int,
                match_deals: int | None = None, deals: Deals | None = None,
                with_shuffles: bool = False, threads: int | None = None) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """``uint64 (n_matches * match_deals, n_seats)``: every seat's dealt hand, in the run table's (match, deal)
    order (a ``parlett_simple`` match that ended early has its later deals dealt all the same), under the deals'
    constraints; with ``with_shuffles``, also the shuffles each deal took (``int64``, 0: none passed)."""
    cr = compile_rules(rules)
    n_deals = rules.match_deals if match_deals is None else int(match_deals)
    n_matches = int(n_matches)
    out = np.zeros((n_matches * n_deals, rules.n_seats), np.uint64)
    shuffles = np.zeros(n_matches * n_deals, np.int64)
    constraint = constraint_arrays(rules, deals)
    n_blocks = (n_matches + BLOCK - 1) // BLOCK
    with numba_threads(threads):
        n_threads = min(numba.get_num_threads(), n_blocks)

    def piece(bounds: tuple[int, int]) -> None:
        dealt_hands_nb(cr.params, cr.deck, seed_u64(seed), int(first_match), bounds[0] * BLOCK,
                       min(n_matches, bounds[1] * BLOCK), n_deals, alloc(), dealing(*constraint), out, shuffles)

    if n_matches:
        run_pieces(piece, n_blocks, n_threads)
    return (out, shuffles) if with_shuffles else out


@njit_nrt_free
def first_shuffles_nb(P, deck, seed, n_per_dealer, deal, dealing, passed):
    """``passed[d]``: how many of the first shuffles (attempt 0) of deal ``d`` of matches ``ACCEPTANCE_MATCH + k``,
    ``k < n_per_dealer``, dealt by seat ``d``, meet the ``where`` program of ``dealing``, for every seat ``d``."""
    n = P[P_N_SEATS]
    h_seed = seed_hash(seed)
    for dealer in range(n):
        count = 0
        for k in range(n_per_dealer):
            deal_attempt(P, n, deck, deal, extend(extend(h_seed, ACCEPTANCE_MATCH + k), dealer), dealer, dealing, 0)
            if meets(n, deal, dealing):
                count += 1
        passed[dealer] = count


def acceptance(rules: Rules, deals: Deals, n: int = 20_000, seed: int = 0) -> list[tuple[int, int]]:
    """How often one shuffle meets the deals' ``where`` condition, by dealer: ``[(passed, tried), ...]``, the very
    shuffles and counts of :func:`reversis_sim.reference.acceptance` (the same keys; the engines deal alike), in
    milliseconds instead of a second."""
    cr = compile_rules(rules)
    per_dealer = max(1, n // rules.n_seats)
    passed = np.zeros(rules.n_seats, np.int64)
    first_shuffles_nb(cr.params, cr.deck, seed_u64(seed), per_dealer, alloc(),
                      dealing(*constraint_arrays(rules, deals)), passed)
    return [(int(p), per_dealer) for p in passed]
