"""Deal records from the kernel: the same record (RULES.md Appendix A) as the reference engine's replay.

The kernel plays the match up to the wanted deal (the pool carries) and keeps every array it wrote; this module
only turns those arrays into a :class:`reversis_sim.game.DealOutcome`, which the one record builder,
:func:`reversis_sim.game.deal_record`, writes out. That the two engines' records are equal (==) is what
``tests/test_engine_agreement.py`` checks on thousands of deals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import cards as C
from ..constraints import Deals
from ..game import POOL as POOL_PARTY
from ..game import REASONS, DealOutcome, Exchange, Payment, Reversis, TrickRecord, deal_record
from ..kernel.compiled import MAX_LEDGER, MAX_SEATS, MAX_TRICKS, POOL, compile_rules
from ..kernel.layout import (
    COL_BETE,
    COL_DEALER,
    COL_DECLARER,
    COL_DOUBLE_ANTE,
    COL_ERROR,
    COL_ESP_GOAL,
    COL_ESP_MADE,
    COL_N_EXCH,
    COL_N_PAYMENTS,
    COL_PARTY_LOSER,
    COL_PARTY_WINNER,
    COL_POOL_BEFORE,
    COL_REV_BREAKER,
    COL_REV_MADE,
    COL_REV_SEAT,
    H_DEALT,
    H_LEAD,
    N_COLS,
    Seats,
    kernel_error,
)
from ..kernel.units import call
from ..policies import PolicySpec, parse_spec
from ..policies.deal_nb import PLAY_FROM
from ..rules import Rules
from .deal import Play
from .match import Traced, scratch, trace_match_nb
from .seats import constraint_arrays, policy_seed_array, search_unit, searching, seat_arrays, seed_u64


def trace_match(rules: Rules, seats: Sequence[PolicySpec | str], *, seed: int, match: int,
                n_deals: int | None = None, policy_seeds: Sequence[int] | None = None,
                deals: Deals | None = None) -> list[dict]:
    """The deal records of deals ``0 .. n_deals-1`` of one match (default: ``rules.match_deals``); fewer if the
    match ends at its target total (``parlett_simple``), as ``reference.play_match`` yields them; ``deals``: the
    constraints of the deals."""
    n_deals = rules.match_deals if n_deals is None else int(n_deals)
    return _records(rules, seats, seed, match, n_deals, None, policy_seeds, deals)


def trace_deal(rules: Rules, seats: Sequence[PolicySpec | str], seed: int, match: int, deal: int,
               policy_seeds: Sequence[int] | None = None, deals: Deals | None = None) -> dict:
    """The record of deal ``deal`` of match ``match`` (the match is played up to it, the pool carrying); equal (==)
    to ``reference.replay(rules, seats, seed=seed, match=match, deal=deal)``, and like it a ``ValueError`` when
    the match ended before that deal."""
    return _records(rules, seats, seed, match, deal + 1, deal, policy_seeds, deals)[0]


def _records(rules: Rules, seats, seed: int, match: int, n_deals: int, wanted: int | None,
             policy_seeds=None, deals: Deals | None = None) -> list[dict]:
    """Play deals ``0 .. n_deals-1`` of a match in the kernel and build the records of every deal played, or of
    deal ``wanted`` only."""
    specs = [parse_spec(s) if isinstance(s, str) else s for s in seats]
    cr = compile_rules(rules)
    family, params = seat_arrays(specs, rules.n_seats)
    if n_deals < 1 or match < 0:
        raise ValueError(f"need n_deals >= 1 and match >= 0, got n_deals={n_deals}, match={match}")
    arrays = (np.zeros((n_deals, N_COLS), np.int64), np.zeros((n_deals, 3, MAX_SEATS), np.uint64),
              np.zeros((n_deals, MAX_SEATS), np.int64), np.zeros((n_deals, 4, 3), np.int64),
              np.zeros((n_deals, MAX_TRICKS, 6), np.int64), np.zeros((n_deals, MAX_LEDGER, 6), np.int64))
    played = call(trace_match_nb, cr.arrays, rules.n_seats, Seats(family, params), seed_u64(seed),
                  policy_seed_array(seed, policy_seeds, rules.n_seats), int(match), n_deals, Traced(*arrays),
                  scratch(rules.n_seats, searching(specs), constraint_arrays(rules, deals)),
                  Play(PLAY_FROM, search_unit(specs)))
    if wanted is not None and wanted >= played:
        raise ValueError(f"match {match} ended after deal {played - 1} (a running total reached "
                         f"{rules.target_total}); there is no deal {wanted}")
    names = [str(s) for s in specs]
    score = [0] * rules.n_seats  # parlett_simple: the running totals before each deal (F4.3)
    out = []
    for d in range(played):
        rec = _record(rules, names, seed, match, d, score, *(a[d] for a in arrays))
        if rules.scoring == "simple":
            score = rec["result"]["score_after"]
        if wanted is None or d == wanted:
            out.append(rec)
    return out


def _party(x: int) -> int | str:
    """A ledger party code as a record's party: a seat, or the pool."""
    return POOL_PARTY if x == POOL else int(x)


def _opt(x) -> int | None:
    return None if x < 0 else int(x)


def _record(rules: Rules, names: list[str], seed: int, match: int, deal: int, score_before: list[int], row, hands,
            offered, exch, tricks, ledger) -> dict:
    """The deal record of one deal's arrays (:mod:`reversis_sim.kernel.layout`), through the one builder,
    :func:`reversis_sim.game.deal_record`."""
    if row[COL_ERROR]:
        raise kernel_error(row[COL_ERROR], match, deal)
    n = rules.n_seats
    exchanges, talon = [], []
    for k in range(int(row[COL_N_EXCH])):
        seat, discard, took = (int(x) for x in exch[k])
        exchanges.append(Exchange(seat, None if discard < 0 else discard, bool(took)))
        talon.append(discard if discard >= 0 else int(offered[seat]))
    payments = [Payment(int(t) or None, _party(a), _party(b), int(amount), REASONS[reason])
                for t, a, b, amount, reason, _ in ledger[:int(row[COL_N_PAYMENTS])]]
    declarer = _opt(row[COL_DECLARER])
    goal = ("lose_all", "win_all")[int(row[COL_ESP_GOAL])] if rules.espagnolette_goal_choice else None
    rev_seat = _opt(row[COL_REV_SEAT])
    outcome = DealOutcome(
        rules=rules, seats=names, seed=seed, match=match, deal=deal, dealer=int(row[COL_DEALER]),
        pool_before=int(row[COL_POOL_BEFORE]),
        dealt=[C.from_mask(int(hands[H_DEALT, s])) for s in range(n)],
        talon_offered=[None if c < 0 else int(c) for c in offered[:n]],
        exchanges=exchanges, talon=talon,
        hands=[C.from_mask(int(hands[H_LEAD, s])) for s in range(n)],
        declarer=declarer, goal=goal if declarer is not None else None,
        tricks=[TrickRecord(int(tr[0]), tuple(int(c) for c in tr[1:5]), int(tr[5])) for tr in tricks[:rules.n_tricks]],
        payments=payments,
        reversis=None if rev_seat is None else Reversis(rev_seat, bool(row[COL_REV_MADE]),
                                                        _opt(row[COL_REV_BREAKER])),
        espagnolette_made=bool(row[COL_ESP_MADE]), party_winner=_opt(row[COL_PARTY_WINNER]),
        party_loser=_opt(row[COL_PARTY_LOSER]), bete=_opt(row[COL_BETE]), double_ante=bool(row[COL_DOUBLE_ANTE]),
        score_before=list(score_before) if rules.scoring == "simple" else None)
    return deal_record(outcome)
