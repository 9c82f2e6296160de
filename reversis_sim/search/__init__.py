"""The search: a seat that plays its cards by determinized search (PIMC), in a room of its own.

What a spec names is declared with the other families, in plain Python (:mod:`reversis_sim.policies.search`: its
parameters, its family id, the layout of its parameter vector), because the spec parser lists every family a seat
may be and the deal skeleton seats a search's rollout policy for its exchange and declaration. How it searches is
here, above the heuristics it rolls out with and the deal skeleton it plays (:mod:`reversis_sim.policies`), below
the engines that seat it (the reference engine's seat policy, the numba engine's deal):

- :mod:`.worlds`: exact sampling of the hidden cards, worlds the seat cannot tell apart;
- :mod:`.inference_nb`: the likelihood of the other seats' plays in a world, for ``infer``;
- :mod:`.rollout_nb`: its scratch, and a rollout: the deal's public history played once per decision by the
  skeleton, then resumed in every world;
- :mod:`.options_nb`: the distinct cards it plays out and how it judges them, the race and the margin rule;
- :mod:`.decide_nb`: its worlds and its card, compiled once as a unit (``decide_nb.play``) the engines call.

The review values a decision's options with the same worlds and rollouts (:mod:`reversis_sim.review`).
"""
