"""Multiple comparisons: Holm's step-down correction of a family of p-values."""

from __future__ import annotations

import numpy as np

__all__ = ["holm", "holm_reject"]


def holm(pvalues) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values.

    With the ``m`` p-values sorted ascending, ``p_(1) <= ... <= p_(m)``, the adjusted value of the ``i``-th is
    ``min(1, max_{j <= i} (m - j + 1) * p_(j))``: monotone in the raw p-values and capped at 1. Rejecting where
    the adjusted p-value is ``<= alpha`` controls the family-wise error rate at ``alpha`` under any dependence.

    Parameters
    ----------
    pvalues : array_like of float, any shape
        Raw p-values in [0, 1]; NaN is not allowed.

    Returns
    -------
    ndarray of float64, same shape as ``pvalues``
    """
    p = np.asarray(pvalues, dtype=np.float64)
    flat = p.ravel()
    if flat.size == 0:
        return p.copy()
    if np.any(~np.isfinite(flat)) or np.any((flat < 0) | (flat > 1)):
        raise ValueError("p-values must be finite numbers in [0, 1]")
    m = flat.size
    order = np.argsort(flat, kind="stable")
    scaled = (m - np.arange(m)) * flat[order]
    adjusted_sorted = np.minimum(np.maximum.accumulate(scaled), 1.0)
    out = np.empty(m)
    out[order] = adjusted_sorted
    return out.reshape(p.shape)


def holm_reject(pvalues, alpha: float = 0.05) -> np.ndarray:
    """Reject decisions (bool array, shape of ``pvalues``) of the Holm procedure at family-wise level ``alpha``:
    one p-value per pairwise comparison in, one decision per comparison out."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    return holm(pvalues) <= alpha
