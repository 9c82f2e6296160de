"""A seat's card decisions reviewed from its deal record (issue 29): how a human's game is reviewed, and the values
of ``play``'s ``hint``.

Why from the record, and not by ``review``'s replay. ``review`` (:func:`reversis_sim.review.one_deal.review_deal`)
plays the deal again in the numba engine from its key, every seat deciding by its policy, and values the reviewed
seats' decisions as they are taken. A human is not a policy: a "scripted" family replaying his recorded cards would
have to hold every card of every deal of his match (the engine replays a match from its first deal, and the pool
he carried into deal 5 depends on his cards of deals 0-4), and the luck's extra deals would ask it for cards of
deals he never saw. So the review is rebuilt here from the record instead, decision by decision, with the review's
own numba core (:func:`reversis_sim.policies.review_nb.evaluate` and ``summarize``): each decision's view record
is filled from the record (the slots the reference engine's seat policy fills, :mod:`reversis_sim.kernel.view`),
the deal's arrays from the record (the trick history, the hands at the first lead, the talon cards each seat knows,
the party's value), and the worlds are drawn with the review's keys (``PURPOSE_REVIEW`` by seed, match, deal, seat,
trick and position), so that a bot's decision reviewed here gets ``review``'s numbers to the digit (a test holds
it: :func:`review_record` equals ``review_deal`` on a deal the bots played). Any record can be reviewed so, a
human's or a bot's, whatever the match before it; the luck of the hand (deals dealt again and played by the
seat's policy) is the one column a human's review cannot have.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import cards as C
from .. import keys as K
from ..game.vocabulary import espagnolette_eligible
from ..kernel.compiled import (
    MAX_SEATS,
    P_COMMIT_AFTER,
    P_HAND_SIZE,
    P_PARTY_BONUS,
    P_REVERSIS,
    T_TALON_POINTS,
    compile_rules,
)
from ..kernel.layout import (
    COL_DEALER,
    COL_DOUBLE_ANTE,
    COL_PARTY_VALUE,
    COL_POOL_BEFORE,
    H_LEAD,
    H_NOW,
    Seats,
    alloc,
)
from ..kernel.view import (
    V_CUR,
    V_DEALER,
    V_DECK,
    V_DECLARER,
    V_DOUBLE_ANTE,
    V_GOAL,
    V_HAND,
    V_IS_DEALER,
    V_LEADER,
    V_LEGAL,
    V_MUST_DISCARD,
    V_N_CUR,
    V_N_SEATS,
    V_N_TRICKS,
    V_PLAYED,
    V_POOL_BEFORE,
    V_SEAT,
    V_SIT_OUT,
    V_STREAK,
    V_TALON_KNOWN,
    V_TRICK,
    new_view,
)
from ..numba_engine.deal import DECLARE_LOSE_ALL, DECLARE_PASS, DECLARE_WIN_ALL
from ..numba_engine.review import BEFORE_SALT
from ..numba_engine.review_before import (
    DECLARATION,
    before_scratch,
    declaration_options,
    evaluate_before,
    exchange_options,
)
from ..policies import PolicySpec, parse_spec
from ..policies.dispatch import uses_draws
from ..policies.review_nb import (
    F_H_LOSS,
    F_LEN,
    F_LOSS,
    F_LOSS_SE,
    F_VALUE_BEST,
    F_VALUE_PLAYED,
    MAX_OPTIONS,
    S_BEST,
    S_H_BEST,
    evaluate,
    review_scratch,
    set_rollout,
    summarize,
)
from ..reference.table import legal_cards, playing_order
from ..review.marks import KEEP, KINDS, THRESHOLDS, mark, option_name, situations
from ..review.one_deal import decisions_taken
from ..rules import Rules
from .records import rules_of

KIND_EXCHANGE, KIND_DECLARATION, KIND_LEAD, KIND_FOLLOW, KIND_DISCARD = 0, 1, 2, 3, 4  # review.marks.KINDS' codes
FLAG_QUINOLA, FLAG_VOID, FLAG_REVERSIS, FLAG_LAST_TWO = 1, 2, 4, 8  # review.marks.SITUATIONS' bits
DRAW_SLOTS = (K.TAKE, K.DISCARD, K.DECLARE, K.GOAL)


def extend(h: int, part: int) -> int:
    """One step of :func:`reversis_sim.keys.stream`: fold ``part`` into the hash ``h``."""
    return K.mix64(((h ^ part) + K.GAMMA) & K.M64)


class Decision:
    """One card decision of a record, as the seat saw it: ``seat``, 0-based ``trick``, ``position`` in the trick,
    its ``hand`` and ``legal`` cards (sorted codes), the ``current`` cards of the trick, the card ``played``."""

    def __init__(self, seat, trick, position, leader, hand, legal, current, played):
        self.seat, self.trick, self.position, self.leader = seat, trick, position, leader
        self.hand, self.legal, self.current, self.played = hand, legal, current, played


class Before:
    """One decision before the first lead: the ``step``-th exchange (0 the dealer's) or the declaration
    (``step`` :data:`~reversis_sim.numba_engine.review_before.DECLARATION`), of ``seat``; ``own`` its hand then (with
    the card it took first, F3.2), ``must`` (it has to discard), the ``option`` taken (a card, ``KEEP``, or a
    declaration option); ``hands``, ``known``: every seat's hand and known talon card just before the decision."""

    def __init__(self, seat, step, own, must, option, hands, known, talon_points):
        self.seat, self.step, self.own, self.must, self.option = seat, step, own, must, option
        self.hands, self.known, self.talon_points = hands, known, talon_points


class Reviewer:
    """The review's numba core for one record's deal: its rules' arrays, the deal's arrays filled from the record,
    the reviewer's scratch with its rollout policy in every seat."""

    def __init__(self, record: dict, rollout: PolicySpec | str = "tuned", worlds: int = 16,
                 rules: Rules | None = None):
        self.record = record
        self.rules = rules or rules_of(record)
        r = self.rules
        self.cr = compile_rules(r)
        self.worlds = int(worlds)
        self.n = r.n_seats
        self.dealer = record["dealer"]
        esp = record.get("espagnolette")
        self.declarer = esp if isinstance(esp, int) or esp is None else esp["seat"]
        self.goal = esp.get("goal") if isinstance(esp, dict) else None
        self.lead_hands = [[C.parse(c) for c in h] for h in record["hands"]]
        self.known = self._talon_known()
        self.deck = C.mask(r.tables.deck)
        self.scratch = review_scratch()
        spec = parse_spec(rollout) if isinstance(rollout, str) else rollout
        self.rollout = spec
        values = spec.values() or (0.0,)
        set_rollout(self.scratch, Seats(np.array([spec.family_id], np.int64), np.array([values], np.float64)),
                    self.n)
        seed, match, deal = record.get("run_seed", 0), record.get("match", 0), record.get("deal", 0)
        self.key0 = [K.stream(seed, match, deal, K.PURPOSE_REVIEW, s) for s in range(MAX_SEATS)]
        if uses_draws(spec.family_id):  # the rollout seats' draws, as the reviewing table keys them
            draws = self.scratch.ws.deal.draws
            for s in range(self.n):
                for i in (*DRAW_SLOTS, *range(K.PLAY, K.PLAY + r.hand_size)):
                    draws[s, i] = np.uint64(K.draw(self.key0[s], i))
        self.deal = alloc()
        d = self.deal
        for s in range(self.n):
            d.hands[H_LEAD, s] = np.uint64(C.mask(self.lead_hands[s]))
            d.known[s] = np.uint64(C.mask(self.known[s]))
        talon = [C.parse(c) for c in record["talon"]]
        d.row[COL_PARTY_VALUE] = self.cr.params[P_PARTY_BONUS] + sum(int(self.cr.tables[T_TALON_POINTS, c])
                                                                      for c in talon)
        self.view = new_view()
        self.before_scratch = None

    def _talon_known(self) -> list[list[int]]:
        """The talon cards each seat knows (A17): its discard, or the card it looked at and kept out."""
        out: list[list[int]] = [[] for _ in range(self.n)]
        for e in self.record["exchanges"]:
            s = e["seat"]
            if e["discard"] is not None:
                out[s].append(C.parse(e["discard"]))
            elif self.record["talon_offered"][s] is not None:
                out[s].append(C.parse(self.record["talon_offered"][s]))
        return out

    def decisions(self, seats: Sequence[int]) -> list[Decision]:
        """The card decisions of ``seats`` in the order of play."""
        r, rec = self.rules, self.record
        hands = [list(h) for h in self.lead_hands]
        out = []
        for t, tr in enumerate(rec["tricks"]):
            order = playing_order(r, self.dealer, tr["leader"])
            cards = [C.parse(c) for c in tr["cards"]]
            for k, (seat, card) in enumerate(zip(order, cards)):
                if seat in seats:
                    legal = legal_cards(r, hands[seat], t, cards[:k], seat == self.declarer)
                    out.append(Decision(seat, t, k, tr["leader"], tuple(sorted(hands[seat])), legal,
                                        tuple(cards[:k]), card))
                hands[seat].remove(card)
        return out

    def befores(self, seats: Sequence[int]) -> list[Before]:
        """The exchanges and the declaration of ``seats``, in the order they were taken (the record's
        ``exchanges``, then the declaration of the one seat whose hand at the first lead was eligible, R38)."""
        r, rec = self.rules, self.record
        take = r.talon_mode == "take_then_discard"
        hands = [[C.parse(c) for c in h] for h in rec["dealt"]]
        offered = [None if c is None else C.parse(c) for c in rec["talon_offered"]]
        known: list[list[int]] = [[] for _ in range(self.n)]
        points = 0
        out = []
        for k, e in enumerate(rec["exchanges"]):
            s = e["seat"]
            must = take or s == self.dealer
            own = hands[s] + ([offered[s]] if take and s != self.dealer else [])
            option = KEEP if e["discard"] is None else C.parse(e["discard"])
            if s in seats:
                out.append(Before(s, k, list(own), must, option, [list(h) for h in hands], [list(x) for x in known],
                                  points))
            if must:
                own.remove(option)
                talon_card = option
            elif option == KEEP:
                talon_card = offered[s]
            else:
                own = [c for c in own if c != option] + [offered[s]]
                talon_card = option
            hands[s] = own
            known[s] = [talon_card]
            points += int(self.cr.tables[T_TALON_POINTS, talon_card])
        for s in range(self.n):
            if s in seats and r.espagnolette_enabled and espagnolette_eligible(r, self.lead_hands[s]):
                option = DECLARE_PASS if self.declarer != s else \
                    (DECLARE_WIN_ALL if self.goal == "win_all" else DECLARE_LOSE_ALL)
                out.append(Before(s, DECLARATION, list(self.lead_hands[s]), False, option,
                                  [list(h) for h in self.lead_hands], self.known, points))
        return out

    def before_verdict(self, d: Before) -> dict | None:
        """The review of the exchange or declaration ``d`` as ``review`` writes it (None: nothing to choose)."""
        if self.before_scratch is None:
            self.before_scratch = before_scratch()
        b, rv, cr = self.before_scratch, self.scratch, self.cr
        real = alloc()
        real.row[COL_DEALER], real.row[COL_POOL_BEFORE] = self.dealer, self.record["pool_before"]
        real.row[COL_DOUBLE_ANTE] = int(bool(self.record.get("double_ante", False)))
        real.row[COL_PARTY_VALUE] = cr.params[P_PARTY_BONUS] + d.talon_points
        offered = self.record["talon_offered"]
        for s in range(self.n):
            real.hands[H_NOW, s] = np.uint64(C.mask(d.hands[s]))
            real.known[s] = np.uint64(C.mask(d.known[s]))
            real.offered[s] = -1 if offered[s] is None else C.parse(offered[s])
        for j, e in enumerate(self.record["exchanges"][:d.step if d.step < DECLARATION else 0]):
            real.exch[j, 0] = e["seat"]
            real.exch[j, 1] = KEEP if e["discard"] is None else C.parse(e["discard"])
        own = np.uint64(C.mask(d.own))
        if d.step < DECLARATION:
            n_opt, kind = exchange_options(own, d.must, d.option, rv.cards, b, self.n, cr.tables), KIND_EXCHANGE
        else:
            n_opt, kind = declaration_options(cr.params, rv.cards), KIND_DECLARATION
        if n_opt < 2:
            return None
        b.deal.draws[:self.n] = rv.ws.deal.draws[:self.n]  # the rollout seats' draws, the reviewer's
        key = extend(extend(self.key0[d.seat], BEFORE_SALT), d.step)
        nw = int(evaluate_before(cr.params, self.n, cr.tables, real, b, rv, d.seat, d.step, own, n_opt,
                                 np.uint64(key), self.worlds))
        if nw == 0:
            return None
        return self._written(n_opt, nw, d.option, kind, FLAG_QUINOLA if C.QUINOLA in d.own else 0, d.seat, 0,
                             d.step if d.step < DECLARATION else 0)

    def _written(self, n_opt: int, nw: int, played: int, kind: int, flags: int, seat: int, trick: int,
                 position: int) -> dict:
        """The verdict of the decision whose ``n_opt`` options were just played out in ``nw`` worlds (the
        reviewer's scratch holds their results), as ``review`` writes a decision (``trick`` 1-based, 0 before the
        first lead)."""
        out_i, out_f = np.zeros(5, np.int64), np.zeros(F_LEN, np.float64)
        opts = np.zeros((MAX_OPTIONS, 4), np.float64)
        summarize(self.scratch, n_opt, nw, played, False, out_i, out_f, opts)
        loss, se = float(out_f[F_LOSS]), float(out_f[F_LOSS_SE])
        goal = self.rules.espagnolette_goal_choice

        def name(code: float) -> str:
            return option_name(kind, int(code), goal)

        return {"trick": trick, "seat": seat, "position": position, "kind": KINDS[kind],
                "situations": situations(flags), "played": name(played), "best": name(out_i[S_BEST]),
                "value_played": float(out_f[F_VALUE_PLAYED]), "value_best": float(out_f[F_VALUE_BEST]),
                "loss": loss, "loss_se": se, "mark": mark(loss, se), "hindsight_best": name(out_i[S_H_BEST]),
                "hindsight_loss": float(out_f[F_H_LOSS]), "worlds": nw,
                "options": [{"card": name(o[0]), "value": float(o[1]), "se": float(o[2]), "hindsight": float(o[3])}
                            for o in opts[:n_opt]]}

    def fill(self, d: Decision) -> np.ndarray:
        """The seat's view record at decision ``d``, slot by slot as the engines fill it."""
        r, v, rec = self.rules, self.view, self.record
        done = rec["tricks"][:d.trick]
        winners = {tr["winner"] for tr in done}
        seen = C.mask(C.parse(c) for tr in done for c in tr["cards"]) | C.mask(d.current)
        v[V_DEALER], v[V_N_SEATS], v[V_SIT_OUT], v[V_N_TRICKS] = self.dealer, r.n_seats, int(r.dealer_sits_out), \
            r.n_tricks
        v[V_DECK], v[V_POOL_BEFORE] = self.deck, rec["pool_before"]
        v[V_DOUBLE_ANTE] = int(bool(rec.get("double_ante", False)))
        v[V_DECLARER] = -1 if self.declarer is None else self.declarer
        v[V_GOAL] = int(self.goal == "win_all")
        v[V_TRICK], v[V_LEADER], v[V_N_CUR] = d.trick, d.leader, len(d.current)
        v[V_STREAK] = winners.pop() if len(winners) == 1 else -1
        v[V_PLAYED] = seen
        for k in range(MAX_SEATS):
            v[V_CUR + k] = d.current[k] if k < len(d.current) else -1
        v[V_SEAT], v[V_HAND], v[V_LEGAL] = d.seat, C.mask(d.hand), C.mask(d.legal)
        v[V_TALON_KNOWN] = C.mask(self.known[d.seat])
        v[V_IS_DEALER] = v[V_MUST_DISCARD] = 0
        tricks = self.deal.tricks
        tricks[:] = -1
        for i, tr in enumerate(done):
            tricks[i, 0], tricks[i, 5] = tr["leader"], tr["winner"]
            tricks[i, 1:1 + len(tr["cards"])] = [C.parse(c) for c in tr["cards"]]
        tricks[d.trick, 0] = d.leader
        tricks[d.trick, 1:1 + len(d.current)] = d.current
        return v

    def options(self, d: Decision, played: int | None = None) -> tuple[int, int]:
        """Play out every distinct option of ``d`` (the card ``played``, default the record's) in the worlds and
        the true deal: (options, worlds)."""
        view = self.fill(d)
        key = extend(extend(self.key0[d.seat], d.trick), d.position)
        card = d.played if played is None else played
        n_opt, nw = evaluate(self.cr.params, self.n, self.rules.dealer_sits_out, self.cr.tables, view, self.deal,
                             np.uint64(key), self.worlds, card, self.scratch)
        return int(n_opt), int(nw)

    def verdict(self, d: Decision, played: int | None = None) -> dict | None:
        """The review of decision ``d`` as ``review`` writes it (None: one distinct option, nothing to review)."""
        if len(d.legal) < 2:
            return None
        card = d.played if played is None else played
        n_opt, nw = self.options(d, card)
        if n_opt < 2:
            return None
        return self._written(n_opt, nw, card, self.kind(d), self.flags(d), d.seat, d.trick + 1, d.position)

    def kind(self, d: Decision) -> int:
        if d.position == 0:
            return KIND_LEAD
        led = C.suit_of(d.current[0])
        return KIND_FOLLOW if any(C.suit_of(c) == led for c in d.hand) else KIND_DISCARD

    def flags(self, d: Decision) -> int:
        """The situation bits of ``d``, as the reviewing table sets them."""
        P = self.cr.params
        flags = FLAG_QUINOLA if C.QUINOLA in d.hand else 0
        if self.kind(d) == KIND_DISCARD:
            flags |= FLAG_VOID
        winners = {tr["winner"] for tr in self.record["tricks"][:d.trick]}
        if P[P_REVERSIS] and d.trick >= P[P_COMMIT_AFTER] and len(winners) == 1:
            flags |= FLAG_REVERSIS
        if d.trick >= P[P_HAND_SIZE] - 2:
            flags |= FLAG_LAST_TWO
        return flags


def review_record(record: dict, seats: Sequence[int], *, worlds: int = 16, rollout: PolicySpec | str = "tuned",
                  rules: Rules | None = None) -> dict:
    """The review of ``seats``' card decisions in ``record``, in ``review``'s JSON shape (``record``, ``review``,
    ``decisions``, ``seats``; no luck: see the module docstring)."""
    rv = Reviewer(record, rollout, worlds, rules)
    before = [rv.before_verdict(d) for d in rv.befores(seats)]
    cards = [rv.verdict(d) for d in rv.decisions(seats)]
    decisions = [x for x in before + cards if x is not None]
    per_seat = []
    for s in seats:
        mine = [x for x in decisions if x["seat"] == s]
        total = sum(x["loss"] for x in mine)
        per_seat.append({"seat": s, "policy": record["seats"][s], "decisions": decisions_taken(rv.rules, record, s),
                         "non_forced": len(mine),
                         "total_loss": total, "mean_loss": total / len(mine) if mine else 0.0,
                         "marks": {m: sum(1 for x in mine if x["mark"] == m) for m in THRESHOLDS},
                         "fish": int(record["result"]["fish"][s]), "luck": None, "luck_adjusted": None})
    settings = {"seats": list(seats), "worlds": rv.worlds, "rollout": rv.rollout.text,
                "rollout_name": "tuned" if rv.rollout == parse_spec("tuned") else rv.rollout.text, "luck_samples": 0}
    return {"record": record, "review": settings, "decisions": decisions, "seats": per_seat}
