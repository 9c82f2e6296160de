"""Why a player loses fish: every decision of a seat (the exchange, the declaration, the cards) valued
against the best from what the seat knew, marked where it cost fish, and the luck of the hand dealt; one deal
(:mod:`.one_deal`), the settings and their checks (:mod:`.settings`), the marks (:mod:`.marks`). The review plays
in the numba engine (:mod:`reversis_sim.numba_engine.reviewing`)."""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".marks": ("THRESHOLDS", "mark"),
    ".one_deal": ("review_deal", "review_text"),
    ".settings": ("ReviewError", "ReviewSettings", "review_settings"),
})
