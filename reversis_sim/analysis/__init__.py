"""Analysis: summaries of simulated deals with honest uncertainty."""

from .summary import MatchSummary, summarize_records

__all__ = ["MatchSummary", "summarize_records"]
