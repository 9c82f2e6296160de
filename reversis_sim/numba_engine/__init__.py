"""The numba engine: kernels that play deals and matches exactly as the reference engine does (it never imports
it: both stand on :mod:`reversis_sim.game`), for every preset of :data:`reversis_sim.rules.PRESETS` (each rule
difference a parameter of the one deal loop, see :mod:`reversis_sim.kernel.compiled`).

Layout (imports flow down the list):

- below the engine: :mod:`reversis_sim.kernel` (the jit options and the on-disk cache, the units compiled once and
  called through their addresses, the compiled rules, the arrays of a deal and its cursor, payments and settlement)
  :mod:`reversis_sim.policies` (the families' decisions, the one deal skeleton ``deal_nb.PLAY_FROM``, a unit) and
  :mod:`reversis_sim.search` (the search's card, ``decide_nb.play``, a unit);
- :mod:`.seats`: seat policies as arrays, and the search unit a table needs;
- :mod:`.deal`: the engine's deal (the cards dealt by key, the deal played by the skeleton, a search asked);
- :mod:`.match`: blocks of matches into the run table, and the traced match; :mod:`.rows`: a deal's run-table rows
  written into the chunk;
- :mod:`.batch` (:func:`play_matches`, the blocks on several threads), :mod:`.trace` (:func:`trace_deal`);
- :mod:`.stress`: rule variants that make rare events common, for the agreement checks.

The review plays in this engine from its own room, above it (:mod:`reversis_sim.review`: its reviewing table calls
the engine's deal, :mod:`.deal`, and the matches' dealer, :mod:`.match`).
"""

from __future__ import annotations

from ..kernel.compiled import CompiledRules, check_engine_supported, compile_rules, engine_plays
from ..kernel.jit import CompileWatch
from .batch import play_matches
from .trace import trace_deal, trace_match

__all__ = ["CompileWatch", "CompiledRules", "check_engine_supported", "compile_rules", "engine_plays", "play_matches",
           "trace_deal", "trace_match"]
