"""The tuner's choices and defaults, stated once in plain Python (the command line shows them without importing
the tuner)."""

OPTIMIZERS = ("optuna", "optuna-full", "nevergrad", "random")
"""The optimizers :func:`.search.search` can race the candidates with (docs/tuning.md)."""
MIN_CANDIDATES = 3
"""The fewest candidates besides the base setting a budget must be able to judge in full: a search that can only
evaluate its own starting point has learned nothing and is refused."""
DEFAULT_BUDGET = 20_000_000
"""Deals a search may simulate by default (every candidate's seatings and the baseline's)."""
DEFAULT_EVAL_DEALS = 48_000
"""Deals of the explore seed one candidate is judged on (per seat rotation), in blocks of ``BLOCK_MATCHES``."""
BLOCK_MATCHES = 200
"""Matches per block of a candidate's evaluation (the unit the racing compares)."""
DEFAULT_CONFIRM_DEALS = 240_000
"""Deals of the confirmation of the chosen setting on fresh deals (per seat rotation)."""
