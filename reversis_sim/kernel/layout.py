"""The arrays of one deal, shared by the kernels and their wrappers: the result row, the hands, the records.

The deal kernel (:mod:`.deal`, :mod:`.payments`) records everything as it goes, into arrays the caller provides (a
batch passes scratch arrays that it reuses; :mod:`.trace` passes one set per deal and rebuilds the deal record):

- ``row`` (``int64 (N_COLS,)``): the deal's result row, columns ``COL_*`` below (also the running pool and fish);
  per-seat columns take ``MAX_SEATS`` (5) slots, of which a four-seat table uses the first four;
- ``hands`` (``uint64 (3, MAX_SEATS)``): ``H_DEALT`` the dealt hands, ``H_LEAD`` the hands at the first lead,
  ``H_NOW`` the hands in play (a dealer who sits out holds nothing);
- ``offered`` (``int64 (MAX_SEATS,)``): the talon card offered to (``serbian``: taken by) each seat (-1: none);
- ``exch`` (``int64 (4, 3)``): the exchange decisions in order: seat, discarded card (-1: kept), took (0/1);
- ``tricks`` (``int64 (MAX_TRICKS, 6)``): leader, the four cards in playing order from the leader, winner;
- ``ledger`` (``int64 (MAX_LEDGER, 6)``): payment rows in order: trick (1-based, 0 = none), payer, payee
  (``POOL`` = the pool), amount, reason (index in ``reversis_sim.game.REASONS``), returned-by-the-commitment flag;
- ``claims`` (``int64 (MAX_CLAIMS, 4)``, scratch): led Aces / Quinola waiting for the party winner (R22): trick,
  holder, base amount, reason;
- ``cards`` (``int64 (2 * SWAPS,)``, scratch): the deck being shuffled, then from ``SWAPS`` on the swap
  partners; ``draws`` (``uint64 (MAX_SEATS, N_DRAWS)``, scratch): each seat's policy draws for this deal
  (:mod:`.policy`); ``known`` (``uint64 (MAX_SEATS,)``, scratch): the talon cards each seat knows after the exchange
  (its discard, or the card it looked at; A17), for the policies.

Ledger rows per deal, at most: the parlett family 45 (8 antes, 8 side payments (four Aces and a forced Quinola's
four rows), 8 returns at the commitment, 3 reversis rows, 6 espagnolette returns, 5 led claims, 3 party); the
``modern`` family 20 (4 antes, 2 at a placement, 3 reversis, 3 espagnolette, 1 surcharge, 4 penalties, 2 bête, 1
pot); ``serbian`` 21 (4 antes, 6 in play, 6 returns and the bank doubled, 3 handed to a reversis maker + 2, 2).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..constraints import MAX_ATTEMPTS, MAX_STACK, TALON
from ..game import FATE_DUMPED, FATE_FORCED, FATE_LED, FATE_TALON, IllegalPlay
from .compiled import MAX_CLAIMS, MAX_LEDGER, MAX_SEATS, MAX_TRICKS, N_ACTIVE
from .keys_nb import N_DRAWS
from .view import V_LEN

# --- the result row of one deal (the columns of play_matches, reversis_sim.columns) ----------------------------
_ROW: list[int] = []
"""The widths of the row's slots, in order."""


def _col(width: int = 1) -> int:
    """Declare the next slot of the deal's result row, ``width`` columns wide (``MAX_SEATS`` for a value of each
    seat: ``COL_X + seat``); its index is returned, a plain ``int`` that numba freezes into the kernels where a
    module-level ``COL_*`` holds it. A new slot is one such line."""
    _ROW.append(width)
    return sum(_ROW) - width


COL_MATCH = _col()
COL_DEAL = _col()
COL_DEALER = _col()
COL_POOL_BEFORE = _col()
COL_POOL_AFTER = _col()  # the running pool while the deal is played
COL_FISH = _col(MAX_SEATS)  # net chips of each seat (running while the deal is played)
COL_POINTS = _col(MAX_SEATS)  # card points taken in tricks
COL_WON = _col(MAX_SEATS)  # tricks won
COL_HEARTS = _col(MAX_SEATS)  # hearts held at the first lead
COL_TO_POOL = _col(MAX_SEATS)  # everything each seat paid into the pool
COL_FROM_POOL = _col(MAX_SEATS)  # everything each seat took out of the pool
COL_Q_HOLDER = _col()  # seat holding the J♥ at the first lead, -1: in the talon
COL_Q_FATE = _col()  # Q_TALON | Q_DUMPED | Q_FORCED | Q_LED
COL_Q_TRICK = _col()  # 1-based trick the J♥ was played to, 0: never
COL_PARTY_WINNER = _col()  # -1: none (a made reversis cancelled the party); the deal winner in penalty/bank scoring
COL_PARTY_LOSER = _col()  # -1: none (only loser_only presets name one)
COL_PARTY_VALUE = _col()  # party bonus + talon points (paid or not)
COL_REV_SEAT = _col()  # the seat committed to the reversis, -1: none
COL_REV_MADE = _col()
COL_REV_BREAKER = _col()  # -1: none
COL_ESP_ELIGIBLE = _col()  # the (lowest, in fact only) seat eligible to declare after the exchange, -1: none
COL_ESP_SEAT = _col()  # the declarer as the result reports him (``result.espagnolette``), -1: none
COL_ESP_MADE = _col()
COL_ERROR = _col()  # 0, or ERR_* + 16 * seat: an illegal choice, a full ledger, a pool past MAX_POOL (wrappers raise)
N_OUT_COLS = sum(_ROW)  # the columns above make the run table's rows (numba_engine/rows.py); the rest: the trace
COL_N_PAYMENTS = _col()  # ledger rows written
COL_N_EXCH = _col()  # exchange rows written
COL_DECLARER = _col()  # the declarer (the record's top-level ``espagnolette``), -1: none
COL_ESP_GOAL = _col()  # the declarer's goal where he names one: 0 lose_all, 1 win_all
COL_BETE = _col()  # penalty and bank scoring: the seat that paid the bête, -1: none
COL_DOUBLE_ANTE = _col()  # serbian: this deal's antes were doubled (F3.3)
COL_SCORE = _col(MAX_SEATS)  # simple scoring, each seat's score of this deal (F4.3)
COL_SHUFFLES = _col()  # shuffles drawn for this deal: 1, more where a --where condition rejected some
N_COLS = sum(_ROW)

Q_TALON, Q_DUMPED, Q_FORCED, Q_LED = FATE_TALON, FATE_DUMPED, FATE_FORCED, FATE_LED  # reversis_sim.game.FATES
ERR_EXCHANGE, ERR_PLAY, ERR_LEDGER, ERR_FAMILY, ERR_POOL, ERR_WHERE = 1, 2, 3, 4, 5, 6
UNKNOWN_FAMILY = -2  # what a policy decision returns for a family id no family is registered under

MAX_POOL = 2**56
"""The largest pool a deal may start with: the pool is the one amount that grows without bound (a doubling in
every deal, R25), and past this a deal's doubling and its pool-sized payments, times the largest multipliers the
rules allow (:data:`reversis_sim.rules.MAX_FACTOR`), could overflow the kernel's 64-bit chips. A match whose pool
outgrows it stops with ``ERR_POOL``, never a wrapped number."""

PD_PLACED, PD_DECK = MAX_SEATS, MAX_SEATS + 1
PREDEAL_SIZE = MAX_SEATS + 2
"""The ``predeal`` array of a deal: each seat's predealt cards, then all of them, then the whole deck."""

H_DEALT, H_LEAD, H_NOW = 0, 1, 2
SWAPS = 64  # offset of the swap partners in the ``cards`` scratch


def kernel_error(code: int, match: int, deal: int) -> Exception:
    """The exception a wrapper raises for a non-zero ``COL_ERROR``."""
    kind, seat = int(code) % 16, int(code) // 16
    where = f"match {int(match)} deal {int(deal)}"
    if kind == ERR_LEDGER:
        return RuntimeError(f"{where}: more than {MAX_LEDGER} payments in one deal (engine limit MAX_LEDGER)")
    if kind == ERR_POOL:
        return OverflowError(f"{where}: the pool carried into this deal is over 2**{MAX_POOL.bit_length() - 1} chips, "
                             f"where its doublings could overflow the engine's 64-bit chips; play shorter matches "
                             f"(--match-deals)")
    if kind == ERR_WHERE:
        return RuntimeError(f"{where}: no shuffle met the --where condition in {MAX_ATTEMPTS:,} tries; it is too "
                            f"rare (check its acceptance rate) or impossible with the predealt cards")
    if kind == ERR_FAMILY:
        return IllegalPlay(f"{where}: seat {seat}'s policy family id is not registered (reversis_sim.policies."
                           f"registry.FAMILIES); no policy decided for it")
    what = "exchange (not a card of his hand)" if kind == ERR_EXCHANGE else "play (not a legal card)"
    return IllegalPlay(f"{where}: the policy of seat {seat} made an illegal {what}")


# --- the cursor of a deal in progress (``Deal.at``, int64 (AT_LEN,)): where it stands and what its tricks carry -
# (policies/deal_nb.py: play_from plays a deal on from its cursor; a pause saves the trick's state here)
AT_PHASE = 0  # PH_EXCHANGE, PH_DECLARE, PH_TRICKS or PH_DONE
AT_STEP = 1  # the exchange step, or the 0-based trick in progress
AT_POS = 2  # the card's position in the trick in progress
AT_TALON_POINTS = 3  # the card points laid in the talon so far
AT_DECLARER = 4  # the espagnolette declarer, -1: none (yet)
AT_LEADER = 5  # the leader of the trick in progress
AT_LED = 6  # the suit led to it, -1: no card yet
AT_PLAYED = 7  # mask: its cards so far
AT_SEEN = 8  # mask: every card played in the deal so far
AT_FIRST_WINNER = 9  # the first trick's winner, -1: none yet
AT_ONE_WINNER = 10  # 1: one seat has won every trick so far
AT_COMMITTED = 11  # the seat committed to the reversis, -1: none
AT_BREAKER = 12  # the seat that broke it, -1: none
AT_N_CLAIMS = 13  # led claims waiting for the party winner (``claims`` rows)
AT_STOP = 14  # bit mask of the seats whose decisions pause the deal (a reviewed seat; every seat: a history's end)
AT_OWN_TOO = 15  # 1: at a paused card, its seat's own card is asked of its family first (AT_OWN)
AT_FORCED = 16  # the first cards in playing order are those already in ``tricks`` (a history played again, a record)
AT_FORCED_EXCH = 17  # the first exchange steps are those in ``exch`` (a record)
AT_FORCED_DECL = 18  # the declaration option given (a record), or NO_CHOICE
AT_CHOICE = 19  # the choice given for the decision the deal paused at, or NO_CHOICE
AT_SEAT = 20  # the paused decision: its seat,
AT_KIND = 21  # its kind (ASK_EXCHANGE, ASK_DECLARE, ASK_CARD),
AT_OWN = 22  # and the seat's own choice: its family's (NO_CHOICE: a search's card, not asked), or the one taken
AT_STOP_FORCED = 23  # 1: a seat in AT_STOP pauses at the decisions taken already too (a record reviewed)
AT_LEN = 24

PH_EXCHANGE, PH_DECLARE, PH_TRICKS, PH_DONE = 0, 1, 2, 3
ASK_EXCHANGE, ASK_DECLARE, ASK_CARD = 0, 1, 2
DONE, PAUSED = 0, 1  # what play_from returns
NO_CHOICE = -4  # no choice given (a discard is a card, -1 keeps the hand, UNKNOWN_FAMILY is an error)

Deal = namedtuple("Deal", "row hands offered exch tricks ledger claims cards draws known seat_view at")
"""The arrays of one deal, as the module docstring describes them (``seat_view``: the deciding seat's view,
:mod:`.view`, so named because numba reads an attribute ``view`` as the array method; ``at``: its cursor, ``AT_*``);
a numba function takes them as one argument and reads them by name."""
TR_LEADER, TR_CARDS, TR_WINNER = 0, 1, 1 + N_ACTIVE
"""The columns of a ``tricks`` row: the leader, the cards in playing order from ``TR_CARDS`` on, the winner."""
EX_SEAT, EX_CARD, EX_TOOK = range(3)
"""The columns of an ``exch`` row: the seat, the card it discarded (-1: kept), whether it took the talon card."""
LG_TRICK, LG_PAYER, LG_PAYEE, LG_AMOUNT, LG_REASON, LG_RETURNED = range(6)
"""The columns of a ``ledger`` row (see the module docstring)."""
CL_TRICK, CL_HOLDER, CL_AMOUNT, CL_REASON = range(4)
"""The columns of a ``claims`` row (see the module docstring)."""
Dealing = namedtuple("Dealing", "predeal where stack dealt")
"""The constraints of the deals (``predeal`` uint64 ``(PREDEAL_SIZE,)``, ``where`` the int64 program of
:mod:`reversis_sim.constraints`) and the scratch of their evaluator (``stack`` int64 ``(MAX_STACK,)``, ``dealt``
uint64 ``(TALON + 1,)``: the dealt hands as the program reads them)."""
Seats = namedtuple("Seats", "family params")
"""The seats' policies: ``family`` (``int64 (n_seats,)``, each seat's family id) and ``params`` (``float64 (n_seats,
k)``, its parameter vector)."""


def alloc(k: int = 1) -> Deal:
    """The :class:`Deal` arrays of one deal, zeroed (numpy; ``k`` 0: arrays of the same types too small to play in,
    for a scratch deal nobody plays)."""
    return Deal(np.zeros(N_COLS, np.int64), np.zeros((3, MAX_SEATS), np.uint64), np.zeros(MAX_SEATS, np.int64),
                np.zeros((4, 3), np.int64), np.zeros((MAX_TRICKS * k, 6), np.int64),
                np.zeros((MAX_LEDGER * k, 6), np.int64), np.zeros((MAX_CLAIMS * k, 4), np.int64),
                np.zeros(2 * SWAPS * k, np.int64), np.zeros((MAX_SEATS, N_DRAWS), np.uint64),
                np.zeros(MAX_SEATS, np.uint64), np.zeros(V_LEN, np.int64), np.zeros(AT_LEN, np.int64))


def dealing(predeal: np.ndarray, where: np.ndarray) -> Dealing:
    """The :class:`Dealing` of deals constrained by ``predeal`` and ``where`` (a copy of ``predeal``: the luck's
    deals write into theirs), with its scratch."""
    return Dealing(predeal.copy(), where, np.zeros(MAX_STACK, np.int64), np.zeros(TALON + 1, np.uint64))
