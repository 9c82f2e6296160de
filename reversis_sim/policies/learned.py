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
on these facts, centred within each decision. The exchange, the declaration and the declarer's goal are those of
the ``avoid`` setting the weights file names (the one whose deals the weights were learned from): the review's
values of a card need the deal that follows the exchange, and the card model is what was learned.

The parameter vector (what the kernels carry per seat) is the weights file's, built by
:func:`.weights.vector`: :data:`LAYOUT` (the vector's layout version), the sizes ``N_O`` and ``N_D``, the
``avoid`` parameters of the exchange (:data:`N_EXCHANGE` of them), then ``W`` decision-fact by decision-fact
(``(N_D + 1) * N_O`` values, the first row the option facts' own weights).
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
N_EXCHANGE = len(AVOID_PARAMS)
"""The exchange's ``avoid`` parameters carried in the vector."""
AT_SIZES = 1  # N_O, N_D
AT_EXCHANGE = 3  # the avoid parameters of the exchange
AT_WEIGHTS = AT_EXCHANGE + N_EXCHANGE
"""Where each part of the parameter vector starts (``[0]`` is :data:`LAYOUT`)."""
N_WEIGHTS = (N_D + 1) * N_O
VECTOR_LEN = AT_WEIGHTS + N_WEIGHTS
FEATURES = f"layout {LAYOUT}: option " + ",".join(OPTION_FACTS) + "; decision " + ",".join(DECISION_FACTS)
"""The feature set, as a weights file records it."""

DEFAULT_WEIGHTS = "parlett"
"""The weights a spec that names none plays: the shipped file of the default rules."""

FAMILY = Family("learned", LEARNED_ID, "a linear model of each card's value learned from reviewed deals "
                "(reversis-sim learn); the exchange of the avoid setting it was learned from", (), ".learned_nb",
                draws=False, weights=DEFAULT_WEIGHTS)
