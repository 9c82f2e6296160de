"""Comparing policies: the duplicate design (:mod:`.duplicate`) on seatings simulated once (:mod:`.seatings`), the
sequential test (:mod:`.sequential`), tournaments (:mod:`.tournament`), parameter sweeps (:mod:`.sweep`), and the
comparison folders they write (:mod:`.folders`). ``docs/statistics.md`` gives the design and every formula."""

from .duplicate import CompareResult, compare
from .folders import COMPARE_FORMAT, COMPARE_TABLE, json_ready, read_compare
from .seatings import Arms, Table
from .sequential import SprtResult, SprtUpdate, sprt_compare
from .sweep import SweepResult, grid_specs, sweep
from .tournament import TournamentResult, tournament

__all__ = ["COMPARE_FORMAT", "COMPARE_TABLE", "Arms", "CompareResult", "SprtResult", "SprtUpdate", "SweepResult",
           "Table", "TournamentResult", "compare", "grid_specs", "json_ready", "read_compare", "sprt_compare", "sweep",
           "tournament"]
