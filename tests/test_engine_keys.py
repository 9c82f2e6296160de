"""The numba twins of the keyed randomness and of the hand-mask helpers agree with the Python versions."""

import numba
import numpy as np
import pytest

from reversis_sim import cards as C
from reversis_sim import keys as K
from reversis_sim import reference
from reversis_sim.kernel import bits as B
from reversis_sim.kernel import keys_nb as NK
from reversis_sim.kernel.compiled import compile_rules
from reversis_sim.kernel.layout import H_DEALT, SWAPS, alloc
from reversis_sim.numba_engine.deal import deal_cards
from reversis_sim.numba_engine.seats import constraint_arrays, seed_u64
from reversis_sim.rules import PRESETS

M64 = K.M64


@numba.njit
def _mix_all(xs):
    out = np.empty_like(xs)
    for i in range(len(xs)):
        out[i] = NK.mix64(xs[i])
    return out


@numba.njit
def _draw_all(stream_key, n):
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = NK.draw(stream_key, i)
    return out


@numba.njit
def _below_all(xs, ns):
    out = np.empty(len(xs), np.int64)
    for i in range(len(xs)):
        out[i] = NK.below(xs[i], ns[i])
    return out


@numba.njit
def _stream(seed, match, deal, purpose, seat):
    return NK.stream(seed, match, deal, purpose, seat)


@numba.njit
def _shuffle_key(seed, match, deal):
    h = NK.extend(NK.extend(NK.seed_hash(seed), match), deal)
    return NK.extend(NK.extend(h, NK.PURPOSE_SHUFFLE), 0)


@numba.njit
def _select_all(masks, ks):
    out = np.empty((len(masks), 3), np.int64)
    for i in range(len(masks)):
        out[i, 0] = B.select(masks[i], ks[i])
        out[i, 1] = B._select_search(masks[i], ks[i])
        out[i, 2] = B.count(masks[i])
    return out


def _u64(rng, n):
    edge = [0, 1, 2, M64, M64 - 1, 1 << 63, (1 << 63) - 1, K.GAMMA]
    return np.array(edge + [int(x) for x in rng.integers(0, 2**63, n, dtype=np.int64)]
                    + [int(x) | (1 << 63) for x in rng.integers(0, 2**63, n, dtype=np.int64)], dtype=np.uint64)


def test_mix64_draw_and_below_agree_with_python():
    rng = np.random.default_rng(1)
    xs = _u64(rng, 5000)
    assert [int(v) for v in _mix_all(xs)] == [K.mix64(int(x)) for x in xs]
    for key in xs[:40]:
        assert [int(v) for v in _draw_all(key, 64)] == [K.draw(int(key), i) for i in range(64)]
    ns = rng.integers(1, 2**31, len(xs))
    ns[:200] = rng.integers(1, 60, 200)
    assert _below_all(xs, ns).tolist() == [K.below(int(x), int(n)) for x, n in zip(xs, ns)]


@pytest.mark.parametrize("seed", [0, 1, 7, 2026, 2**40 + 3, M64, -1, -12345, 2**70 + 5])
def test_streams_agree_with_python_for_any_seed(seed):
    for match, deal, purpose, seat in [(0, 0, 1, 0), (3, 11, 2, 3), (10**6, 7, 2, 1), (2**31, 2**20, 1, 0)]:
        got = _stream(seed_u64(seed), match, deal, purpose, seat)
        assert int(got) == K.stream(seed, match, deal, purpose, seat)


@pytest.mark.parametrize("name", ["parlett", "parlett_52", "modern", "modern_five", "serbian"])
def test_kernel_shuffle_and_deal_match_the_reference(name):
    rules = PRESETS[name]
    n = rules.n_seats
    cr = compile_rules(rules)
    scratch = alloc()
    hands, offered, cards = scratch.hands, scratch.offered, scratch.cards
    for seed, match, deal in [(0, 0, 0), (1, 2, 3), (99, 1000, 11), (-4, 5, 0), (2**64 + 9, 3, 7)]:
        for dealer in range(n):
            key = np.uint64(_shuffle_key(seed_u64(seed), match, deal))
            assert int(key) == K.stream(seed, match, deal, K.PURPOSE_SHUFFLE, 0)
            hands[:] = 1  # a dealer who sits out is dealt nothing, whatever the buffer held
            deal_cards(cr.params, n, cr.deck, cards, key, dealer, hands, offered, constraint_arrays(rules, None)[0])
            lay = reference.deal_cards(rules, seed, match, deal, dealer)
            assert [C.from_mask(int(m)) for m in hands[H_DEALT, :n]] == lay.dealt
            assert [None if c < 0 else int(c) for c in offered[:n]] == lay.talon_offered
            assert cards[:len(cr.deck)].tolist() == K.shuffled(list(rules.tables.deck), seed, match, deal)
    assert SWAPS >= 52


def test_select_and_count_agree_with_sorted_cards():
    rng = np.random.default_rng(3)
    masks, ks, expect = [], [], []
    for _ in range(20000):
        m = int(rng.integers(1, 2**63, dtype=np.int64)) & 0x1FFF_1FFF_1FFF_1FFF or 1 << int(rng.integers(0, 13))
        cs = C.from_mask(m)
        k = int(rng.integers(len(cs)))
        masks.append(m)
        ks.append(k)
        expect.append((cs[k], cs[k], len(cs)))
    got = _select_all(np.array(masks, dtype=np.uint64), np.array(ks, dtype=np.int64))
    assert [tuple(r) for r in got.tolist()] == expect


@pytest.mark.statistical
def test_matches_far_apart_in_a_run_are_independent():
    """A run's matches must be independent draws for every interval the toolkit prints (its sampling unit is the
    match): their cards come from keys that differ only in the match number folded in (``keys_nb.extend``). Over
    200,000 matches of seed 2002, per match the hearts and the J♥ dealt to seat 0 over its twelve deals: the means of
    consecutive blocks of 1,000 and 10,000 matches vary as much as independent matches' would (the ratio of the
    variances is chi-square over its degrees of freedom: the central 99.9% band), and neighbouring matches are
    uncorrelated (|r| within 3.3 standard errors)."""
    from scipy import stats as st

    from reversis_sim.engines import get_engine

    rules = PRESETS["parlett"]
    n_matches = 200_000
    hands = get_engine("numba").dealt_hands(rules, seed=2002, first_match=0, n_matches=n_matches)[:, 0]
    hearts = np.uint64(sum(1 << c for c in range(C.N_CARD_CODES) if C.suit_of(c) == C.HEARTS))
    jack = np.uint64(1 << C.QUINOLA)
    per_deal = {"hearts": np.bitwise_count(hands & hearts).astype(float),
                "jack of hearts": ((hands & jack) != 0).astype(float)}
    for name, x in per_deal.items():
        v = x.reshape(n_matches, rules.match_deals).sum(axis=1)
        v -= v.mean()
        for n in (1_000, 10_000):
            k = n_matches // n
            ratio = v.reshape(k, n).mean(axis=1).var(ddof=1) * n / v.var()
            low, high = st.chi2.ppf([0.0005, 0.9995], k - 1) / (k - 1)
            assert low <= ratio <= high, f"{name}: blocks of {n:,} vary {ratio:.3f} times ({low:.3f}-{high:.3f})"
        r = np.corrcoef(v[:-1], v[1:])[0, 1]
        assert abs(r) <= 3.3 / np.sqrt(n_matches), f"{name}: neighbouring matches correlated, r = {r:.4f}"
