"""A deal as a picture for documents: the deal record (RULES.md Appendix A) drawn as one SVG file.

:func:`deal_svg` draws what the text diagram (:mod:`.diagram`) says, laid out as a card player sees a deal: the
table from above with each dealt hand by suit at its seat (the seats counter-clockwise in playing order, seat 0 at
the bottom), the dealer and the pool, the talon in the middle; the exchange and the declaration; then trick by
trick the card each seat played (the lead marked ``›``, the winner's card boxed, a review's mark after its card) and
what moved; the settlement and each seat's fish. It reads the record only, and draws with text and a few shapes:
no font, image or script is fetched, so the file opens offline in a browser or a document.
"""

from __future__ import annotations

import math
import textwrap
from xml.sax.saxutils import escape

from .. import cards as C
from .diagram import SUIT_SYMBOLS, moves_text, seat_order
from .vocabulary import FATES, POOL, quinola_fate

RED = "#b3261e"
INK = "#1b1b1b"
FELT = "#e5efe6"
LINE = 18
"""The height of a line of text, in pixels (13 px type)."""
CHAR = 7.4
"""The width the layout allows a character of 13 px type."""


def _rank(name: str) -> str:
    """A card's rank as printed: ``10`` for a ten (``T`` in the record)."""
    return "10" if name[0] == "T" else name[0]


def _card(name: str, mark: str = "") -> str:
    """A card as an SVG ``tspan``: its rank (``10`` for a ten) and suit symbol, hearts and diamonds red."""
    rank = _rank(name)
    colour = RED if name[1] in "HD" else INK
    weight = ' font-weight="bold"' if name == "JH" or name[0] == "A" else ""
    text = f'<tspan fill="{colour}"{weight}>{rank}{SUIT_SYMBOLS[C.SUITS.index(name[1])]}</tspan>'
    return text + (f'<tspan fill="{RED}" font-weight="bold">{escape(mark)}</tspan>' if mark else "")


def _text(x: float, y: float, body: str, *, anchor: str = "start", size: int = 13, weight: str = "normal",
          colour: str = INK) -> str:
    """One line of text at (x, y); ``body`` is already escaped (it may hold card tspans)."""
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{colour}">{body}</text>')


def _hand_lines(hand: list[str], ranks: str) -> list[str]:
    """One hand by suit, strongest first: a line per suit, its symbol then its ranks (the Aces and the J♥ in
    bold), ``-`` for a void."""
    order = {r: i for i, r in enumerate(ranks)}
    lines = []
    for s, suit in enumerate(C.SUITS):
        cards = sorted((c for c in hand if c[1] == suit), key=lambda c: order.get(c[0], 99))
        colour = RED if suit in "HD" else INK
        shown = [f'<tspan font-weight="bold">{_rank(c)}</tspan>' if c[0] == "A" or c == "JH" else _rank(c)
                 for c in cards]
        lines.append(f'<tspan fill="{colour}">{SUIT_SYMBOLS[s]} {" ".join(shown) or "-"}</tspan>')
    return lines


def deal_svg(record: dict, marks: dict[tuple[int, int], str] | None = None, *, title: str | None = None) -> str:
    """The deal ``record`` as an SVG document (module docstring); ``marks``: a mark to draw after a card, by
    (1-based trick, position in the trick), as :func:`.diagram.diagram` takes them; ``title``: the first line
    (default: the rules, the seed, the match, the deal)."""
    marks = marks or {}
    rp = record["rules_params"]
    n, dealer = rp["n_seats"], record["dealer"]
    sits_out = bool(rp.get("dealer_sits_out"))
    ranks = rp.get("ranks") or "AKQJ98765432"
    result = record["result"]

    def who(p) -> str:
        return "pool" if p == POOL else f"S{p}"

    by_trick: dict[int, list[dict]] = {}
    for p in record["payments"]:
        if p["trick"] is not None:
            by_trick.setdefault(p["trick"], []).append(p)
    moved = {t: escape(moves_text(ps, who)) for t, ps in by_trick.items()}
    col, first_col = 64, 84
    won_x = first_col + col * n + 8
    moved_x = won_x + 64
    width = max(820, int(moved_x + CHAR * max((len(m) for m in moved.values()), default=0) + 24))
    out: list[str] = []
    y = 28
    head = title or (f"{record['rules']} · seed {record['run_seed']} · match {record['match']} · deal "
                     f"{record['deal']}")
    out.append(_text(20, y, escape(head), size=15, weight="bold"))
    y += LINE
    out.append(_text(20, y, escape(f"dealer S{dealer} · pool before {record['pool_before']} · seats " + (
        record["seats"][0] if len(set(record["seats"])) == 1 else
        ", ".join(f"S{s} {p}" for s, p in enumerate(record["seats"])))[:150]), size=11, colour="#555"))
    # the table from above: each dealt hand at its seat, counter-clockwise in playing order from the bottom
    top = y + 14
    height = 150 + 62 * 2 + 40
    cx, cy, rx, ry = width / 2, top + height / 2, min(width / 2 - 120, 300), height / 2 - 52
    out.append(f'<rect x="12" y="{top}" width="{width - 24}" height="{height}" rx="26" fill="{FELT}" '
               f'stroke="#9fbfa5"/>')
    for s in range(n):
        phi = 2 * math.pi * s / n
        x, yc = cx + rx * math.sin(phi), cy + ry * math.cos(phi)
        y0 = yc - 2.5 * LINE + 13
        tag = " · dealer" if s == dealer else ""
        if sits_out and s == dealer:
            out.append(_text(x, y0, f"S{s}{tag}", anchor="middle", weight="bold"))
            out.append(_text(x, y0 + LINE, "sits out (deals)", anchor="middle", colour="#555"))
            continue
        out.append(_text(x - 80, y0, f"S{s}{tag}", weight="bold"))
        for k, line in enumerate(_hand_lines(record["dealt"][s], ranks), start=1):
            out.append(_text(x - 80, y0 + k * LINE, line))
    middle = [f"pool {record['pool_before']}"]
    if record["talon"]:
        middle.append("talon " + " ".join(_card(c) for c in record["talon"]))
    for k, line in enumerate(middle):
        out.append(_text(cx, cy - 4 + k * LINE, line, anchor="middle", colour="#333"))
    y = top + height + 26
    # the exchange and the declaration
    offered = record["talon_offered"]
    for e in record["exchanges"]:
        s = e["seat"]
        if e["discard"] is None:
            what = f"keeps its hand and looks at {_card(offered[s])}"
        elif e["took"] and offered[s] is not None:
            what = f"discards {_card(e['discard'])}, takes {_card(offered[s])}"
        else:
            what = f"discards {_card(e['discard'])}"
        out.append(_text(20, y, f"S{s} {what}"))
        y += LINE
    esp = record.get("espagnolette")
    goal = f", goal {esp['goal'].replace('_', ' ')}" if esp and esp.get("goal") else ""
    out.append(_text(20, y, "no declaration" if esp is None else f"S{esp['seat']} declares the espagnolette{goal}"))
    y += LINE + 14
    # the tricks: a column per seat, the lead marked, the winner's card boxed
    out.append(_text(20, y, "trick", weight="bold", size=12))
    for s in range(n):
        out.append(_text(first_col + col * s, y, f"S{s}", weight="bold", size=12))
    out.append(_text(won_x, y, "won by", weight="bold", size=12))
    out.append(_text(moved_x, y, "what moved", weight="bold", size=12))
    for t, tr in enumerate(record["tricks"], start=1):
        y += LINE
        if t % 2 == 0:
            out.append(f'<rect x="14" y="{y - 13}" width="{width - 28}" height="{LINE}" fill="#f3f3f0"/>')
        out.append(_text(38, y, str(t), anchor="end"))
        for k, (s, c) in enumerate(zip(seat_order(n, dealer, sits_out, tr["leader"]), tr["cards"])):
            x = first_col + col * s
            if s == tr["winner"]:
                out.append(f'<rect x="{x - 14}" y="{y - 13}" width="{col - 10}" height="{LINE - 1}" rx="4" '
                           f'fill="none" stroke="#444"/>')
            out.append(_text(x - 10, y, ("›" if k == 0 else "") + _card(c, marks.get((t, k), ""))))
        out.append(_text(won_x, y, f"S{tr['winner']}"))
        if t in moved:
            out.append(_text(moved_x, y, moved[t], size=12))
    y += LINE + 14
    # the settlement
    fate, fate_trick = quinola_fate(tuple(C.parse(c) for c in tr["cards"]) for tr in record["tricks"])
    lines = ["Quinola never played (in the talon)" if fate_trick == 0 else
             f"Quinola {FATES[fate]} at trick {fate_trick}"]
    rev = result.get("reversis")
    if rev is not None:
        lines.append(f"Reversis: S{rev['seat']} committed, " +
                     ("made" if rev["made"] else f"broken by S{rev['breaker']}"))
    if result.get("espagnolette") is not None:
        e = result["espagnolette"]
        lines.append(f"Espagnolette: S{e['seat']} {'made' if e['made'] else 'failed'}")
    if result.get("party_winner") is not None:
        lines.append(f"Party won by S{result['party_winner']}")
    settle = [p for p in record["payments"] if p["trick"] is None and p["reason"] != "ante"]
    if settle:
        lines.append("Settlement: " + moves_text(settle, who))
    for line in lines:
        for part in textwrap.wrap(line, int((width - 40) / (CHAR * 0.92)), subsequent_indent="    "):
            out.append(_text(20, y, escape(part), size=12))
            y += LINE
    fish = " · ".join(f"S{s} {v:+d}" for s, v in enumerate(result["fish"]))
    out.append(_text(20, y + 4, escape(f"Fish: {fish} · pool {record['pool_before']} → {result['pool_after']}"),
                     weight="bold"))
    height_all = int(y + 24)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height_all}" '
            f'viewBox="0 0 {width} {height_all}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">\n'
            f'<title>{escape(head)}</title>\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(out) + "\n</svg>\n")

