"""Analysis: polars frames in, frames out, with honest uncertainty (the match is the sampling unit)."""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".headline": ("fish_by", "quinola_risk", "reversis_rates", "with_pool_share"),
    ".payments": ("fish_by_reason",),
    ".run": ("FIGURE_TABLES", "analysis_tables", "figure_tables", "load_payments", "load_run", "summarize_run"),
    ".scan": ("RunScan", "scan_run"),
}, submodules=("figures_data", "intervals", "stats", "tables"))
