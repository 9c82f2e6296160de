"""Build hand-made deal records from the compact trick notation of the golden "about" texts.

A deal is written trick by trick, each trick as ``T<n> L<leader>: c1 c2 c3 c4`` with the cards in playing order
from the leader (seat ``leader``, then ``leader+1``, ...), e.g. ``"T1 L1: 2S AS 3S 4S"``. An optional
``-> w`` after the cards states the expected winner; anything else on the line is a comment. Several tricks may
share a line (separated by ``;``).

From the 11 tricks :func:`build` derives every seat's hand (the cards it played) and, with the talon, the hands as
dealt; the result is a record-like dict that :func:`reversis_sim.reference.settle_record` replays. The builder
checks the structure only (every card once, 11 cards a seat, the leader chain of R17/R19); whether each play was
legal is the engine's verdict, so a test can also build a deal with an illegal play on purpose.

Seats are 0..3 in playing order: ``s+1`` plays after ``s``, ``s+2`` sits opposite, the eldest is ``dealer+1``.
"""

from __future__ import annotations

import re
from collections import Counter

from reversis_sim import reference
from reversis_sim.rules import get_preset

RANKS = "AKQJ98765432"  # high to low (R6); no tens in the 48-card pack (R5)
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]
POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}  # R7

PARLETT = get_preset("parlett")

_TRICK = re.compile(
    r"T(?P<n>\d+)\s+L(?P<leader>\d)\s*:\s*"
    r"(?P<cards>[AKQJ98765432][SHDC](?:\s+[AKQJ98765432][SHDC]){3})\b"
    r"(?:\s*->\s*(?P<winner>\d))?"
)


def parse_tricks(text: str) -> list[dict]:
    """The tricks of ``text`` in trick order: ``{"leader", "cards", "winner" (stated, or None)}``."""
    found = []
    for m in _TRICK.finditer(text):
        found.append((int(m["n"]), {"leader": int(m["leader"]), "cards": m["cards"].split(),
                                    "winner": None if m["winner"] is None else int(m["winner"])}))
    numbers = [n for n, _ in found]
    assert numbers == list(range(1, len(found) + 1)), f"tricks must be numbered 1, 2, ... in order: {numbers}"
    return [t for _, t in found]


def replace_trick(text: str, new: str) -> str:
    """``text`` with one trick replaced by ``new`` (a single trick in the same notation, same trick number), so
    a variant deal shows exactly what it changes."""
    (m,) = list(_TRICK.finditer(new))
    n = int(m["n"])
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if any(int(x["n"]) == n for x in _TRICK.finditer(line))]
    assert len(hits) == 1 and len(list(_TRICK.finditer(lines[hits[0]]))) == 1, f"trick {n} must be alone on a line"
    lines[hits[0]] = new
    return "\n".join(lines)


def seat_of(leader: int, k: int) -> int:
    """The seat that plays the k-th card (0-based) of a trick led by ``leader``."""
    return (leader + k) % 4


def trick_winner(leader: int, cards: list[str]) -> int:
    """R19: the highest card of the suit led wins (no trumps)."""
    led = cards[0][1]
    best = max((k for k, c in enumerate(cards) if c[1] == led), key=lambda k: -RANKS.index(cards[k][0]))
    return seat_of(leader, best)


def points(cards) -> int:
    """R7: card points of some cards."""
    return sum(POINTS.get(c[0], 0) for c in cards)


def build(dealer: int, tricks_text: str, talon, pool_before: int = 0, espagnolette: int | None = None,
          took: dict | None = None, n_tricks: int = 11) -> dict:
    """A record-like dict for :func:`reference.settle_record`.

    ``talon`` is the talon at the first lead, in the engine's order: ``talon[0]`` is the dealer's discard (R13),
    ``talon[k]`` (k = 1..3) the card left in front of seat ``dealer+k``. A non-dealer only looks at his card unless
    ``took`` maps his seat to ``(discard, taken)`` (R14 a): he discarded ``discard`` (so ``talon[k]`` must be that
    card) and took the face-down card ``taken`` (one of the cards he then plays). ``espagnolette`` is the
    declaring seat, if any (R38).
    """
    took = dict(took or {})
    talon = list(talon)
    assert len(talon) == 4, "the talon is always 4 cards (R15)"
    tricks = parse_tricks(tricks_text)
    assert len(tricks) == n_tricks, f"a deal has {n_tricks} tricks, got {len(tricks)}"

    played: list[list[str]] = [[] for _ in range(4)]
    leader = (dealer + 1) % 4  # R17: the eldest leads to the first trick
    for t, tr in enumerate(tricks, start=1):
        assert tr["leader"] == leader, f"trick {t} must be led by {leader} (the last winner), not {tr['leader']}"
        for k, card in enumerate(tr["cards"]):
            played[seat_of(leader, k)].append(card)
        winner = trick_winner(leader, tr["cards"])
        if tr["winner"] is not None:
            assert tr["winner"] == winner, f"trick {t}: the text says -> {tr['winner']}, but seat {winner} wins it"
        leader = winner  # R19: the winner leads the next trick

    everything = Counter([c for h in played for c in h] + talon)
    assert not set(everything) - set(DECK), f"not cards of the 48-card pack: {sorted(set(everything) - set(DECK))}"
    assert all(n == 1 for n in everything.values()), f"cards used twice: {[c for c, n in everything.items() if n > 1]}"
    assert len(everything) == 48, f"cards missing: {sorted(set(DECK) - set(everything))}"
    assert all(len(h) == n_tricks for h in played), f"each seat holds {n_tricks} cards at the first lead"

    dealt = [list(h) for h in played]
    offered: list[str | None] = [None] * 4
    exchanges = [{"seat": dealer, "discard": talon[0], "took": False}]  # R13: the dealer discards first
    dealt[dealer].append(talon[0])
    for k in (1, 2, 3):
        seat = (dealer + k) % 4
        if seat in took:  # R14 (a): discard one card, take the face-down card unseen
            discard, taken = took.pop(seat)
            assert talon[k] == discard, f"seat {seat} discarded {discard}: talon[{k}] must be that card"
            assert taken in played[seat], f"seat {seat} took {taken}, so it must play it"
            dealt[seat].remove(taken)
            dealt[seat].append(discard)
            offered[seat] = taken
            exchanges.append({"seat": seat, "discard": discard, "took": True})
        else:  # R14 (b): keep the hand and only look at the card
            offered[seat] = talon[k]
            exchanges.append({"seat": seat, "discard": None, "took": False})
    assert not took, f"took names the dealer or an unknown seat: {took}"

    return {
        "format": "reversis-deal/1",
        "rules": "parlett",
        "dealer": dealer,
        "seats": ["hand"] * 4,
        "pool_before": pool_before,
        "dealt": [sorted(h, key=DECK.index) for h in dealt],
        "talon_offered": offered,
        "exchanges": exchanges,
        "espagnolette": None if espagnolette is None else {"seat": espagnolette},
        "tricks": [{"leader": tr["leader"], "cards": tr["cards"]} for tr in tricks],
        "stated_winners": [tr["winner"] for tr in tricks],
    }


def settle(record: dict, rules=PARLETT) -> dict:
    """Replay ``record`` through the reference engine; check the winners the text stated and the Appendix A
    identities (fish = received - paid; pool_after = pool_before + in - out)."""
    out = reference.settle_record(record, rules)
    for t, (tr, stated) in enumerate(zip(out["tricks"], record["stated_winners"]), start=1):
        assert stated is None or tr["winner"] == stated, f"trick {t}: engine says seat {tr['winner']} won"
    bal = balance(out["payments"])
    assert out["result"]["fish"] == [bal.get(s, 0) for s in range(4)]
    assert out["result"]["pool_after"] == record["pool_before"] + bal.get("pool", 0)
    return out


def rows(payments, *, antes: bool = False) -> list[tuple]:
    """Payment rows as sorted ``(trick, from, to, amount, reason)`` tuples (antes left out unless asked), so that
    a test can compare every row while the order of rows stays free."""
    out = [(p["trick"], p["from"], p["to"], p["amount"], p["reason"]) for p in payments
           if antes or p["reason"] != "ante"]
    return sorted(out, key=repr)


def balance(payments) -> dict:
    """What each party (seat or ``"pool"``) received minus what it paid."""
    bal: Counter = Counter()
    for p in payments:
        bal[p["from"]] -= p["amount"]
        bal[p["to"]] += p["amount"]
    return dict(bal)


def net(payments) -> dict:
    """Net amount between each pair of parties: ``{(payer, payee): amount}`` with amount > 0 (rows between the
    same two parties are summed, opposite directions cancel)."""
    flow: Counter = Counter()
    for p in payments:
        flow[(p["from"], p["to"])] += p["amount"]
    out = {}
    for (a, b), amount in flow.items():
        n = amount - flow.get((b, a), 0)
        if n > 0:
            out[(a, b)] = n
    return out


def by_reason(payments) -> dict:
    """Total amount moved under each reason."""
    tot: Counter = Counter()
    for p in payments:
        tot[p["reason"]] += p["amount"]
    return dict(tot)


def antes(dealer: int, pool_before: int) -> list[tuple]:
    """R9, F0.6: the ante rows of a deal, as :func:`rows` writes them: a new pool (pool_before 0) gets 5 from each
    seat, and the dealer adds 5 on every deal."""
    out = []
    if pool_before == 0:
        out += [(None, s, "pool", 5, "ante") for s in range(4)]
    out.append((None, dealer, "pool", 5, "ante"))
    return sorted(out, key=repr)
