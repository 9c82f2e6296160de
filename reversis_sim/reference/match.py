"""Whole deals and matches: the deal's steps in order, then the deals of a match with the dealer rotating and the
pool carried over (RULES.md R4, R9, R10, F0.7, F3.3, F4.3, G14)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .. import cards as C
from ..constraints import Deals
from ..game import FATE_DUMPED, DealOutcome, deal_record, dealer_of, quinola_fate
from ..policies import Policy, PolicySpec
from ..rules import Rules
from .deal import DealState
from .seat_policy import make_policy
from .settle import settle
from .table import Layout, deal_cards


def play_deal_outcome(rules: Rules, policies: Sequence[Policy], *, seed: int = 0, match: int = 0, deal: int = 0,
                      dealer: int = 0, pool_before: int = 0, seat_names: Sequence[str] | None = None,
                      layout: Layout | None = None, double_ante: bool = False,
                      score_before: Sequence[int] | None = None,
                      policy_seeds: Sequence[int] | None = None, deals: Deals | None = None) -> DealOutcome:
    """Play one deal and return its outcome (the arguments are those of :func:`play_deal`)."""
    if len(policies) != rules.n_seats:
        raise ValueError(f"{rules.name} needs {rules.n_seats} seat policies, got {len(policies)}")
    layout = layout or deal_cards(rules, seed, match, deal, dealer, deals)
    g = DealState(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer, pool_before=pool_before,
                  layout=layout, double_ante=double_ante, policy_seeds=policy_seeds)
    g.antes()
    g.exchange()
    g.declare()
    g.play_tricks()
    settle(g)
    names = list(seat_names) if seat_names is not None else ["?"] * rules.n_seats
    if rules.scoring == "simple" and score_before is None:
        score_before = [0] * rules.n_seats
    return g.outcome(names, score_before if rules.scoring == "simple" else None)


def play_deal(rules: Rules, policies: Sequence[Policy], *, seed: int = 0, match: int = 0, deal: int = 0,
              dealer: int = 0, pool_before: int = 0, seat_names: Sequence[str] | None = None,
              layout: Layout | None = None, double_ante: bool = False,
              score_before: Sequence[int] | None = None, policy_seeds: Sequence[int] | None = None,
              deals: Deals | None = None) -> dict:
    """Play one deal and return its deal record (Appendix A) as JSON-ready data.

    Parameters
    ----------
    rules : the rule set; policies : one per seat; seed, match, deal : the deal's identifiers (they key the shuffle
    and the policies' randomness); dealer, pool_before : where the match stands; seat_names : the ``seats`` field;
    layout : fixed cards instead of the keyed shuffle (to settle a given deal); double_ante : ``serbian``, the
    previous deal had a J♥ placement (F3.3); score_before : ``parlett_simple``, the running totals (F4.3);
    policy_seeds : one seed per seat for its policy's randomness (default: ``seed``; the cards follow ``seed``);
    deals : constrained deals (predealt cards, a ``where`` condition: :class:`reversis_sim.constraints.Deals`).
    """
    return deal_record(play_deal_outcome(
        rules, policies, seed=seed, match=match, deal=deal, dealer=dealer, pool_before=pool_before,
        seat_names=seat_names, layout=layout, double_ante=double_ante, score_before=score_before,
        policy_seeds=policy_seeds, deals=deals))


def placed(record: dict) -> bool:
    """The J♥ was placed (dumped) in the deal of this record."""
    return quinola_fate(tuple(C.parse(c) for c in t["cards"]) for t in record["tricks"])[0] == FATE_DUMPED


def play_match(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int,
               n_deals: int | None = None, policy_seeds: Sequence[int] | None = None,
               deals: Deals | None = None) -> Iterator[dict]:
    """R4, R10: the deals of one match in order, the dealer rotating and the pool carried over (a won pool
    restarts, R9). Yields one deal record per deal.

    The match has ``n_deals`` deals (default the preset's ``match_deals``). F0.7: a pool that does not persist
    starts every deal at 0. F3.3: ``serbian`` doubles the antes after a placement. F4.3, G14: in
    ``parlett_simple`` no deal follows one in which a running total reached the target.
    """
    policies = [make_policy(s) for s in seats]
    names = [str(s) for s in seats]
    pool, double_ante, score = 0, False, [0] * rules.n_seats
    for deal in range(rules.match_deals if n_deals is None else n_deals):
        record = play_deal(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer_of(rules, deal),
                           pool_before=pool, seat_names=names, double_ante=double_ante, score_before=score,
                           policy_seeds=policy_seeds, deals=deals)
        pool = record["result"]["pool_after"] if rules.pool_persists else 0
        double_ante = rules.double_ante_after_placement and placed(record)
        yield record
        if rules.scoring == "simple":
            score = record["result"]["score_after"]
            if max(score) >= rules.target_total:
                return


def replay(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int, deal: int,
           policy_seeds: Sequence[int] | None = None, deals: Deals | None = None) -> dict:
    """The record of deal ``deal`` of match ``match``: the match is played up to it (the pool carries)."""
    *_, record = play_match(rules, seats, seed=seed, match=match, n_deals=deal + 1, policy_seeds=policy_seeds,
                            deals=deals)
    if record["deal"] != deal:
        raise ValueError(f"match {match} ended after deal {record['deal']} (a running total reached "
                         f"{rules.target_total}); there is no deal {deal}")
    return record
