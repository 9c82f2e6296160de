"""The reference engine: pure Python, slow and obviously correct.

Read it beside RULES.md: every rule is a commented block citing its number (``# R26``). It plays whole deals and
matches from a run seed (or settles a given deal card by card, which is how a user audits a real game), and writes
each deal as a deal record (RULES.md Appendix A, built by :func:`reversis_sim.game.deal_record`). It is the test
oracle of the numba engine, which it never imports (nor does the numba engine import it).

- :mod:`.table`: the rule helpers (playing order, legal cards, trick winner) and the deal of the cards;
- :mod:`.deal`: one deal in progress (antes, exchange, declaration, tricks, side payments, the commitment);
- :mod:`.settle`: the settlement of each scoring family (party, penalty, bank; simple moves no chips);
- :mod:`.match`: whole deals and matches; :mod:`.audit`: settling a deal written in a record;
- :mod:`.seat_policy`: a seat of any family, the search included, deciding by the numba decisions both engines
  share (the one place the reference engine calls numba code: the engines differ in how they play a deal, never
  in how a seat decides).
"""

from __future__ import annotations

from .audit import ScriptedPolicy, settle_record
from .deal import DealState
from .match import play_deal, play_deal_outcome, play_match, replay
from .seat_policy import SeatPolicy, Watching, make_policy
from .table import Layout, acceptance, deal_cards, eldest, legal_cards, playing_order, trick_winner

__all__ = ["DealState", "Layout", "ScriptedPolicy", "SeatPolicy", "Watching", "acceptance",
           "deal_cards", "eldest", "legal_cards", "make_policy", "play_deal", "play_deal_outcome", "play_match",
           "playing_order", "replay", "settle_record", "trick_winner"]
