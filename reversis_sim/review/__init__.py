"""Why a player loses fish: every decision of a seat (the exchange, the declaration, the cards) valued
against the best from what the seat knew, marked where it cost fish, and the luck of the hand dealt.

The review is one room, its numba code with it, so that what it values and what it says change together: in plain
Python, the settings and their checks (:mod:`.settings`), the marks (:mod:`.marks`), one deal (:mod:`.one_deal`), a
player over many deals (:mod:`.batch`, :mod:`.summary`); its kernels, which stand on the numba engine's deal and the
search's worlds and rollouts: every option of a card decision valued (:mod:`.evaluate_nb`), the exchange and the
declaration played out (:mod:`.before_nb`), the reviewing table (:mod:`.table_nb`) and its batch API
(:mod:`.reviewing`). Importing the package costs no numba: the kernels load when a review is run."""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".marks": ("THRESHOLDS", "mark"),
    ".one_deal": ("review_deal", "review_text"),
    ".settings": ("ReviewError", "ReviewSettings", "review_settings"),
})
