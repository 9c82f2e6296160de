"""Deal records from the kernel: the same record (RULES.md Appendix A) as :func:`reversis_sim.reference.replay`.

The kernel plays the match up to the wanted deal (the pool carries) and keeps every array it wrote; this module
only turns those arrays into the JSON-ready dict. ``trace_deal(...) == reference.replay(...)`` is what
``tests/test_engine_agreement.py`` checks on thousands of deals.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import cards as C
from .. import reference
from ..policies import PolicySpec, parse_spec
from ..rules import Rules
from .compiled import POOL, compile_rules
from .keys import policy_seed_array, seed_u64
from .layout import (
    COL_BETE,
    COL_DEALER,
    COL_DECLARER,
    COL_DOUBLE_ANTE,
    COL_ERROR,
    COL_ESP_GOAL,
    COL_ESP_MADE,
    COL_ESP_SEAT,
    COL_FISH,
    COL_N_EXCH,
    COL_N_PAYMENTS,
    COL_PARTY_LOSER,
    COL_PARTY_WINNER,
    COL_POINTS,
    COL_POOL_AFTER,
    COL_POOL_BEFORE,
    COL_REV_BREAKER,
    COL_REV_MADE,
    COL_REV_SEAT,
    COL_SCORE,
    COL_WON,
    H_DEALT,
    H_LEAD,
    kernel_error,
)
from .match import match_kernels
from .seats import seat_arrays


def trace_match(rules: Rules, seats: Sequence[PolicySpec | str], *, seed: int, match: int,
                n_deals: int | None = None, policy_seeds: Sequence[int] | None = None) -> list[dict]:
    """The deal records of deals ``0 .. n_deals-1`` of one match (default: ``rules.match_deals``); fewer if the
    match ends at its target total (``parlett_simple``), as ``reference.play_match`` yields them."""
    n_deals = rules.match_deals if n_deals is None else int(n_deals)
    return _records(rules, seats, seed, match, n_deals, None, policy_seeds)


def trace_deal(rules: Rules, seats: Sequence[PolicySpec | str], seed: int, match: int, deal: int,
               policy_seeds: Sequence[int] | None = None) -> dict:
    """The record of deal ``deal`` of match ``match`` (the match is played up to it, the pool carrying); equal (==)
    to ``reference.replay(rules, seats, seed=seed, match=match, deal=deal)``, and like it a ``ValueError`` when
    the match ended before that deal."""
    return _records(rules, seats, seed, match, deal + 1, deal, policy_seeds)[0]


def _records(rules: Rules, seats, seed: int, match: int, n_deals: int, wanted: int | None,
             policy_seeds=None) -> list[dict]:
    """Play deals ``0 .. n_deals-1`` of a match in the kernel and build the records of every deal played, or of
    deal ``wanted`` only."""
    specs = [parse_spec(s) if isinstance(s, str) else s for s in seats]
    cr = compile_rules(rules)
    family, params = seat_arrays(specs, rules.n_seats)
    if n_deals < 1 or match < 0:
        raise ValueError(f"need n_deals >= 1 and match >= 0, got n_deals={n_deals}, match={match}")
    _, kernel = match_kernels(rules.n_seats)
    *arrays, played = kernel(cr.params, cr.tables, cr.deck, family, params, seed_u64(seed),
                             policy_seed_array(seed, policy_seeds, rules.n_seats), int(match), n_deals)
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


def first_difference(kernel, ref, path: str = "") -> str | None:
    """Where two deal records (or any JSON-like values) first differ, as ``path: kernel ... != reference ...``;
    None when they are equal (types included)."""
    if isinstance(kernel, dict) and isinstance(ref, dict):
        for k in list(ref) + [k for k in kernel if k not in ref]:
            if k not in kernel or k not in ref:
                return f"{path}.{k}: present only in the {'reference' if k in ref else 'kernel'} record"
            d = first_difference(kernel[k], ref[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(kernel, list) and isinstance(ref, list):
        for i, (x, y) in enumerate(zip(kernel, ref)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(kernel) != len(ref):
            return f"{path}: kernel has {len(kernel)} items, reference {len(ref)}"
        return None
    if kernel != ref or type(kernel) is not type(ref):
        return f"{path}: kernel {kernel!r} != reference {ref!r}"
    return None


def _seat(x: int) -> int | str:
    return reference.POOL if x == POOL else int(x)


def _record(rules: Rules, names: list[str], seed: int, match: int, deal: int, score_before: list[int], row, hands,
            offered, exch, tricks, ledger) -> dict:
    if row[COL_ERROR]:
        raise kernel_error(row[COL_ERROR], match, deal)
    n = rules.n_seats
    exchanges, talon = [], []
    for k in range(int(row[COL_N_EXCH])):
        seat, discard, took = (int(x) for x in exch[k])
        exchanges.append({"seat": seat, "discard": None if discard < 0 else C.name(discard), "took": bool(took)})
        talon.append(discard if discard >= 0 else int(offered[seat]))
    rows = ledger[:int(row[COL_N_PAYMENTS])]
    payments = [{"trick": int(t) or None, "from": _seat(a), "to": _seat(b), "amount": int(amount),
                 "reason": reference.REASONS[reason]}
                for t, a, b, amount, reason, _ in rows]
    tricks_out = [{"leader": int(tr[0]), "cards": C.names(int(c) for c in tr[1:5]), "winner": int(tr[5])}
                  for tr in tricks[:rules.n_tricks]]

    def opt(x) -> int | None:
        return None if x < 0 else int(x)

    goal = ("lose_all", "win_all")[int(row[COL_ESP_GOAL])] if rules.espagnolette_goal_choice else None
    points = [int(row[COL_POINTS + s]) for s in range(n)]
    result = {
        "fish": [int(row[COL_FISH + s]) for s in range(n)],
        "pool_after": int(row[COL_POOL_AFTER]),
        "card_points": points,
        "tricks_won": [int(row[COL_WON + s]) for s in range(n)],
        "party_winner": opt(row[COL_PARTY_WINNER]),
    }
    result["reversis"] = None if row[COL_REV_SEAT] < 0 else {
        "seat": int(row[COL_REV_SEAT]), "made": bool(row[COL_REV_MADE]), "breaker": opt(row[COL_REV_BREAKER])}
    esp = None
    if row[COL_ESP_SEAT] >= 0:
        esp = {"seat": int(row[COL_ESP_SEAT])}
        if goal is not None:
            esp["goal"] = goal
        esp["made"] = bool(row[COL_ESP_MADE])
    result["espagnolette"] = esp
    if rules.scoring == "party":
        if rules.party_payers == "loser_only":
            result["party_loser"] = opt(row[COL_PARTY_LOSER])
    elif rules.scoring in ("penalty", "bank"):
        result["bete"] = opt(row[COL_BETE])
        if rules.scoring == "penalty":  # F1.4 step 5, G10: card points + the surcharge paid (if any)
            captured = reference.REASONS.index("quinola_captured")
            result["penalty"] = [points[s] + sum(int(p[3]) for p in rows if p[4] == captured and p[1] == s)
                                 for s in range(n)]
    else:  # simple (F4.3)
        result["espagnolette"] = None
        result["score"] = [int(row[COL_SCORE + s]) for s in range(n)]
        result["score_after"] = [b + x for b, x in zip(score_before, result["score"])]
    declarer = None
    if row[COL_DECLARER] >= 0:
        declarer = {"seat": int(row[COL_DECLARER])}
        if goal is not None:
            declarer["goal"] = goal  # F0.10
    record = {
        "format": reference.FORMAT,
        "rules": rules.name,
        "rules_params": rules.to_params(),
        "run_seed": seed, "match": match, "deal": deal,
        "dealer": int(row[COL_DEALER]),
        "seats": list(names),
        "pool_before": int(row[COL_POOL_BEFORE]),
        "dealt": [C.names(C.from_mask(int(hands[H_DEALT, s]))) for s in range(n)],
        "talon_offered": [None if c < 0 else C.name(int(c)) for c in offered[:n]],
        "exchanges": exchanges,
        "talon": C.names(talon),
        "hands": [C.names(C.from_mask(int(hands[H_LEAD, s]))) for s in range(n)],
        "espagnolette": declarer,
        "tricks": tricks_out,
        "payments": payments,
        "result": result,
    }
    if rules.double_ante_after_placement:
        record["double_ante"] = bool(row[COL_DOUBLE_ANTE])  # F5
    if rules.scoring == "simple":
        record["score_before"] = list(score_before)
    return record
