"""The numba engine: kernels that play deals and matches exactly as the reference engine does (it never imports
it: both stand on :mod:`reversis_sim.game`), for every preset of :data:`reversis_sim.rules.PRESETS` (each rule
difference a parameter of the one deal loop, see :mod:`.compiled`).

Layout (imports flow down the list):

- below the engine, shared with the policies: :mod:`reversis_sim.jit` (the jit options of every kernel and the
  on-disk cache), :mod:`reversis_sim.bits` (hand-mask helpers), :mod:`reversis_sim.keys_nb` (keyed randomness, the
  twin of :mod:`reversis_sim.keys`), :mod:`reversis_sim.policies.dispatch` (the policy families' decisions);
- :mod:`.compiled`: a :class:`~reversis_sim.rules.Rules` as flat arrays; :mod:`.seats`: seat policies as arrays;
- :mod:`.policy`: the seats' decisions inside the kernels (the policies' dispatch, called with the kernel's view);
- :mod:`.layout`: the arrays of one deal (result row, hands, tricks, ledger);
- :mod:`.payments`: antes, side payments and the reversis commitment; :mod:`.settle`: the settlement of each scoring
  family (party, penalty, bank, simple);
- :mod:`.deal`: one deal (shuffle and deal, exchange, declaration, tricks), calling :mod:`.payments` and
  :mod:`.settle`;
- :mod:`.match`: matches in order (parallel over matches, with the money columns) and the traced match;
- :mod:`.batch` (:func:`play_matches`), :mod:`.trace` (:func:`trace_deal`);
- :mod:`.stress`: rule variants that make rare events common, for the agreement checks.
"""

from __future__ import annotations

from .batch import play_matches
from .compiled import CompiledRules, check_engine_supported, compile_rules, engine_plays
from .trace import trace_deal, trace_match

__all__ = ["CompiledRules", "check_engine_supported", "compile_rules", "engine_plays", "play_matches", "trace_deal",
           "trace_match"]
