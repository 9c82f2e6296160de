"""The numba dispatch of the four decisions on the family id, built from the registry (a policy is data: a family id and
a parameter vector, so the kernels branch on an integer rather than take functions, which numba would compile once per
function).

numba compiles a function argument separately for each function, so the kernels never pass policies around as
functions: each decision is called as ``play(family_id, params, draws, ...)``, which tries the registered families
in order (:data:`.heuristics.HEURISTICS`) and calls the one whose id matches (a search is not dispatched: the
engines call :func:`reversis_sim.search.decide_nb.play` themselves, for it needs the table). The chain is made of small
closures, one per family and decision (:func:`_link`), ending in :func:`_unknown`, which returns :data:`UNKNOWN_FAMILY`:
a kernel turns that into an error that names the seat, so an unknown id never plays as another family.

The arguments, as both engines pass them: ``family_id`` (int64), ``params`` (float64 vector: the family's
parameters in declaration order), ``draws`` (uint64 ``(N_DRAWS,)``: the seat's keyed draws of the deal,
:func:`reversis_sim.kernel.keys_nb.fill_draws`), ``view`` (the seat's view, :mod:`reversis_sim.kernel.view`: every
fact it may know, its hand and its legal cards among them) and ``tables`` (the rules' per-card tables,
:mod:`reversis_sim.kernel.compiled`).
"""

from __future__ import annotations

from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.layout import UNKNOWN_FAMILY
from .heuristics import HEURISTICS


@njit_nrt_free
def _unknown(family_id, params, draws, view, tables):
    return UNKNOWN_FAMILY


def _link(decision: str, family_id: int, decide, rest):
    """A numba function: ``decide(params, draws, view, tables)`` (as an int64) for ``family_id``, otherwise
    ``rest(family_id, params, draws, view, tables)``.

    The links of ``play`` are inlined into their caller (by LLVM: :data:`reversis_sim.kernel.jit.njit_nrt_free_inline`),
    so that a trick loop tests the family ids in turn and runs the family's decision in place (a family inlines its
    own ``play`` for that, as :func:`.avoid_nb.play` does)."""
    if decision == "play":
        @njit_nrt_free_inline
        def play(f, params, draws, view, tables):
            if f == family_id:
                return decide(params, draws, view, tables)
            return rest(f, params, draws, view, tables)
        return play
    if decision == "exchange":
        @njit_nrt_free_inline
        def exchange(f, params, draws, view, tables):
            if f == family_id:
                return decide(params, draws, view, tables)
            return rest(f, params, draws, view, tables)
        return exchange

    @njit_nrt_free_inline
    def yes_or_no(f, params, draws, view, tables):  # declare, goal
        if f == family_id:
            return 1 if decide(params, draws, view, tables) else 0
        return rest(f, params, draws, view, tables)
    return yes_or_no


def _chain(decision: str):
    fn = _unknown
    for fam in reversed(HEURISTICS):  # the first registered family is tried first
        fn = _link(decision, fam.family_id, getattr(fam.kernel(), decision), fn)
    return fn


exchange = _chain("exchange")
"""``exchange(family_id, params, draws, view, tables)``: the card to discard, -1 to keep the hand, or
:data:`UNKNOWN_FAMILY`."""
declare = _chain("declare")
"""``declare(family_id, params, draws, view, tables)``: 1 to declare, 0 not to, or :data:`UNKNOWN_FAMILY`."""
goal = _chain("goal")
"""``goal(family_id, params, draws, view, tables)``: 1 ``win_all``, 0 ``lose_all``, or :data:`UNKNOWN_FAMILY`."""
play = _chain("play")
"""``play(family_id, params, draws, view, tables)``: a card of the view's legal cards, or :data:`UNKNOWN_FAMILY`."""

NO_DRAWS = sum(1 << fam.family_id for fam in HEURISTICS if not fam.draws)
"""The registered families that never read their draws, as a bit mask of family ids."""
assert all(0 <= fam.family_id < 63 for fam in HEURISTICS)


@njit_nrt_free
def uses_draws(family_id):
    """Whether a seat of family ``family_id`` reads its keyed draws (:attr:`.family.Family.draws`): every family but
    the registered ones that say not (an unknown id or a search does)."""
    if family_id < 0 or family_id >= 63:
        return True
    return ((NO_DRAWS >> family_id) & 1) == 0
