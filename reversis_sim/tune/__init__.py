"""Tuning the policy families (issue 14): a search space (:mod:`.space`), candidates measured block by block on the
same deals (:mod:`.evaluator`), an existing optimizer racing them (:mod:`.search`), and the honest result: the chosen
setting confirmed on fresh deals, best responses and self-play (:mod:`.tuner`)."""

from .search import OPTIMIZERS, SearchResult, Trial, search
from .space import Dimension, Space, SpaceError, build_space
from .tuner import SelfPlay, SelfPlayRound, TuneResult, best_response, self_play, tune

__all__ = ["OPTIMIZERS", "Dimension", "SearchResult", "SelfPlay", "SelfPlayRound", "Space", "SpaceError", "Trial",
           "TuneResult", "best_response", "build_space", "search", "self_play", "tune"]
