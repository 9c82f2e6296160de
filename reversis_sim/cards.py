"""Card encoding, written once.

A card is a small integer ``card = 16 * suit + rank``::

        rank:   0  1  2  3  4  5  6  7  8  9 10 11 12
                2  3  4  5  6  7  8  9  T  J  Q  K  A
        suit:   0 = S (spades)   bits  0..15 of a hand mask
                1 = H (hearts)   bits 16..31
                2 = D (diamonds) bits 32..47
                3 = C (clubs)    bits 48..63

so a hand is a ``uint64`` bit mask ``sum(1 << card)`` and a suit's cards are one 16-bit lane of it. The rank code
is the natural order (two lowest, ace highest); a preset's *playing* strength (ace low in ``modern``, the J♥ top of
hearts in ``serbian``) is a separate table built by :mod:`reversis_sim.rules`, never by changing this encoding.
Bits 13..15 of each lane are never used. Text form is two characters, rank then suit: ``"JH"`` is the Quinola.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHDC"
RANKS = "23456789TJQKA"  # rank code = index in this string
N_SUITS = 4
SUIT_SHIFT = 4  # card = suit << SUIT_SHIFT | rank
N_CARD_CODES = 64  # size of tables indexed by card

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
RANK_TEN = RANKS.index("T")
RANK_JACK = RANKS.index("J")
RANK_QUEEN = RANKS.index("Q")
RANK_KING = RANKS.index("K")
RANK_ACE = RANKS.index("A")


def make(rank: int, suit: int) -> int:
    """Card code of ``rank`` (0..12) in ``suit`` (0..3)."""
    return (suit << SUIT_SHIFT) | rank


def suit_of(card: int) -> int:
    return card >> SUIT_SHIFT


def rank_of(card: int) -> int:
    return card & 15


def parse(text: str) -> int:
    """``"JH"`` -> card code. Accepts ``10`` for ``T`` and any case; raises ``ValueError`` on anything else."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"{text!r} is not a card: write rank then suit, e.g. 'JH', 'AD', '7C' (ten is 'T')")
    return make(RANKS.index(t[0]), SUITS.index(t[1]))


def name(card: int) -> str:
    """Card code -> ``"JH"``."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def names(cards: Iterable[int]) -> list[str]:
    return [name(c) for c in cards]


QUINOLA = make(RANK_JACK, HEARTS)  # R8: the J♥
ACE_OF_DIAMONDS = make(RANK_ACE, DIAMONDS)
ACES = tuple(make(RANK_ACE, s) for s in range(N_SUITS))


def deck(rank_chars: str) -> list[int]:
    """Every card of the ranks in ``rank_chars`` (e.g. ``"AKQJ98765432"``), in ascending card code."""
    ranks = sorted(RANKS.index(r) for r in rank_chars)
    return [make(r, s) for s in range(N_SUITS) for r in ranks]


def mask(cards: Iterable[int]) -> int:
    """Bit mask of a set of cards (as a Python int; numba code uses ``np.uint64``)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def from_mask(m: int) -> list[int]:
    """Cards of a bit mask, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out
