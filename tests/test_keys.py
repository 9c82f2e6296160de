"""Determinism by key: every draw a function of (seed, match, deal, purpose, seat, index)."""

from collections import Counter

from reversis_sim import keys


def test_streams_differ_by_every_identifier():
    base = keys.stream(1, 2, 3, keys.PURPOSE_POLICY, 0)
    others = [keys.stream(*args) for args in
              [(0, 2, 3, 2, 0), (1, 0, 3, 2, 0), (1, 2, 0, 2, 0), (1, 2, 3, 1, 0), (1, 2, 3, 2, 1)]]
    assert base not in others and len(set(others)) == len(others)
    assert keys.stream(1, 2, 3, 2, 0) == base  # pure function


def test_below_is_in_range_and_roughly_uniform():
    s = keys.stream(9, 0, 0, 1, 0)
    n, k = 60_000, 6
    counts = Counter(keys.below(keys.draw(s, i), k) for i in range(n))
    assert set(counts) == set(range(k))
    # each count is Binomial(n, 1/k): allow 5 standard errors
    sd = (n * (1 / k) * (1 - 1 / k)) ** 0.5
    assert all(abs(c - n / k) < 5 * sd for c in counts.values()), counts


def test_shuffle_is_a_keyed_permutation():
    items = list(range(48))
    a = keys.shuffled(items, 1, 0, 0)
    assert sorted(a) == items and a != items
    assert keys.shuffled(items, 1, 0, 0) == a
    assert keys.shuffled(items, 1, 0, 1) != a
