"""Determinism by key.

Every random draw is a pure function of ``(run seed, match, deal, purpose, seat, decision index)``. A *stream* is
the hash of the first five; a *draw* is the ``index``-th output of that stream (the splitmix64 sequence started at
the stream key). Results are then identical whatever the batch size, thread count or resume point, any deal can be
replayed from its identifiers alone, and two policies compared on "the same deal" see the same cards and the same
policy randomness.

This is the readable Python twin; :mod:`reversis_sim.kernel.keys_nb` holds the numba one, and a test checks they
agree.

Decision indices used by the engines (one fixed index per decision, so that one decision never shifts another's
randomness): ``TAKE`` and ``DISCARD`` for the talon exchange, ``DECLARE`` for the espagnolette (``GOAL`` for its
goal where the preset asks one), ``PLAY + t`` for the card played to trick ``t`` (0-based), ``SHUFFLE`` stream draws
``i`` for the Fisher-Yates swap at position ``i``.
"""

from __future__ import annotations

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MAX_SEED = 2**63 - 1
"""The largest seed a run (or a comparison, a tuning, a confirmation) takes: every seed is 0 to 2**63 - 1."""


def next_seed(seed: int, k: int = 1) -> int:
    """The seed ``k`` after ``seed`` among 0 .. :data:`MAX_SEED` (wrapping round): a confirmation seed, or a round's."""
    return (seed + k) % (MAX_SEED + 1)


def sub_seed(seed: int, purpose: int, bits: int = 32) -> int:
    """A seed of ``bits`` bits for a library with a narrower seed than ours (numpy's legacy and Optuna's samplers
    take 0 to 2**32 - 1), derived from ``seed`` and ``purpose`` by :func:`mix64`: every seed of ours gives one."""
    return mix64((seed ^ (purpose * GAMMA)) & M64) >> (64 - bits)

PURPOSE_SHUFFLE = 1
PURPOSE_POLICY = 2
PURPOSE_REVIEW = 3  # the worlds and rollout draws of a review, apart from every draw of play

TAKE = 0
DISCARD = 1
DECLARE = 2
RENOUNCE = 3
GOAL = 4
PLAY = 8  # PLAY + trick index (0-based)
N_DRAWS = 24  # decision indices a seat may draw in one deal: PLAY + 13 tricks fit


def mix64(z: int) -> int:
    """The splitmix64 finaliser: a bijection of 64-bit integers that scrambles every bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def stream(seed: int, match: int, deal: int, purpose: int, seat: int) -> int:
    """Key of one random stream: a hash of its identifiers."""
    h = mix64((seed + GAMMA) & M64)
    for part in (match, deal, purpose, seat):
        h = mix64(((h ^ part) + GAMMA) & M64)
    return h


def draw(stream_key: int, index: int) -> int:
    """The ``index``-th 64-bit output of a stream."""
    return mix64((stream_key + (index + 1) * GAMMA) & M64)


def below(x: int, n: int) -> int:
    """Map a 64-bit draw to ``0 <= k < n`` (multiply-shift on the top 32 bits; n < 2**32)."""
    return ((x >> 32) * n) >> 32


def shuffled(items: list[int], seed: int, match: int, deal: int, attempt: int = 0) -> list[int]:
    """Fisher-Yates shuffle of ``items`` keyed by ``(seed, match, deal)`` and the ``attempt`` of a constrained deal
    (0: the deal of an unconstrained run)."""
    out = list(items)
    s = stream(seed, match, deal, PURPOSE_SHUFFLE, attempt)
    for i in range(len(out) - 1, 0, -1):
        j = below(draw(s, i), i + 1)
        out[i], out[j] = out[j], out[i]
    return out
