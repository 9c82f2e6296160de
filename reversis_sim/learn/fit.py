"""The ridge fit of the learned family's weights (:mod:`reversis_sim.policies.learned`): the card model's ``W``,
and the same fit of the exchange model's ``WX`` on the talon decisions.

Each option's feature row is the outer product of its decision's facts ``[1, D]`` and its own facts ``O``
(``(N_D + 1) * N_O`` columns, the layout of ``W``); rows and the option values are centred within their decision,
since only the differences between a decision's options matter to the card chosen. The normal equations are summed
in blocks of whole decisions in a fixed order (the same data gives the same weights, bit for bit), the penalty is
put on the standardised columns, and it is chosen among :data:`ALPHAS` by the regret on held-out decisions: the
best option's measured value minus that of the option the weights pick.
"""

from __future__ import annotations

import numpy as np

ALPHAS = (0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0)
"""The ridge penalties tried (on standardised columns)."""
BLOCK = 50_000
"""Options per block of the normal equations (whole decisions)."""


def rows(opt: np.ndarray, dec: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """The feature rows of options with facts ``opt`` (each of decision ``decision``, whose facts are ``dec``)."""
    d1 = np.c_[np.ones(len(dec)), dec][decision]
    return (d1[:, :, None] * opt[:, None, :]).reshape(len(opt), -1)


def centred(x: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """``x`` minus its decision's mean (``decision`` sorted, from 0, every number present)."""
    starts = np.r_[0, np.flatnonzero(np.diff(decision)) + 1]
    n = np.diff(np.r_[starts, len(decision)])
    means = np.add.reduceat(x, starts, axis=0) / (n if x.ndim == 1 else n[:, None])
    return x - means[decision]


def normal_equations(data: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """``X'X``, ``X'y`` of the centred rows, and the number of options."""
    k = (data["D"].shape[1] + 1) * data["O"].shape[1]
    xtx, xty = np.zeros((k, k)), np.zeros(k)
    dec = data["decision"]
    starts = np.r_[0, np.flatnonzero(np.diff(dec)) + 1]
    cuts = list(starts[:: max(1, BLOCK // 4)]) + [len(dec)]
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        g = dec[lo:hi] - dec[lo]
        x = centred(rows(data["O"][lo:hi], data["D"][dec[lo]:dec[hi - 1] + 1], g), g)
        y = centred(data["value"][lo:hi], g)
        xtx += x.T @ x
        xty += x.T @ y
    return xtx, xty, len(dec)


def solve(xtx: np.ndarray, xty: np.ndarray, n: int, alpha: float, n_o: int) -> np.ndarray:
    """The ridge weights, ``W`` of shape ``(n_d + 1, n_o)`` (``n_o`` option facts), the penalty ``alpha`` on
    standardised columns."""
    scale = np.sqrt(np.maximum(np.diag(xtx), 1e-12) / max(n, 1))
    a = xtx / np.outer(scale, scale) + alpha * np.eye(len(scale))
    w = np.linalg.solve(a, xty / scale) / scale
    return w.reshape(-1, n_o)


def picks(W: np.ndarray, data: dict) -> np.ndarray:
    """The option each decision's weights pick (the highest score; the first among equals, as the kernel's
    lowest card code: the options are in card order)."""
    dec = data["decision"]
    score = np.einsum("rd,do,ro->r", np.c_[np.ones(len(data["D"])), data["D"]][dec], W, data["O"])
    order = np.lexsort((-score, dec))
    first = np.r_[True, dec[order][1:] != dec[order][:-1]]
    return order[first]


def regret(W: np.ndarray | None, data: dict) -> float:
    """Mean regret a decision of the picks of ``W`` (None: the cards the table played), fish."""
    dec = data["decision"]
    best = np.full(dec[-1] + 1, -np.inf)
    np.maximum.at(best, dec, data["value"])
    chosen = np.flatnonzero(data["played"]) if W is None else picks(W, data)
    return float(np.mean(best[dec[chosen]] - data["value"][chosen]))


def fit(train: dict, held_out: dict) -> tuple[np.ndarray, dict]:
    """The weights whose penalty has the smallest held-out regret, and a report of every penalty's."""
    xtx, xty, n = normal_equations(train)
    tried = {}
    best = None
    for alpha in ALPHAS:
        W = solve(xtx, xty, n, alpha, train["O"].shape[1])
        r = regret(W, held_out)
        tried[str(alpha)] = r
        if best is None or r < best[0]:
            best = (r, alpha, W)
    return best[2], {"alpha": best[1], "held_out_regret": best[0], "held_out_regret_table": regret(None, held_out),
                     "regret_by_alpha": tried, "options": n}
