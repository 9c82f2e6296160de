"""Seat policies as kernel arrays: a family id per seat and a ``float64`` parameter vector per seat."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..policies import FAMILIES, PolicySpec, PolicySpecError, parse_spec
from .policy import KERNEL_FAMILIES


def seat_arrays(seats: Sequence[PolicySpec | str], n_seats: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """``(family int64 (n_seats,), params float64 (n_seats, n_params))`` for the kernels.

    ``n_params`` is the longest parameter vector among the seats' families (at least 1); shorter vectors are
    padded with zeros.
    """
    specs = [parse_spec(s) if isinstance(s, str) else s for s in seats]
    if len(specs) != n_seats:
        raise ValueError(f"the engine needs {n_seats} seat policies, got {len(specs)}")
    for s in specs:
        if FAMILIES[s.family].family_id not in KERNEL_FAMILIES:
            raise PolicySpecError(f"policy family {s.family!r} has no numba kernel yet (the engine plays "
                                  f"{', '.join(KERNEL_FAMILIES.values())}); use the reference engine")
    family = np.array([FAMILIES[s.family].family_id for s in specs], dtype=np.int64)
    width = max([1] + [len(s.params) for s in specs])
    params = np.zeros((n_seats, width), dtype=np.float64)
    for i, s in enumerate(specs):
        for j, (_, v) in enumerate(s.params):
            params[i, j] = v
    return family, params
