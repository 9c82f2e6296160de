"""The training positions: every card decision (and every talon decision, and every declaration of the
espagnolette) of a self-play table with two or more distinct options, each option valued by the review
(:func:`reversis_sim.review.reviewing.review_matches`: played out in worlds consistent with what the seat knew,
the other seats by the rollout policy), and the seat's view at that decision.

The views are the reference engine's (the same deals played again card for card, each seat's view record copied as
its policy is asked), so the facts the weights are fitted on are computed by the very function the player runs on
its view (:func:`reversis_sim.policies.learned_nb.facts`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..constraints import Deals
from ..game import dealer_of
from ..policies import PolicySpec
from ..policies.learned_declaration_nb import declaration_facts_of
from ..policies.learned_exchange_nb import exchange_facts_of
from ..policies.learned_nb import facts_of
from ..reference.match import play_deal
from ..reference.seat_policy import Watching
from ..review.marks import KIND_DECLARATION, KIND_EXCHANGE, KIND_LEAD
from ..review.reviewing import review_matches
from ..rules import Rules

DECLARATION = -2
"""The trick of a declaration's key in the store of views (-1: a talon decision's)."""


class _Capture(Watching):
    """A seat that plays as ``inner`` and keeps its view record at each card it plays, keyed by (deal, trick,
    position in the trick), at its talon decision and at its declaration (keyed by the seat)."""

    def __init__(self, inner, store: dict, deal_key: list):
        super().__init__(inner)
        self.store, self.deal_key = store, deal_key

    def watch(self, view, legal, card) -> None:
        self.store[(*self.deal_key, view.trick_index, len(view.current))] = self.inner._view.copy()

    def exchange(self, view):
        card = self.inner.exchange(view)
        self.store[(*self.deal_key, -1, view.seat)] = self.inner._view.copy()
        return card

    def declare_espagnolette(self, view):
        declares = self.inner.declare_espagnolette(view)
        self.store[(*self.deal_key, DECLARATION, view.seat)] = self.inner._view.copy()
        return declares


def views_of(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, first_match: int, n_matches: int,
             deals: Deals | None = None) -> dict:
    """The view record of every card played in matches ``first_match ..`` (of the constrained ``deals``, if
    given), keyed by (match, deal, trick, position), of every talon decision, keyed by (match, deal, -1, seat), and
    of every declaration, keyed by (match, deal, :data:`DECLARATION`, seat), from the reference engine."""
    store: dict = {}
    key = [0, 0]
    policies = [_Capture(s, store, key) for s in seats]
    for match in range(first_match, first_match + n_matches):
        pool = 0
        for deal in range(rules.match_deals):
            key[0], key[1] = match, deal
            record = play_deal(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer_of(rules, deal),
                               pool_before=pool, deals=deals)
            pool = record["result"]["pool_after"]
    return store


class _Declared(Exception):
    """Raised by :class:`_UpToDeclaration` once the declaration's view is kept: the rest of the deal is not
    needed."""


class _UpToDeclaration(_Capture):
    """A :class:`_Capture` that stops the deal after its declaration."""

    def declare_espagnolette(self, view):
        super().declare_espagnolette(view)
        raise _Declared


def declaration_views(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, deals: Deals | None,
                      pools: dict, which: Sequence[tuple[int, int]]) -> dict:
    """The view record of the declaration in each deal ``(match, deal)`` of ``which``, keyed as :func:`views_of`
    keys it, from the reference engine: each deal played alone from the pool ``pools[(match, deal)]`` carried into
    it (as the match played it) up to its declaration, not on (the cards and the exchange before it do not depend
    on what came before in the match, the pool apart). The view's doubled antes (``serbian``, after a J♥ placement)
    are not carried in: no heuristic's decision reads them, and a table of the learning run is a heuristic's."""
    store: dict = {}
    key = [0, 0]
    policies = [_UpToDeclaration(s, store, key) for s in seats]
    for match, deal in which:
        key[0], key[1] = match, deal
        try:
            play_deal(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer_of(rules, deal),
                      pool_before=pools[(match, deal)], deals=deals)
        except _Declared:
            pass
    return store


def positions(rules: Rules, seats: Sequence[PolicySpec], rollout: PolicySpec, *, seed: int, first_match: int,
              n_matches: int, worlds: int) -> dict[str, np.ndarray]:
    """The reviewed card decisions of matches ``first_match ..`` as arrays: ``O`` (options x N_O facts), ``D``
    (decisions x N_D facts), ``value`` (each option's measured value, fish), ``decision`` (each option's decision),
    ``card`` (each option's card), ``played`` (1 for the card the table played), ``deal`` (each decision's
    (match, deal) as one number: match * match_deals + deal); and the same arrays of the reviewed talon decisions
    with two or more options, each name prefixed by ``x`` (``xO``, ``xD``, ...; a card -1 is keeping the hand)."""
    out = review_matches(rules, seats, seed=seed, first_match=first_match, n_matches=n_matches,
                         reviewed=range(rules.n_seats), worlds=worlds, rollout=rollout, keep_options=True,
                         luck_samples=0, threads=1)
    d = out.decisions
    store = views_of(rules, seats, seed=seed, first_match=first_match, n_matches=n_matches)
    cards = _of_kind(rules, out, store, (d["kind"] >= KIND_LEAD) & (d["options"] >= 2),
                     lambda r: (int(d["trick"][r]), int(d["position"][r])), facts_of)
    talon = _of_kind(rules, out, store, (d["kind"] == KIND_EXCHANGE) & (d["options"] >= 2),
                     lambda r: (-1, int(d["seat"][r])), exchange_facts_of)
    return cards | {"x" + k: v for k, v in talon.items()}


def declarations(rules: Rules, seats: Sequence[PolicySpec], rollout: PolicySpec, *, seed: int, first_match: int,
                 n_matches: int, worlds: int, deals: Deals, reviewed: Sequence[int]) -> dict[str, np.ndarray]:
    """The reviewed declarations of the seats ``reviewed`` in matches ``first_match ..`` of the constrained
    ``deals`` (dealt so that those seats may be eligible), as the arrays of :func:`positions` (``card``: the
    option, a ``DECLARE_*`` code)."""
    out = review_matches(rules, seats, seed=seed, first_match=first_match, n_matches=n_matches, reviewed=reviewed,
                         worlds=worlds, rollout=rollout, keep_options=True, luck_samples=0, threads=1, deals=deals)
    d = out.decisions
    rows = np.flatnonzero(d["kind"] == KIND_DECLARATION)
    pools = {(int(m), int(k)): int(p) for m, k, p in zip(out.deals["match"], out.deals["deal"],
                                                          out.deals["pool_before"])}
    store = declaration_views(rules, seats, seed=seed, deals=deals, pools=pools,
                              which=sorted({(int(d["match"][r]), int(d["deal"][r])) for r in rows}))
    return _of_kind(rules, out, store, (d["kind"] == KIND_DECLARATION) & (d["options"] >= 2),
                    lambda r: (DECLARATION, int(d["seat"][r])), declaration_facts_of)


def _of_kind(rules: Rules, out, store: dict, which: np.ndarray, where, facts) -> dict[str, np.ndarray]:
    """The arrays of the reviewed decisions ``which`` (a mask of the decision rows), their views found in
    ``store`` at (match, deal, *where(row)), their facts computed by ``facts``."""
    d = out.decisions
    rows = np.flatnonzero(which)
    keys = [(int(d["match"][r]), int(d["deal"][r]), *where(r)) for r in rows]
    missing = [k for k in keys if k not in store]
    if missing:
        raise AssertionError(f"the reference engine did not play the reviewed decision {missing[0]}")
    views = np.stack([store[k] for k in keys]) if keys else np.zeros((0, 1), np.int64)
    opts = [out.options[r] for r in rows]
    lens = np.array([len(x) for x in opts], np.int64)
    op = np.concatenate(opts) if opts else np.zeros((0, 4))
    decision = np.repeat(np.arange(len(rows)), lens)
    cards = op[:, 0].astype(np.int64)
    opt, dec = facts(rules, views, cards, decision)
    played = (cards == d["played"][rows][decision]).astype(np.int8)
    return {"O": opt, "D": dec, "value": op[:, 1].astype(np.float64), "decision": decision, "card": cards,
            "played": played, "deal": (d["match"][rows] * rules.match_deals + d["deal"][rows]).astype(np.int64)}
