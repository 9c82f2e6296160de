"""The numba engine: kernels that play deals and matches exactly as the reference engine does (it never imports
it: both stand on :mod:`reversis_sim.game`), for every preset of :data:`reversis_sim.rules.PRESETS` (each rule
difference a parameter of the one deal loop, see :mod:`reversis_sim.kernel.compiled`).

Layout (imports flow down the list):

- below the engine, shared with the policies: :mod:`reversis_sim.kernel.jit` (the jit options of every kernel and the
  on-disk cache), :mod:`reversis_sim.bits` (hand-mask helpers), :mod:`reversis_sim.keys_nb` (keyed randomness, the
  twin of :mod:`reversis_sim.keys`), :mod:`reversis_sim.kernel` (the compiled rules, the arrays of a deal, the trick
  loop, payments and settlement: shared with the search policy's rollouts), :mod:`reversis_sim.policies.dispatch`
  (the policy families' decisions) and :mod:`reversis_sim.policies.search_nb`;
- :mod:`.seats`: seat policies as arrays; :mod:`.policy`: the seats' decisions inside the kernels (the policies'
  dispatch, or the search, called with the kernel's view);
- :mod:`.deal`: one deal (shuffle and deal, exchange, declaration, the kernel's trick loop, settlement);
- :mod:`.match`: matches in order (parallel over matches) and the traced match; :mod:`.rows`: a deal's run-table
  rows written into the chunk;
- :mod:`.batch` (:func:`play_matches`), :mod:`.trace` (:func:`trace_deal`);
- :mod:`.stress`: rule variants that make rare events common, for the agreement checks.
"""

from __future__ import annotations

from ..kernel.compiled import CompiledRules, check_engine_supported, compile_rules, engine_plays
from ..kernel.jit import CompileWatch
from .batch import play_matches
from .trace import trace_deal, trace_match

__all__ = ["CompileWatch", "CompiledRules", "check_engine_supported", "compile_rules", "engine_plays", "play_matches",
           "trace_deal", "trace_match"]
