"""Analysis: polars frames in, frames out, with honest uncertainty (the match is the sampling unit)."""

from . import figures_data, stats, tables
from .headline import fish_by, quinola_risk, reversis_rates, with_pool_share
from .payments import fish_by_reason
from .run import FIGURE_TABLES, analysis_tables, figure_tables, load_payments, load_run, summarize_run
from .scan import RunScan, scan_run

__all__ = ["FIGURE_TABLES", "RunScan", "analysis_tables", "figure_tables", "figures_data", "fish_by", "fish_by_reason",
           "load_payments", "load_run", "quinola_risk", "reversis_rates", "scan_run", "stats", "summarize_run",
           "tables", "with_pool_share"]
