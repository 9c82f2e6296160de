"""``learned``: the cards chosen by a small linear model learned from the toolkit's own reviewed deals.

Each legal card is scored by a bilinear form of two short lists of facts the seat may know, read from its view
(:mod:`reversis_sim.kernel.view`) and nothing else: the option's facts (its strength, points, whether it is an Ace
or the J♥, whether it takes the trick as it stands and with how many points, the unseen cards above and below it
in its suit, its suit's length in the hand, ...) and the decision's (lead, follow or discard, the trick, the
position, the points and payment cards already in the trick, the J♥ held or gone, the reversis streak, the pool,
...). The score is ``sum_o sum_d O[o] * W[d, o] * D'[d]`` with ``D' = [1, D]``: the decision's facts weigh each
option fact once per decision, then each option costs one dot product of the option facts. The highest score is
played (the lowest card code among equal scores).

The weights ``W`` are fitted by ``reversis-sim learn`` (:mod:`reversis_sim.learn`): a ridge regression of every
option's value, as the review measures it (each option played out in worlds consistent with what the seat knew),
on these facts, centred within each decision. The talon decision is a second model of the same form (below), fitted
the same way on the review's values of the talon options; the declaration of the espagnolette and the
declarer's goal are a third (below) where the file carries one; otherwise, they are those of the ``avoid`` setting
the weights file names (the one whose deals the weights were learned from), as is the exchange of a file that
carries no exchange model.

The parameter vector (what the kernels carry per seat) is the weights file's, built by
:func:`.weights.vector`: :data:`LAYOUT` (the vector's layout version), the sizes ``N_O`` and ``N_D``, the
``avoid`` parameters of the exchange (:data:`N_EXCHANGE` of them), then ``W`` decision-fact by decision-fact
(``(N_D + 1) * N_O`` values, the first row the option facts' own weights), then a flag and the exchange model's
weights ``WX`` (``(N_XD + 1) * N_XO`` values, zeros where the file carries no exchange model), then a flag and the
declaration model's weights ``WD`` (``(N_DD + 1) * N_DO`` values, zeros where the file carries none).

The exchange model (where the weights file carries one: :data:`AT_XFLAG`) scores each option of the talon decision,
every card of the hand to discard and, where the seat may take nothing, keeping the hand, by the same bilinear form
of :data:`EXCHANGE_OPTION_FACTS` and :data:`EXCHANGE_DECISION_FACTS` (the hand's), fitted by ``learn`` on the
review's values of the exchange options; the highest score is taken (keeping first, then the lowest card code,
among equal scores).

The declaration model (where the weights file carries one: :data:`AT_DFLAG`) scores the options of the
espagnolette's declaration (R38, A13) by the same form, the decision's facts :data:`DECLARATION_FACTS` (the hand at
the first lead, whether the seat is eldest and must lead the first trick, the pool) weighing the option facts
:data:`DECLARATION_OPTION_FACTS`: passing scores 0, declaring (to lose every trick) ``v[declare]``, declaring to win
every trick (where the rules ask a goal) ``v[declare] + v[win_all]``; the highest is taken (passing, then losing
every trick, among equal scores). Fitted by ``learn`` on the review's values of the declaration options in deals
dealt so that a seat can become eligible. A file without one keeps the ``avoid`` setting's declaration and goal.
"""

from __future__ import annotations

from .avoid import PARAMS as AVOID_PARAMS
from .family import Family

LEARNED_ID = 3
"""The family id of ``learned``."""
LAYOUT = 1
"""The version of the parameter vector's layout (and of the facts below): a weights file of another is refused."""

OPTION_FACTS = ("strength", "points", "ace", "quinola", "ace_of_diamonds", "heart", "diamond", "takes_now",
                "takes_points", "unseen_above", "unseen_below", "unseen_suit", "master", "suit_length",
                "top_of_suit", "bottom_of_suit", "singleton", "mine_above")
"""The option facts, in the order of the model (:func:`.learned_nb.option_facts` computes them)."""
DECISION_FACTS = ("lead", "follow", "discard", "position", "trick", "last_two", "trick_points", "trick_has_quinola",
                  "trick_has_ace", "hold_quinola", "quinola_gone", "quinola_in_my_talon", "streak_me",
                  "streak_other", "leader_opposite", "winner_opposite", "pool", "aces_unseen", "best_in_trick",
                  "legal_cards", "last_to_play", "declarer_other", "declarer_me")
"""The decision facts, in the order of the model (:func:`.learned_nb.decision_facts` computes them)."""
N_O = len(OPTION_FACTS)
N_D = len(DECISION_FACTS)

(O_STRENGTH, O_POINTS, O_ACE, O_QUINOLA, O_ACE_OF_DIAMONDS, O_HEART, O_DIAMOND, O_TAKES_NOW, O_TAKES_POINTS,
 O_UNSEEN_ABOVE, O_UNSEEN_BELOW, O_UNSEEN_SUIT, O_MASTER, O_SUIT_LENGTH, O_TOP_OF_SUIT, O_BOTTOM_OF_SUIT,
 O_SINGLETON, O_MINE_ABOVE) = range(N_O)
"""Each option fact's place in the model, named ``O_`` and the fact (tests/test_learned.py holds them to
:data:`OPTION_FACTS`)."""
(D_LEAD, D_FOLLOW, D_DISCARD, D_POSITION, D_TRICK, D_LAST_TWO, D_TRICK_POINTS, D_TRICK_HAS_QUINOLA,
 D_TRICK_HAS_ACE, D_HOLD_QUINOLA, D_QUINOLA_GONE, D_QUINOLA_IN_MY_TALON, D_STREAK_ME, D_STREAK_OTHER,
 D_LEADER_OPPOSITE, D_WINNER_OPPOSITE, D_POOL, D_ACES_UNSEEN, D_BEST_IN_TRICK, D_LEGAL_CARDS, D_LAST_TO_PLAY,
 D_DECLARER_OTHER, D_DECLARER_ME) = range(N_D)
"""Each decision fact's place in the model, named ``D_`` and the fact."""
N_EXCHANGE = len(AVOID_PARAMS)
"""The exchange's ``avoid`` parameters carried in the vector."""
AT_SIZES = 1  # N_O, N_D
AT_EXCHANGE = 3  # the avoid parameters of the exchange
AT_WEIGHTS = AT_EXCHANGE + N_EXCHANGE
"""Where each part of the parameter vector starts (``[0]`` is :data:`LAYOUT`)."""
N_WEIGHTS = (N_D + 1) * N_O
FEATURES = f"layout {LAYOUT}: option " + ",".join(OPTION_FACTS) + "; decision " + ",".join(DECISION_FACTS)
"""The feature set, as a weights file records it."""

EXCHANGE_OPTION_FACTS = ("keep", "strength", "points", "ace", "quinola", "ace_of_diamonds", "heart", "suit_length",
                         "mine_above", "mine_below", "singleton", "doubleton", "top_of_suit")
"""The facts of an exchange option (discarding a card of the hand, or ``keep``: taking nothing, where the seat may),
in the order of the exchange model (:func:`.learned_exchange_nb.exchange_option_facts`)."""
EXCHANGE_DECISION_FACTS = ("dealer", "must_discard", "aces", "hold_quinola", "hearts", "low_hearts", "short_suits",
                           "voids", "hand_points", "high_cards")
"""The facts of an exchange decision, read from the hand (:func:`.learned_exchange_nb.exchange_decision_facts`)."""
N_XO = len(EXCHANGE_OPTION_FACTS)
N_XD = len(EXCHANGE_DECISION_FACTS)
N_XWEIGHTS = (N_XD + 1) * N_XO
EXCHANGE_FEATURES = "exchange 1: option " + ",".join(EXCHANGE_OPTION_FACTS) + "; decision " + ",".join(
    EXCHANGE_DECISION_FACTS)
"""The exchange model's feature set, as a weights file that carries one records it."""
AT_XFLAG = AT_WEIGHTS + N_WEIGHTS
"""1 where the vector carries a learned exchange (its weights ``WX`` follow), 0 where the exchange is the ``avoid``
setting's."""
AT_XWEIGHTS = AT_XFLAG + 1

DECLARATION_OPTION_FACTS = ("declare", "win_all")
"""The facts of a declaration option (R38; A13): ``declare`` for both declaring options, ``win_all`` for the goal
of winning every trick where the rules let the declarer name one (F1.4); passing has none (its score is 0)."""
DECLARATION_FACTS = ("aces", "hold_quinola", "high_cards", "kings", "low_cards", "lowest", "hearts", "longest_suit",
                     "voids", "short_suits", "eldest", "pool")
"""The facts of a declaration decision, read from the hand at the first lead and the seat's place
(:func:`.learned_declaration_nb.declaration_facts`)."""
N_DO = len(DECLARATION_OPTION_FACTS)
N_DD = len(DECLARATION_FACTS)
N_DWEIGHTS = (N_DD + 1) * N_DO
DO_DECLARE, DO_WIN_ALL = range(N_DO)
(DD_ACES, DD_HOLD_QUINOLA, DD_HIGH_CARDS, DD_KINGS, DD_LOW_CARDS, DD_LOWEST, DD_HEARTS, DD_LONGEST_SUIT, DD_VOIDS,
 DD_SHORT_SUITS, DD_ELDEST, DD_POOL) = range(N_DD)
"""Each declaration fact's place in the model, named ``DO_``/``DD_`` and the fact."""
DECLARATION_FEATURES = "declaration 1: option " + ",".join(DECLARATION_OPTION_FACTS) + "; decision " + ",".join(
    DECLARATION_FACTS)
"""The declaration model's feature set, as a weights file that carries one records it."""
AT_DFLAG = AT_XWEIGHTS + N_XWEIGHTS
"""1 where the vector carries a learned declaration (its weights ``WD`` follow), 0 where the declaration and the
goal are the ``avoid`` setting's."""
AT_DWEIGHTS = AT_DFLAG + 1
VECTOR_LEN = AT_DWEIGHTS + N_DWEIGHTS

DEFAULT_WEIGHTS = "parlett"
"""The weights a spec that names none plays: the shipped file of the default rules."""

FAMILY = Family("learned", LEARNED_ID, "a linear model of each card's value learned from reviewed deals "
                "(reversis-sim learn), of each talon option where the rules have a talon, and of the espagnolette's "
                "declaration where its weights file carries one", (), ".learned_nb",
                draws=False, weights=DEFAULT_WEIGHTS)
