"""A deal as a card player reads it: the deal record (RULES.md Appendix A) drawn as text.

:func:`diagram` takes the JSON-ready record either engine gives (:func:`.deal_record.deal_record`) and writes the
four dealt hands by suit (the Aces and the J♥ marked), the talon, each exchange, the declaration, then trick by
trick the leader, the cards in playing order with their seats, the winner and what moved (the Aces, the Quinola,
the pool), and the settlement with each seat's fish. Unicode suits, or plain ASCII (``ascii=True``: ``S H D C``,
for terminals and logs without them). It reads the record only: the record stays the one truth
(``--format json``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import cards as C
from .vocabulary import POOL, quinola_fate

SUIT_SYMBOLS = "♠♥♦♣"
"""The suits in the order of :data:`reversis_sim.cards.SUITS` (S H D C)."""

REASON_WORDS = {
    "ante": "ante", "ace_dumped": "Ace dumped", "ace_forced": "Ace forced", "ace_led": "Ace led",
    "quinola_dumped": "Quinola dumped", "quinola_forced": "Quinola forced", "quinola_led": "Quinola led",
    "pool_double": "pool doubled", "pool_won": "pool won", "party": "party", "reversis_made": "reversis made",
    "reversis_broken": "reversis broken", "return": "returned", "espagnolette": "espagnolette",
    "quinola_captured": "Quinola captured", "penalty": "penalty", "bete": "bête", "bete_share": "bête share",
    "pool_to_winner": "pool to the winner", "reversis_pool": "reversis takes the pool",
    "espagnolette_made": "espagnolette made", "espagnolette_pool": "espagnolette takes the pool",
    "espagnolette_failed": "espagnolette failed", "espagnolette_reversis": "espagnolette's reversis",
    "bank_double": "bank doubled",
}
"""Each payment reason (:data:`.vocabulary.REASONS`) in a player's words."""

LEGEND = "[A] an Ace, [J] in hearts the Quinola (J♥)"


def card_text(name: str, ascii: bool = False) -> str:
    """A card of the record (``"JH"``) as it is printed: ``J♥``, or ``JH`` in ASCII."""
    return name if ascii else name[0] + SUIT_SYMBOLS[C.SUITS.index(name[1])]


def _party(p, label) -> str:
    return "pool" if p == POOL else label(p)


def _strength_order(ranks: str) -> dict[str, int]:
    """Each rank letter's place in the preset's ranks, strongest first (``"AKQJ98765432"``)."""
    return {r: i for i, r in enumerate(ranks)}


def hand_rows(hand: Sequence[str], ranks: str, ascii: bool = False) -> str:
    """One hand by suit, strongest first, the Aces and the J♥ marked: ``♠ K 7 4   ♥ [J] 9   ♦ -   ♣ [A] Q``."""
    order = _strength_order(ranks)
    parts = []
    for s, suit in enumerate(C.SUITS):
        cards = sorted((c for c in hand if c[1] == suit), key=lambda c: order.get(c[0], 99))
        shown = [f"[{c[0]}]" if c[0] == "A" or c == "JH" else c[0] for c in cards]
        parts.append(f"{suit if ascii else SUIT_SYMBOLS[s]} {' '.join(shown) or '-':<18}")
    return " ".join(parts).rstrip()


def moves_text(payments: Sequence[dict], label) -> str:
    """The payments of one trick, grouped by reason: ``Ace dumped S2→S1 1 · pool doubled S0→pool 12``."""
    out = []
    for p in payments:
        out.append(f"{REASON_WORDS.get(p['reason'], p['reason'])} {_party(p['from'], label)}→"
                   f"{_party(p['to'], label)} {p['amount']}")
    return " · ".join(out)


def seat_order(n_seats: int, dealer: int, sits_out: bool, first: int) -> list[int]:
    """The seats taking part, in playing order from ``first`` (F0.2)."""
    seats = [(first + k) % n_seats for k in range(n_seats)]
    return [s for s in seats if not (sits_out and s == dealer)]


def diagram(record: dict, ascii: bool = False, marks: dict[tuple[int, int], str] | None = None,
            names: Sequence[str] | None = None) -> str:
    """The deal ``record`` as a diagram (module docstring); ``ascii``: plain-ASCII suits; ``marks``: a mark to print
    after a card, by (1-based trick, position in the trick), e.g. a review's ``?!``; ``names``: each seat's policy
    as a person knows it (a preset's name), instead of the record's specs."""
    marks = marks or {}
    rp = record["rules_params"]
    n, dealer = rp["n_seats"], record["dealer"]
    sits_out = bool(rp.get("dealer_sits_out"))
    ranks = rp.get("ranks") or "AKQJ98765432"
    seats = list(names) if names is not None else record["seats"]
    width = max(len(f"S{s}") for s in range(n))

    def label(s) -> str:
        return f"S{s}"

    def card(c: str) -> str:
        return card_text(c, ascii)

    lines = [f"{record['rules']} · seed {record['run_seed']} · match {record['match']} · deal {record['deal']} · "
             f"dealer {label(dealer)} · pool before {record['pool_before']}"]
    if len(set(seats)) == 1:
        lines.append(f"every seat: {seats[0]}")
    else:
        lines += [f"{label(s):<{width}}  {seats[s]}" for s in range(n)]
    lines.append("")
    lines.append(f"Dealt hands   {LEGEND if not ascii else LEGEND.replace(' (J♥)', '')}")
    for s in range(n):
        if sits_out and s == dealer:
            lines.append(f"  {label(s):<{width}}  sits out (deals)")
            continue
        tag = " (dealer)" if s == dealer else ""
        lines.append(f"  {label(s):<{width}}  {hand_rows(record['dealt'][s], ranks, ascii)}{tag}")
    offered = [(s, c) for s, c in enumerate(record["talon_offered"]) if c is not None]
    if offered or record["exchanges"]:
        lines.append("")
        lines.append("Exchange      " + " · ".join(f"{label(s)} is offered {card(c)}" for s, c in offered))
        for e in record["exchanges"]:
            s = e["seat"]
            if e["discard"] is None:
                what = f"keeps its hand and looks at {card(record['talon_offered'][s])}"
            elif e["took"]:
                got = record["talon_offered"][s]
                what = f"discards {card(e['discard'])}, takes {card(got)}" if got is not None else \
                    f"discards {card(e['discard'])}"
            else:
                what = f"discards {card(e['discard'])}"
            lines.append(f"  {label(s):<{width}}  {what}")
        lines.append(f"  talon {' '.join(card(c) for c in record['talon'])}")
    esp = record.get("espagnolette")
    lines.append("")
    if esp is None:
        lines.append("Declaration   none")
    else:
        goal = f", goal {esp['goal'].replace('_', ' ')}" if esp.get("goal") else ""
        lines.append(f"Declaration   {label(esp['seat'])} declares the espagnolette{goal}")
    lines.append("")
    lines.append("Tricks")
    by_trick: dict[int | None, list[dict]] = {}
    for p in record["payments"]:
        by_trick.setdefault(p["trick"], []).append(p)
    fate, fate_trick = quinola_fate(tuple(C.parse(c) for c in tr["cards"]) for tr in record["tricks"])
    for t, tr in enumerate(record["tricks"], start=1):
        order = seat_order(n, dealer, sits_out, tr["leader"])
        played = "  ".join(f"{label(s)} {card(c) + marks.get((t, k), ''):<5}"
                           for k, (s, c) in enumerate(zip(order, tr["cards"])))
        moved = moves_text(by_trick.get(t, []), label)
        lines.append(f"  {t:>2}  {played}  → {label(tr['winner'])}" + (f"   {moved}" if moved else ""))
    result = record["result"]
    lines.append("")
    if fate_trick == 0:
        lines.append("Quinola       never played (in the talon)")
    else:
        lines.append(f"Quinola       {('talon', 'dumped', 'forced', 'led')[fate]} at trick {fate_trick}")
    rev = result.get("reversis")
    if rev is not None:
        verdict = "made" if rev["made"] else f"broken by {label(rev['breaker'])}"
        lines.append(f"Reversis      {label(rev['seat'])} committed, {verdict}")
    if result.get("espagnolette") is not None:
        e = result["espagnolette"]
        lines.append(f"Espagnolette  {label(e['seat'])} {'made' if e['made'] else 'failed'}")
    if result.get("party_winner") is not None:
        lines.append(f"Party         won by {label(result['party_winner'])} (card points "
                     f"{' '.join(str(x) for x in result['card_points'])})")
    settle = [p for p in record["payments"] if p["trick"] is None and p["reason"] != "ante"]
    if settle:
        lines.append(f"Settlement    {moves_text(settle, label)}")
    antes = [p for p in record["payments"] if p["reason"] == "ante"]
    if antes:
        lines.append(f"Antes         {sum(p['amount'] for p in antes)} into the pool")
    fish = result["fish"]
    lines.append("Fish          " + "  ".join(f"{label(s)} {fish[s]:+d}" for s in range(n)) +
                 f"   pool {record['pool_before']} → {result['pool_after']}")
    if "score" in result:
        lines.append("Score         " + "  ".join(f"{label(s)} {result['score'][s]}" for s in range(n)) +
                     "   running " + " ".join(str(x) for x in result["score_after"]))
    if "penalty" in result:
        lines.append("Penalty       " + "  ".join(f"{label(s)} {result['penalty'][s]}" for s in range(n)))
    text = "\n".join(lines)
    return text.translate(_ASCII) if ascii else text


_ASCII = str.maketrans({"·": "|", "→": "->", "ê": "e", "♠": "S", "♥": "H", "♦": "D", "♣": "C"})
"""The non-ASCII characters of a diagram and their plain replacements."""
