"""Seat policies as kernel arrays: a family id per seat and a ``float64`` parameter vector per seat; and the deals'
constraints as kernel arrays."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import cards as C
from .. import keys as K
from ..constraints import Deals
from ..kernel.compiled import MAX_SEATS
from ..kernel.layout import PD_DECK, PD_PLACED, PREDEAL_SIZE
from ..kernel.units import Unit
from ..policies import PolicySpec, parse_spec
from ..policies.search import SEARCH_ID
from ..rules import Rules
from ..search import decide_nb


def seat_arrays(seats: Sequence[PolicySpec | str], n_seats: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """``(family int64 (n_seats,), params float64 (n_seats, n_params))`` for the kernels.

    ``n_params`` is the longest parameter vector among the seats' families (at least 1); shorter vectors are
    padded with zeros.
    """
    specs = [parse_spec(s) if isinstance(s, str) else s for s in seats]
    if len(specs) != n_seats:
        raise ValueError(f"the engine needs {n_seats} seat policies, got {len(specs)}")
    family = np.array([s.family_id for s in specs], dtype=np.int64)
    width = max([1] + [len(s.values()) for s in specs])
    params = np.zeros((n_seats, width), dtype=np.float64)
    for i, s in enumerate(specs):
        for j, v in enumerate(s.values()):
            params[i, j] = v
    return family, params


def seed_u64(seed: int) -> np.uint64:
    """A run seed (any Python int) reduced modulo 2**64, as the Python twin does with ``& M64``."""
    return np.uint64(int(seed) & K.M64)


def policy_seed_array(seed: int, policy_seeds: Sequence[int] | None, n_seats: int) -> np.ndarray:
    """Each seat's policy seed modulo 2**64 (``uint64 (MAX_SEATS,)``, unused seats 0): ``policy_seeds``, or the run
    seed for every seat."""
    seeds = [seed] * n_seats if policy_seeds is None else list(policy_seeds)
    if len(seeds) != n_seats:
        raise ValueError(f"policy_seeds needs one seed per seat ({n_seats}), got {len(seeds)}")
    return np.array([int(s) & K.M64 for s in seeds] + [0] * (MAX_SEATS - n_seats), dtype=np.uint64)


def constraint_arrays(rules: Rules, deals: Deals | None) -> tuple[np.ndarray, np.ndarray]:
    """(``predeal``, ``where``) of the kernels (:func:`reversis_sim.numba_engine.deal.deal_constrained`): each seat's
    predealt cards, all of them and the whole deck (``uint64 (PREDEAL_SIZE,)``), and the ``where`` program
    (``int64``, empty without one)."""
    predeal = np.zeros(PREDEAL_SIZE, np.uint64)
    predeal[PD_DECK] = C.mask(rules.tables.deck)
    if deals is None:
        return predeal, np.zeros(0, np.int64)
    masks, program = deals.arrays()
    predeal[:len(masks)] = masks
    predeal[PD_PLACED] = deals.predeal.placed
    return predeal, program


def searching(seats: Sequence[PolicySpec | str]) -> bool:
    """Whether a search sits at the table."""
    return any((parse_spec(s) if isinstance(s, str) else s).family_id == SEARCH_ID for s in seats)


def search_unit(seats: Sequence[PolicySpec | str]) -> Unit:
    """The unit a deal asks for a searching seat's cards: the search, or (no search at the table) its stub, so that
    a table of heuristics compiles nothing of the search."""
    return decide_nb.play if searching(seats) else decide_nb.NO_SEARCH
