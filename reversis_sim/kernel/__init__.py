"""The numba rules of a deal, below the policies and the engines: what both the deal kernel
(:mod:`reversis_sim.numba_engine`) and the search policy's rollouts (:mod:`reversis_sim.search.decide_nb`) play with.

- :mod:`.compiled`: a :class:`~reversis_sim.rules.Rules` as flat arrays;
- :mod:`.layout`: the arrays of one deal (result row, hands, tricks, ledger);
- :mod:`.payments`: antes, side payments and the reversis commitment, and the seat arithmetic of a table;
- :mod:`.settle`: the settlement of each scoring family (party, penalty, bank, simple);
- :mod:`.tricks`: who deals and leads, legal cards, the trick's winner, the espagnolette's hands, the trick loop
  (one per way of choosing a card), the start of a result row and the settlement switch.
"""
