"""One deal reviewed (``reversis-sim review --seed S --match M --deal D``): every decision of the reviewed seats
(the exchange, the declaration, each card) with the value of each option from what the seat knew, the best, the
loss and its mark, the hindsight best, and per seat the decisions, the loss and the luck of the hand dealt.

The deal is the engine's (the record is :func:`reversis_sim.engines.get_engine`'s ``deal_record`` of the same
seats, seed, match and deal); the review plays it again in the numba engine with the decisions valued as they are
taken (:func:`reversis_sim.review.reviewing.review_matches`), numba only.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import cards as C
from ..constraints import Deals
from ..engines import get_engine
from ..game import espagnolette_eligible
from ..game.diagram import card_text, diagram
from ..policies import PolicySpec, display_name
from ..rules import Rules
from .marks import KINDS, MARK_NAMES, THRESHOLDS, mark, option_name, situations
from .settings import ReviewSettings


def review_deal(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int, deal: int,
                settings: ReviewSettings, deals: Deals | None = None) -> dict:
    """The review of one deal as a JSON-ready dict: ``record`` (the deal record), ``review`` (the settings),
    ``decisions`` (each with its ``options``: card, ``value``, ``se``, ``hindsight``), ``seats`` (per reviewed
    seat: decisions, non-forced decisions, total and mean loss, fish, luck, luck-adjusted fish)."""
    from .reviewing import review_matches

    record = get_engine("numba").deal_record(rules, seats, seed=seed, match=match, deal=deal, deals=deals)
    out = review_matches(rules, seats, seed=seed, first_match=match, n_matches=1, reviewed=settings.seats,
                         worlds=settings.worlds, rollout=settings.rollout, only_deal=deal, keep_options=True,
                         luck_samples=settings.luck_samples, deals=deals)
    decisions = decision_dicts(rules, out, np.flatnonzero(out.decisions["deal"] == deal))
    last = np.flatnonzero(out.deals["deal"] == deal)[-1]
    per_seat = []
    for s in settings.seats:
        mine = [x for x in decisions if x["seat"] == s]
        total = sum(x["loss"] for x in mine)
        luck = float(out.deals["luck"][last, s])
        fish = int(out.deals["fish"][last, s])
        per_seat.append({"seat": s, "policy": str(seats[s]), "decisions": decisions_taken(rules, record, s),
                         "non_forced": len(mine),
                         "total_loss": total, "mean_loss": total / len(mine) if mine else 0.0,
                         "marks": {m: sum(1 for x in mine if x["mark"] == m) for m in THRESHOLDS},
                         "fish": fish, "luck": None if np.isnan(luck) else luck,
                         "luck_adjusted": None if np.isnan(luck) else fish - luck})
    return {"record": record, "review": settings.as_dict(), "decisions": decisions, "seats": per_seat}


def decision_dicts(rules: Rules, reviewed, rows) -> list[dict]:
    """The decisions ``rows`` of a review (:class:`reversis_sim.review.reviewing.Reviewed`, its options
    kept) as JSON-ready dicts: where (``trick`` 1-based, 0 before the first lead), who, what kind, the option
    played and the best with their values, the loss, its standard error and mark, the hindsight, each option."""
    d = reviewed.decisions
    out = []
    for i in rows:
        loss, se = float(d["loss"][i]), float(d["loss_se"][i])
        kind = int(d["kind"][i])

        def name(code, kind=kind):
            return option_name(kind, int(code), rules.espagnolette_goal_choice)

        out.append({
            "trick": int(d["trick"][i]) + 1, "seat": int(d["seat"][i]), "position": int(d["position"][i]),
            "kind": KINDS[kind], "situations": situations(int(d["flags"][i])),
            "played": name(d["played"][i]), "best": name(d["best"][i]),
            "value_played": float(d["value_played"][i]), "value_best": float(d["value_best"][i]),
            "loss": loss, "loss_se": se, "mark": mark(loss, se),
            "hindsight_best": name(d["hindsight_best"][i]), "hindsight_loss": float(d["hindsight_loss"][i]),
            "worlds": int(d["worlds"][i]),
            "options": [{"card": name(o[0]), "value": float(o[1]), "se": float(o[2]), "hindsight": float(o[3])}
                        for o in reviewed.options[i]],
        })
    return out


def decisions_taken(rules: Rules, record: dict, seat: int) -> int:
    """The decisions seat ``seat`` took in the deal ``record``: a card a trick, its exchange where the preset has a
    talon, its declaration where it could declare; none for a dealer who sits out."""
    if rules.dealer_sits_out and record["dealer"] == seat:
        return 0
    exchanged = any(e["seat"] == seat for e in record["exchanges"])
    eligible = rules.espagnolette_enabled and espagnolette_eligible(rules, [C.parse(c) for c in record["hands"][seat]])
    return rules.n_tricks + int(exchanged) + int(eligible)


def review_text(review: dict, ascii: bool = False) -> str:
    """The review of one deal as text: the deal's diagram with the marks on the cards, the reviewed decisions one
    line each (the played and best options' values, the loss, the hindsight best), and the seats' totals."""
    def card(name: str) -> str:  # a card's suit as a symbol; keep, pass, declare as they are
        return card_text(name, ascii) if len(name) == 2 else name

    decisions = review["decisions"]
    marks = {(x["trick"], x["position"]): x["mark"] for x in decisions if x["mark"] and x["trick"] > 0}
    s = review["review"]
    names = [display_name(x) for x in review["record"]["seats"]]
    lines = [diagram(review["record"], ascii=ascii, marks=marks, names=names), ""]
    seats = ", ".join(f"S{x}" for x in s["seats"])
    lines.append(f"Review of {seats}: each option played out in {s['worlds']} worlds consistent with what the seat "
                 f"knew, by {s['rollout_name']} in every seat; values in fish, ± one standard error. Half the worlds "
                 f"choose the best option, the other half measure every value, so a loss can come out negative (the "
                 f"choice measured worse on fresh worlds). Marks where the "
                 f"loss exceeds twice its standard error and " +
                 ", ".join(f"{t:g} ({m} {MARK_NAMES[m]})" for m, t in THRESHOLDS.items()) + " fish.")
    rows = [(x["trick"] if x["trick"] > 0 else "-", x["seat"], x["kind"],
             f"{card(x['played'])} {x['value_played']:+.1f}", f"{card(x['best'])} {x['value_best']:+.1f}",
             f"{x['loss']:.1f} ± {x['loss_se']:.1f}" + (f" {x['mark']}" if x["mark"] else ""),
             f"{card(x['hindsight_best'])} ({x['hindsight_loss']:.0f})") for x in decisions]
    wide = [max([least, *(len(r[k]) for r in rows)]) for k, least in ((3, 22), (4, 22), (5, 14))]  # as long as needed
    lines.append(f"  {'trick':>5}  {'seat':<4} {'kind':<11} {'played':<{wide[0]}} {'best':<{wide[1]}} "
                 f"{'loss':<{wide[2]}} hindsight best (loss)")
    for trick, seat, kind, played, best, loss, hindsight in rows:
        lines.append(f"  {trick:>5}  S{seat:<3} {kind:<11} {played:<{wide[0]}} {best:<{wide[1]}} {loss:<{wide[2]}} "
                     f"{hindsight}")
    if not decisions:
        lines.append("  (no decision with more than one distinct option)")
    lines.append("")
    for p in review["seats"]:
        marks_text = " ".join(f"{n}{m}" for m, n in p["marks"].items() if n) or "no marks"
        luck = "" if p["luck"] is None else (f"; luck of the hand {p['luck']:+.1f}, luck-adjusted "
                                             f"{p['luck_adjusted']:+.1f}")
        lines.append(f"S{p['seat']}  {p['non_forced']} of {p['decisions']} decisions not forced, lost "
                     f"{p['total_loss']:.1f} fish ({p['mean_loss']:.1f} a decision; {marks_text}); "
                     f"result {p['fish']:+d}{luck}")
    text = "\n".join(lines)
    return text.translate(str.maketrans({"±": "+-", "·": "|", "→": "->"})) if ascii else text
