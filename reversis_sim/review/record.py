"""A seat's decisions reviewed from its deal record: how a person's game is reviewed, and the values of ``play``'s
``hint``.

``review`` (:func:`reversis_sim.review.one_deal.review_deal`) plays the deal again in the numba engine from its
key, every seat deciding by its policy. A person is not a policy, so a person's deal is reviewed from its record
instead, by the same kernel: the record is played again with every decision taken from it
(:func:`reversis_sim.review.reviewing.review_record`), and each decision of the reviewed seats is valued as
the reviewing table values it, in worlds drawn with the review's keys (by seed, match, deal, seat, trick and
position), so that a bot's decision reviewed here gets ``review``'s numbers to the digit (a test holds it). Any
record can be reviewed so, a person's or a bot's, whatever the match before it; the luck of the hand (deals dealt
again and played by the seat's policy) is the one column a person's review cannot have.

It is the review's third job beside one deal (:mod:`.one_deal`) and a player (:mod:`.batch`): ``review record FILE``
and ``play``'s report and ``hint`` call it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import rules_of
from ..policies import PolicySpec, parse_spec
from ..rules import Rules
from .marks import THRESHOLDS
from .one_deal import decision_dicts, decisions_taken
from .reviewing import record_arrays, review_key
from .reviewing import review_record as review_record_nb


def review_record(record: dict, seats: Sequence[int], *, worlds: int = 16, rollout: PolicySpec | str = "tuned",
                  rules: Rules | None = None) -> dict:
    """The review of ``seats``' decisions in ``record`` (the exchange, the declaration, each card), in ``review``'s
    JSON shape (``record``, ``review``, ``decisions``, ``seats``; no luck: see the module docstring)."""
    rules = rules or rules_of(record)
    spec = parse_spec(rollout) if isinstance(rollout, str) else rollout
    out = review_record_nb(rules, record_arrays(rules, record), key=review_key(record), reviewed=seats,
                           worlds=worlds, rollout=spec)
    decisions = decision_dicts(rules, out, range(len(out.options)))
    per_seat = []
    for s in seats:
        mine = [x for x in decisions if x["seat"] == s]
        total = sum(x["loss"] for x in mine)
        per_seat.append({"seat": s, "policy": record["seats"][s], "decisions": decisions_taken(rules, record, s),
                         "non_forced": len(mine),
                         "total_loss": total, "mean_loss": total / len(mine) if mine else 0.0,
                         "marks": {m: sum(1 for x in mine if x["mark"] == m) for m in THRESHOLDS},
                         "fish": int(record["result"]["fish"][s]), "luck": None, "luck_adjusted": None})
    settings = {"seats": list(seats), "worlds": int(worlds), "rollout": spec.text,
                "rollout_name": "tuned" if spec == parse_spec("tuned") else spec.text, "luck_samples": 0}
    return {"record": record, "review": settings, "decisions": decisions, "seats": per_seat}


def card_verdict(record: dict, card: int, *, worlds: int = 16, rollout: PolicySpec | str = "tuned",
                 rules: Rules | None = None) -> dict | None:
    """The decision after the last card of ``record`` (a deal in progress) valued with ``card`` as the card
    played, as ``review`` writes a decision (every option's value, the best); None where every legal card comes to
    the same."""
    rules = rules or rules_of(record)
    out = review_record_nb(rules, record_arrays(rules, record), key=review_key(record), reviewed=(), worlds=worlds,
                           rollout=rollout, card=card)
    decisions = decision_dicts(rules, out, range(len(out.options)))
    return decisions[0] if decisions else None
