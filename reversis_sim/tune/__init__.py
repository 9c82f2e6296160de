"""Tuning the policy families: a search space (:mod:`.space`), candidates measured block by block on
the same deals (:mod:`.evaluator`), an existing optimizer racing them (:mod:`.optimizers`), and the honest result: the
chosen setting confirmed on fresh deals, best responses and self-play (:mod:`.tuner`); a journal of the evaluations
made, so that an interrupted tuning resumes (:mod:`.journal`)."""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".defaults": ("OPTIMIZERS",),
    ".journal": ("Journal", "open_journal"),
    ".optimizers": ("SearchResult", "Trial", "search"),
    ".space": ("Dimension", "Space", "SpaceError", "build_space"),
    ".tuner": ("SelfPlay", "SelfPlayRound", "TuneResult", "best_response", "self_play", "tune"),
})
