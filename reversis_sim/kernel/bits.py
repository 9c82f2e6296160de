"""Bit tricks on ``uint64`` hand masks (the layout is in :mod:`reversis_sim.cards`: card c is bit c).

``popcount``, ``ctz``, ``ctlz`` and ``pdep`` are LLVM intrinsics (one instruction each on a modern x86-64), exposed
to numba with :func:`numba.extending.intrinsic`.

:func:`select` (the k-th card of a mask in card-code order) is the random policy's inner step. With a fast BMI2
``pdep`` it is ``ctz(pdep(1 << k, m))``; elsewhere (no BMI2, AMD Zen 1/2 where ``pdep`` is microcoded, or a
``NUMBA_CPU_NAME`` build for other machines) it is a branch-free binary search on popcounts. Both give the same
answer; numba keys its cache by CPU, so each machine keeps the variant it chose.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic

from .jit import njit_nrt_free

ONE = np.uint64(1)
LANE = np.uint64(0xFFFF)  # one suit's 16 bits


def _fast_pdep() -> bool:
    """Whether the target CPU has a fast BMI2 ``pdep`` (decided once, at import)."""
    if config.CPU_NAME or config.CPU_FEATURES:
        return False  # compiling for some other CPU: stay portable
    try:
        import llvmlite.binding as ll
        features = ll.get_host_cpu_features()
        name = ll.get_host_cpu_name()
    except Exception:  # pragma: no cover
        return False
    return bool(features.get("bmi2")) and not name.startswith(("znver1", "znver2", "bdver", "generic"))


FAST_PDEP = _fast_pdep()


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a ``uint64``."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit of a non-zero ``uint64`` (undefined for 0)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def ctlz(typingctx, x):
    """Number of leading zero bits of a non-zero ``uint64`` (undefined for 0)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def pdep(typingctx, src, mask):
    """BMI2 parallel bit deposit (only compiled where :data:`FAST_PDEP` is true)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


@njit_nrt_free
def bit(card):
    """The mask of one card."""
    return ONE << np.uint64(card)


@njit_nrt_free
def count(m):
    """Number of cards in mask ``m`` (int64)."""
    return np.int64(popcount(np.uint64(m)))


@njit_nrt_free
def lowest(m):
    """The lowest card code in the non-empty mask ``m`` (int64)."""
    return np.int64(ctz(np.uint64(m)))


@njit_nrt_free
def highest(m):
    """The highest card code in the non-empty mask ``m`` (int64)."""
    return np.int64(63) - np.int64(ctlz(np.uint64(m)))


@njit_nrt_free
def suit_mask(suit):
    """All 16 bits of suit ``suit``."""
    return LANE << np.uint64(16 * suit)


@njit_nrt_free
def _select_search(m, k):
    """Branch-free: halve the window six times, keeping the half that holds the k-th set bit."""
    m = np.uint64(m)
    k = np.uint64(k)
    pos = np.uint64(0)
    for width in (32, 16, 8, 4, 2, 1):
        w = np.uint64(width)
        c = popcount(m & ((ONE << w) - ONE))
        up = k >= c  # the bit is in the upper half
        shift = w if up else np.uint64(0)
        k -= c if up else np.uint64(0)
        m >>= shift
        pos += shift
    return np.int64(pos)


@njit_nrt_free
def select(m, k):
    """The ``k``-th lowest card (0-based, ``k < count(m)``) of mask ``m``: element ``k`` of the cards sorted by
    card code."""
    if FAST_PDEP:
        return np.int64(ctz(pdep(ONE << np.uint64(k), np.uint64(m))))
    return _select_search(m, k)
