"""The ``avoid`` family: the sourced trick-avoidance ideas H1-H14 (RULES.md §4), each a parameter.

Duck and unload (H2), shed the payment cards when void (H1), make voids with the talon (H3, H4), guard and hunt the
Quinola (H5, H8), hunt the Aces (H6), lead safely (H7, H9), count the cards (H14), attempt and defend against the
reversis (H10, H11), declare the espagnolette (H12), dump on the opposite seat (H13). Its decisions
(:mod:`.avoid_nb`) are written once as numba functions of the seat's public view; both engines call them (through
:mod:`.dispatch`).
"""

from __future__ import annotations

from .family import Family, integer, position, real, switch

PARAMS = (
    switch("duck", 1, "H2: follow with the highest card that still loses the trick (0: the lowest card)"),
    switch("unload", 1, "H2: when the trick cannot be lost, unload the highest card that is not an Ace or the J♥"),
    switch("shed", 1, "H1: when void, discard the J♥, then A♦, then the Aces, then the highest-point card"),
    switch("save_dumps", 0, "H1: keep Aces to dump in the last two tricks, where payments are doubled"),
    switch("lead_pay", 0, "H7: 1 allows leading an Ace or the J♥ while other cards are left"),
    switch("short", 1, "H9: lead from the shortest suit (0: the longest)"),
    switch("hunt", 1, "H5: lead low hearts while the J♥ is out, to force it"),
    switch("ace_hunt", 0, "H6: lead low into suits whose Ace is still out, to force it"),
    integer("guard", 2, 0, 6, "H8: low hearts to keep as guards of one's own J♥ (talon discards and sheds)"),
    real("take", 4, 0, 20, "H3/H4: take the talon card when the hand's danger score reaches this", step=0.25),
    integer("declare", 1, 0, 11, "H12: declare the espagnolette with at most this many high cards besides the Aces"),
    integer("reversis", 12, 0, 14, "H10: attempt the reversis with at least this many sure tricks (above the number "
                                   "of tricks: never)"),
    integer("break", 5, 0, 14, "H11: fight an opponent's run of won tricks once it reaches this many"),
    switch("opposite", 1, "H13: dump an Ace at once when the opposite seat is winning the trick (pays ×2)"),
    switch("count", 1, "H14: count the cards played (0: treat every unseen card as still out)"),
    integer("rev_top", 14, 0, 14, "H10: attempt the reversis when the top cards in hand (the two highest ranks of "
                                  "each suit) plus the tricks already won reach this (above the tricks: never)"),
    real("q_bare", 8, -20, 40, "H3/H8: at the talon, how much more the J♥ is worth discarding than its points say "
                               "when at most `guard` low hearts guard it", step=1),
    real("q_guarded", -4, -20, 40, "H3/H8: the same when more low hearts guard it (below 0: keep it)", step=1),
)
"""The parameters, in the order of the seat's parameter vector; the kernels read them at the positions below."""

A_DUCK = position(PARAMS, "duck")
A_UNLOAD = position(PARAMS, "unload")
A_SHED = position(PARAMS, "shed")
A_SAVE_DUMPS = position(PARAMS, "save_dumps")
A_LEAD_PAY = position(PARAMS, "lead_pay")
A_SHORT = position(PARAMS, "short")
A_HUNT = position(PARAMS, "hunt")
A_ACE_HUNT = position(PARAMS, "ace_hunt")
A_GUARD = position(PARAMS, "guard")
A_TAKE = position(PARAMS, "take")
A_DECLARE = position(PARAMS, "declare")
A_REVERSIS = position(PARAMS, "reversis")
A_BREAK = position(PARAMS, "break")
A_OPPOSITE = position(PARAMS, "opposite")
A_COUNT = position(PARAMS, "count")
A_REV_TOP = position(PARAMS, "rev_top")
A_Q_BARE = position(PARAMS, "q_bare")
A_Q_GUARDED = position(PARAMS, "q_guarded")


FAMILY = Family("avoid", 2, "the sourced trick-avoidance ideas H1-H14 (duck and unload, shed payment cards, make "
                "voids, guard and hunt the Quinola, reversis attempt and defence), each a parameter", PARAMS,
                ".avoid_nb", draws=False)
