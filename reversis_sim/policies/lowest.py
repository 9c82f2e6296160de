"""The ``lowest`` family, the naive baseline: always its lowest legal card, never takes the talon card (the dealer
and a seat that must discard give up their highest card), never declares."""

from __future__ import annotations

from .family import Family

FAMILY = Family("lowest", 1, "naive baseline: always its lowest legal card, never takes the talon card, never "
                "declares", (), ".lowest_nb", draws=False)
