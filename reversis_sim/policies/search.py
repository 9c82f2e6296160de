"""``search``: determinized search (perfect-information Monte-Carlo, PIMC; Long et al. 2010).

This file is the search's declaration only, plain Python like every family's: what a spec names, its family id and
the layout of its parameter vector. It stays with the other declarations because the spec parser lists every family
(:mod:`.registry`) and the deal skeleton seats a search's rollout policy for its exchange and declaration
(:mod:`.choose_nb`); the search's code is its own package, :mod:`reversis_sim.search`, a floor above.

At each card to play, the seat draws ``worlds`` worlds consistent with everything it knows
(:mod:`reversis_sim.search.worlds`: its hand, the talon card it saw, every card played and by whom, every void shown,
the espagnolette declarer's eligible hand), and in each world plays every legal card in turn, the rest of the deal
played out by the ``rollout`` policy in every seat (its own included), then settled by the real rules
(:mod:`reversis_sim.kernel`): its own result of the deal, fish (``-score`` under simple scoring). It keeps the rollout
policy's own card unless another card gains on it, paired world by world, by more than ``margin`` standard errors: with
few worlds an estimate's noise (a deal's fish vary by tens) would otherwise pick cards at random (measured:
docs/search.md). A single legal card is played without searching, and cards that cannot differ are played out once
(:func:`reversis_sim.search.options_nb.distinct`).

The other decisions follow a documented rule: the talon exchange, the espagnolette declaration and the declarer's
goal are the rollout policy's own decisions (the search plays the cards; the exchange and the declaration are
decided before any card is seen, where a rollout from an unknown deal says little more than the heuristic does).

Unlike a heuristic, the search needs the table: the compiled rules, the whole trick history, the pool before the
deal, the declarer and his goal, and scratch arrays for its worlds and rollouts
(:func:`reversis_sim.search.rollout_nb.workspace`). The engines call :func:`reversis_sim.search.decide_nb.play` directly
for the ``search`` family (:data:`SEARCH_ID`), the heuristics through the dispatch; the rollouts call the heuristics'
dispatch, so a search can never roll out with a search.

Options raced (``race`` > 0): a card is played out in the first ``first`` worlds, and then only while its
mean gain over the rollout policy's card, plus ``race`` standard errors of that paired mean, is above 0; the search
stops as soon as only the rollout policy's card is left. A decision whose other cards are clearly no better than
the rollout policy's ends after ``first`` worlds; the worlds go to the close ones (docs/search.md measures it).

Inference (``infer=rollout``; Rebstock et al., "Policy based inference in trick-taking card games", CoG
2019): ``pool`` × ``worlds`` worlds are drawn uniformly as above, each is weighed by the likelihood of every card
the other seats have played under the rollout policy softened by ``tau`` (in each seat's place, on what that seat
knew then: of its L legal cards, the model's card has probability e^(1/tau) / (e^(1/tau) + L - 1), each other one
1 / (e^(1/tau) + L - 1), so a card the model would not play is unlikely, never impossible), and ``worlds`` worlds
are resampled from them in proportion to their weights (systematic resampling; a world drawn again is not played
out again, its rollouts being deterministic). With ``pool=1`` nothing is resampled: the ``worlds`` worlds drawn are
all played out and each counts by its weight (self-normalised importance sampling: weighted means, standard errors
on the effective number of worlds). A world in which a card played was not legal would weigh nothing (none is
drawn: the sampler honours the first lead's heart rule too). With ``window`` = K > 0, only the last K cards the other
seats played weigh a world (the history before them is replayed, the model not asked on it): the weight then costs
at most K model calls, not one per card of the history.

Searched from a trick on (``start`` = T > 0): in the tricks before T, the seat plays the rollout policy's
own card at the policy's cost. The first tricks' rollouts are the longest, so they hold most of the cost (measured
in docs/search.md: where the search gains, against what it costs).

The default (since 0.3.0): 8 worlds, raced from the second world (``race=1,first=2``), searched from the seventh
trick (``start=6``), with the learned player of the table's rules as the rollout policy (whose exchange and
declaration it plays): ``learned`` under ``parlett``, ``learned_modern`` and ``learned_serbian`` under theirs, and
under rules no shipped weights were learned for, the family's strongest heuristic (``strong``, ``strong_modern``,
``strong_serbian``: :func:`.registry.search_rollout`). Under ``parlett`` it beats the default it replaced,
``search:worlds=16,start=5,rollout=strong``, by more than 5 fish a deal at less cost (docs/search.md: chosen on the
exploring seed, measured on a fresh one). A folder written before 0.3.0 (or 0.2.0) with a ``search`` seat is read as
ever but not continued (:data:`.registry.CHANGED_DEFAULTS`).

The parameter vector (what the kernels carry per seat): ``worlds``, ``margin``, ``race``, ``first``, ``infer``,
``tau``, ``pool``, ``start``, ``window``, then the rollout policy's family id, then its parameters
(:func:`reversis_sim.search.rollout_nb.rollout_family`; the parameters from ``N_OWN + 1`` on).
"""

from __future__ import annotations

from .family import Family, choice, integer, position, real

SEARCH_ID = 9
"""The family id of ``search`` (new heuristic families take the small ids)."""
MAX_ROLLOUT_PARAMS = 640
"""The longest parameter vector of a rollout policy (a learned player's carries its weights: 624 values)."""

INFER_MODELS = ("none", "rollout")
"""The models of the other seats' play ``infer`` may name: none (uniform worlds), the rollout policy."""

PARAMS = (
    integer("worlds", 8, 1, 4096, "worlds sampled per card to play (each plays every legal card out)"),
    real("margin", 1.0, 0.0, 10.0, "play another card than the rollout policy's own only when its mean gain over "
         "it across the worlds exceeds this many standard errors (0: the best mean, plain PIMC)", step=0.25),
    real("race", 1.0, 0.0, 10.0, "options raced (0: off): from world `first` on, a card whose mean gain over the "
         "rollout policy's own, plus this many standard errors, is not above 0 gets no more rollouts; when no card "
         "is left beside the own card, the search stops and plays it", step=0.25),
    integer("first", 2, 2, 4096, "with `race`: the worlds every card is played out in before any is dropped"),
    choice("infer", "none", INFER_MODELS, "the model of the other seats' play that weighs the worlds: none (uniform "
           "worlds), rollout (the rollout policy, softened by `tau`)"),
    real("tau", 1.0, 0.05, 20.0, "with `infer`: the temperature of the model (small: a world where a seat played a "
         "card the model would not is nearly ruled out; large: nearly uniform)", step=0.05),
    integer("pool", 4, 1, 64, "with `infer`: worlds drawn and weighed per world kept, the kept ones resampled "
            "from them (at most 4096 drawn); 1: every world drawn is played out and counts by its weight"),
    integer("start", 6, 0, 24, "the first trick searched (0: the first trick); in the tricks before it, the rollout "
            "policy's own card, at its cost"),
    integer("window", 0, 0, 64, "with `infer`: only the last this many cards the other seats played weigh a world "
            "(the history is still replayed, the model asked only on them); 0: every card"),
)
(SEARCH_WORLDS, SEARCH_MARGIN, SEARCH_RACE, SEARCH_FIRST, SEARCH_INFER, SEARCH_TAU, SEARCH_POOL, SEARCH_START,
 SEARCH_WINDOW) = (position(PARAMS, name) for name in ("worlds", "margin", "race", "first", "infer", "tau", "pool",
                                                        "start", "window"))
"""The kernel's index of each parameter in the parameter vector, derived from the names."""
DEFAULT_ROLLOUT = "learned"
"""The rollout policy of ``search`` when none is given (a named preset or a heuristic spec): the learned player of
the default rules; under other rules the table's own (:func:`.registry.for_rules`)."""
N_OWN = len(PARAMS)
"""The search's own parameters; then its rollout policy's family id and parameter vector."""

FAMILY = Family("search", SEARCH_ID, "determinized search (PIMC): each legal card played out in sampled worlds "
                "consistent with what the seat has seen, by a rollout policy", PARAMS, "reversis_sim.search.decide_nb",
                rollout=DEFAULT_ROLLOUT)
