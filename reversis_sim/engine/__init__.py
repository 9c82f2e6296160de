"""The numba engine: kernels that play deals and matches exactly as :mod:`reversis_sim.reference` does, for every
preset of :data:`reversis_sim.rules.PRESETS` (each rule difference a parameter of the one deal loop, see
:mod:`.compiled`).

Layout (imports flow down the list):

- :mod:`reversis_sim.jit` (the jit options of every kernel and the on-disk cache) and :mod:`reversis_sim.bits`
  (hand-mask helpers) sit below the engine, shared with the policies;
- :mod:`.keys`: keyed randomness (the twin of :mod:`reversis_sim.keys`);
- :mod:`.compiled`: a :class:`~reversis_sim.rules.Rules` as flat arrays; :mod:`.seats`: seat policies as arrays;
- :mod:`.policy`: the policy families inside the kernels, dispatched on the family id;
- :mod:`.layout`: the arrays of one deal (result row, hands, tricks, ledger);
- :mod:`.payments`: antes, side payments, the reversis commitment and the settlement of each scoring family
  (party, penalty, bank, simple);
- :mod:`.deal`: one deal (shuffle and deal, exchange, declaration, tricks), calling :mod:`.payments`;
- :mod:`.match`: matches in order (parallel over matches, with the money columns) and the traced match;
- :mod:`.batch` (:func:`play_matches`), :mod:`.trace` (:func:`trace_deal`), :mod:`.bench` (:func:`bench.measure`);
- :mod:`.stress`: rule variants that make rare events common, for the agreement checks.
"""

from __future__ import annotations

from .batch import play_matches
from .compiled import CompiledRules, check_engine_supported, compile_rules, engine_plays
from .trace import trace_deal, trace_match

__all__ = ["CompiledRules", "check_engine_supported", "compile_rules", "engine_plays", "play_matches", "trace_deal",
           "trace_match"]
