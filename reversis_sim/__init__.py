"""reversis_sim: Monte-Carlo strategy analysis for Reversis, the trick-avoidance ancestor of Hearts."""

__version__ = "0.1.0"
