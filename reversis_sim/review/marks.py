"""The marks of a reviewed decision and the names of its kinds and situations (plain Python: the command line's
help reads them).

A decision is marked only where its loss is both larger than twice its standard error (the reviewer is sure the
card played is worse) and at least a threshold. The thresholds are spaced 1:2:4, as GNU Backgammon and lichess
space theirs, and anchored on the losses the reviewer measures (docs/review.md, "Marks"): at a table of
``tuned`` reviewed with ``tuned`` rollouts in 16 and 32 worlds (parlett, seed 101), of the decisions whose loss is
significant, about a quarter lose less than 4 fish, half less than 13, three quarters less than 22-27.
"""

from __future__ import annotations

THRESHOLDS = {"?!": 5.0, "?": 10.0, "??": 20.0}
"""The smallest loss, in fish, of each mark: an inaccuracy, a mistake, a blunder."""

MARK_NAMES = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}

RATING_BANDS = ((1.5, "search-class"), (3.0, "expert"), (6.0, "advanced"), (float("inf"), "beginner"))
"""A player's rating by its error rate (fish lost per non-forced decision: the exchange, the declaration and the
cards), each band's upper bound, spaced 1:2:4 as the marks are, and set in the gaps of the ladder of
docs/review.md (parlett, a table of ``tuned``, the default 16 worlds of ``tuned`` rollouts): the searches,
``learned`` and ``strong`` below the first bound (0.22-1.32), ``tuned`` and ``avoid`` with its ``bold`` and ``saver``
presets in the second (2.09-2.85), ``cautious``, ``hunter`` and ``tuned_modern`` in the third (3.27-4.94), ``random``,
``tuned_serbian`` and ``lowest`` in the last (7.19-8.00)."""

KINDS = {0: "exchange", 1: "declaration", 2: "lead", 3: "follow", 4: "discard"}
"""A decision's kind by its code, declared once here: the reviewing table writes the codes (its numba code reads
the ``KIND_*`` names below), the summaries, the pages and the figures print the names. The talon exchange (keep
the hand, or which card to discard), the declaration of the espagnolette (and its goal), then the cards: leading a
trick, following suit, discarding off-suit (void in the suit led). The first two come before the first lead (trick
0 in a review's rows, whose tricks count from 1)."""
KIND_EXCHANGE, KIND_DECLARATION, KIND_LEAD, KIND_FOLLOW, KIND_DISCARD = (
    next(code for code, name in KINDS.items() if name == kind)
    for kind in ("exchange", "declaration", "lead", "follow", "discard"))
"""The kernel's code of each kind, derived from the names (plain ints: numba freezes them)."""

CARD_KINDS = tuple(KINDS[code] for code in KINDS if code >= KIND_LEAD)
"""The kinds of a card decision, which have a trick (the codes from :data:`KIND_LEAD` on)."""

KEEP = -1
"""The exchange option of keeping the hand and looking at the face-down card (R14 b)."""


def option_name(kind: int, code: int, goal: bool = False) -> str:
    """An option of a decision of kind code ``kind`` as a reader names it: a card (``QS``), ``keep`` the hand at
    the exchange, or the declaration's ``pass`` / ``declare`` (``declare lose_all`` / ``declare win_all`` where
    the preset names a goal, ``goal``)."""
    from .. import cards as C
    from ..policies.view import DECLARE_LOSE_ALL, DECLARE_PASS

    if kind == KIND_DECLARATION:
        if code == DECLARE_PASS:
            return "pass"
        return ("declare lose_all" if code == DECLARE_LOSE_ALL else "declare win_all") if goal else "declare"
    if kind == KIND_EXCHANGE and code == KEEP:
        return "keep"
    return C.name(int(code))

SITUATIONS = {1: "holds_quinola", 2: "void", 4: "reversis_committed", 8: "last_two_tricks"}
"""The situation flags of a decision by bit, declared once here: the seat holds the J♥; it is void in the suit led
(it discards); a reversis is committed; one of the last two tricks."""
FLAG_QUINOLA, FLAG_VOID, FLAG_REVERSIS, FLAG_LAST_TWO = (
    next(bit for bit, name in SITUATIONS.items() if name == flag)
    for flag in ("holds_quinola", "void", "reversis_committed", "last_two_tricks"))
"""The kernel's bit of each situation, derived from the names."""


def mark(loss: float, loss_se: float) -> str | None:
    """The mark of a decision that lost ``loss`` fish (standard error ``loss_se``), or None."""
    if not loss > 2.0 * loss_se:
        return None
    out = None
    for m, threshold in THRESHOLDS.items():
        if loss >= threshold:
            out = m
    return out


def situations(flags: int) -> list[str]:
    """The names of the situation bits set in ``flags``."""
    return [name for bit, name in SITUATIONS.items() if flags & bit]


def rating(error_rate: float | None) -> str | None:
    """The band of :data:`RATING_BANDS` an error rate falls in (None for none)."""
    if error_rate is None:
        return None
    return next(name for bound, name in RATING_BANDS if error_rate < bound)
