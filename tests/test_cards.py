import pytest

from reversis_sim import cards as C


def test_parse_and_name_round_trip_every_card():
    for card in C.deck("AKQJT98765432"):
        assert C.parse(C.name(card)) == card
    assert C.name(C.QUINOLA) == "JH" and C.name(C.ACE_OF_DIAMONDS) == "AD"
    assert C.parse("10h") == C.parse("TH")


@pytest.mark.parametrize("bad", ["", "J", "JX", "1H", "JHH", "ZZ"])
def test_parse_rejects_non_cards(bad):
    with pytest.raises(ValueError, match="not a card"):
        C.parse(bad)


def test_decks_and_masks():
    d48 = C.deck("AKQJ98765432")
    assert len(d48) == 48 and len(set(d48)) == 48 and all(C.rank_of(c) != C.RANK_TEN for c in d48)
    assert len(C.deck("AKQJT98765432")) == 52
    m = C.mask(d48)
    assert C.from_mask(m) == sorted(d48) and m < 2**64
    # a suit's cards sit in one 16-bit lane
    for c in d48:
        assert (C.mask([c]) >> (16 * C.suit_of(c))) & 0xFFFF == 1 << C.rank_of(c)
