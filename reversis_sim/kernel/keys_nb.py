"""numba twins of :mod:`reversis_sim.keys` (splitmix64 streams), on ``np.uint64``: used by the kernels and by the
policies' numba decisions (below both, like :mod:`reversis_sim.bits`).

In numba, an operation mixing ``uint64`` and ``int64`` operands is done in ``float64``: every constant below is an
``np.uint64`` and every operand is cast explicitly, so the arithmetic wraps modulo 2**64 exactly like the Python
version's ``& M64``. ``tests/test_engine_keys.py`` checks the twins agree on many inputs.
"""

from __future__ import annotations

import numpy as np

from .. import keys as K
from .jit import njit_nrt_free, njit_nrt_free_inline

GAMMA = np.uint64(K.GAMMA)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_ONE = np.uint64(1)

PURPOSE_SHUFFLE = K.PURPOSE_SHUFFLE
PURPOSE_POLICY = K.PURPOSE_POLICY
PURPOSE_REVIEW = K.PURPOSE_REVIEW
TAKE, DISCARD, DECLARE, RENOUNCE, GOAL, PLAY = K.TAKE, K.DISCARD, K.DECLARE, K.RENOUNCE, K.GOAL, K.PLAY
N_DRAWS = K.N_DRAWS


@njit_nrt_free
def mix64(z):
    """The splitmix64 finaliser (``z``: ``np.uint64``)."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@njit_nrt_free
def extend(h, part):
    """One step of :func:`reversis_sim.keys.stream`: fold identifier ``part`` into hash ``h``."""
    return mix64((np.uint64(h) ^ np.uint64(part)) + GAMMA)


@njit_nrt_free
def seed_hash(seed):
    """The first step of a stream key: ``mix64(seed + GAMMA)`` (``seed`` already reduced modulo 2**64)."""
    return mix64(np.uint64(seed) + GAMMA)


@njit_nrt_free
def stream(seed, match, deal, purpose, seat):
    """Key of one random stream (twin of :func:`reversis_sim.keys.stream`)."""
    h = seed_hash(seed)
    h = extend(h, match)
    h = extend(h, deal)
    h = extend(h, purpose)
    return extend(h, seat)


@njit_nrt_free
def draw(stream_key, index):
    """The ``index``-th 64-bit output of a stream."""
    return mix64(np.uint64(stream_key) + (np.uint64(index) + _ONE) * GAMMA)


@njit_nrt_free
def below(x, n):
    """Map a 64-bit draw to ``0 <= k < n`` (multiply-shift on the top 32 bits); returns an int64."""
    return np.int64(((np.uint64(x) >> _S32) * np.uint64(n)) >> _S32)


@njit_nrt_free_inline
def fill_draws(stream_key, n_tricks, goal, out):
    """A seat's draws of one deal into ``out`` (``uint64 (N_DRAWS,)``): ``out[i] = draw(stream_key, i)`` for the
    decision indices the engines use: ``TAKE``, ``DISCARD``, ``DECLARE``, ``GOAL`` where the preset asks for a goal
    (``goal``), and ``PLAY + t`` for each trick ``t < n_tricks`` (the other slots are left as they are)."""
    for i in range(DECLARE + 1):
        out[i] = draw(stream_key, i)
    if goal:
        out[GOAL] = draw(stream_key, GOAL)
    for i in range(PLAY, PLAY + n_tricks):
        out[i] = draw(stream_key, i)
