"""Tuning the policy families (issue 14): a search space (:mod:`.space`), candidates measured block by block on the
same deals (:mod:`.evaluator`), an existing optimizer racing them (:mod:`.search`), and the honest result: the chosen
setting confirmed on fresh deals, best responses and self-play (:mod:`.tuner`)."""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".search": ("OPTIMIZERS", "SearchResult", "Trial", "search"),
    ".space": ("Dimension", "Space", "SpaceError", "build_space"),
    ".tuner": ("SelfPlay", "SelfPlayRound", "TuneResult", "best_response", "self_play", "tune"),
})
