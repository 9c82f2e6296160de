"""The words a summary, a figure or a caption says about the rules, taken from the rule set that was played: what
each fate of the J♥ costs or pays, which hands may declare the espagnolette and what it aims at, when a seat is
committed to the reversis, and what the common stake is called (the parlett family's pool, the modern family's
pot, the Serbian bank). A sentence names only the payments its rules have; a payment a preset lacks is never
described to its players (RULES.md §1.7, R22-R27, R34, R38-R40, A22, A29, F1.3, F1.4, F3.3, F3.4)."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules

HANDS = {
    "four_aces": "four Aces",
    "JH_plus_three_aces": "three Aces and the J♥",
    "four_aces_plus_JH": "four Aces and the J♥",
    "three_aces_plus_king": "three Aces and a King",
}
"""The hands that may declare the espagnolette (``Rules.espagnolette_hands``), in words (R38, F1.1)."""


def pool_name(rules: Rules) -> str:
    """The common stake as the rules call it: ``pot`` (the modern family's penalty scoring), ``bank`` (serbian), or
    ``pool``."""
    return {"penalty": "pot", "bank": "bank"}.get(rules.scoring, "pool")


def _joined(parts: Sequence[str]) -> str:
    parts = list(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _capture(rules: Rules) -> str | None:
    """A22: under penalty scoring the J♥ taken other than by placement costs its taker the pot + N, into the pot."""
    if rules.scoring != "penalty":
        return None
    pot = pool_name(rules)
    plus = f" + {rules.quinola_capture_surcharge}" if rules.quinola_capture_surcharge else ""
    return f"whoever takes it pays the {pot}'s amount{plus} into the {pot}"


def quinola_payments(rules: Rules) -> dict[str, list[str]]:
    """What each fate of the J♥ moves under ``rules``, as clauses (none: no payment of its own)."""
    pool, capture = pool_name(rules), _capture(rules)
    dumped, forced, led = [], [], []
    if rules.quinola_dumped:
        dumped.append(f"the trick's winner pays its thrower {rules.quinola_dumped}")
    if rules.quinola_pool_dumped == "win_pool":
        dumped.append(f"the thrower takes the {pool}")
    if capture and rules.placement_is_capture:
        dumped.append(f"{capture} (a placement counts as a capture)")
    if rules.double_ante_after_placement:
        dumped.append("the next deal's antes are doubled")
    if rules.quinola_forced_plus_pool:
        forced.append(f"its holder pays the leader the {pool}'s amount + {rules.quinola_forced_holder}")
    elif rules.quinola_forced_holder:
        forced.append(f"its holder pays the leader {rules.quinola_forced_holder}")
    if rules.quinola_forced_each_other:
        forced.append(f"every other player pays the leader {rules.quinola_forced_each_other}")
    if rules.quinola_pool_forced == "double_pool":
        forced.append(f"the holder doubles the {pool}")
    if rules.quinola_led_holder:
        led.append(f"its holder pays the party winner {rules.quinola_led_holder}")
    if rules.quinola_pool_led == "double_pool":
        led.append(f"the holder doubles the {pool}")
    if capture:
        forced.append(capture)
        led.append(capture)
    if rules.scoring == "simple" and rules.simple_quinola_extra:
        taken = f"whoever takes it scores {rules.simple_quinola_extra} points on top of its own"
        for clauses in (dumped, forced, led):
            clauses.append(taken)
    return {"dumped": dumped, "forced": forced, "led": led, "talon": []}


FATE_EVENTS = {
    "dumped": "thrown on a trick of another suit by a seat void in it",
    "forced": "played to a heart lead",
    "led": "led by its holder",
    "talon": "never played: it lay in the talon, or was discarded to it",
}
"""What happened to the J♥ in each fate, whatever the rules (RULES.md §1.7)."""


def fate_meanings(rules: Rules) -> dict[str, str]:
    """What each fate of the J♥ is and moves under ``rules``, in a newcomer's words (the run summary prints them)."""
    out = {}
    for fate, clauses in quinola_payments(rules).items():
        event = FATE_EVENTS[fate]
        if fate == "talon":
            out[fate] = event if rules.talon_mode != "none" else "never played"
        else:
            out[fate] = f"{event}: {_joined(clauses)}" if clauses else f"{event}; no payment of its own"
    return out


def fate_legend(rules: Rules) -> dict[str, str]:
    """A figure's legend for each fate: the event in a few words and who pays or is paid under ``rules``."""
    pay = quinola_payments(rules)

    def who(fate: str) -> str:
        clauses = pay[fate]
        if rules.scoring == "simple" and rules.simple_quinola_extra:
            return f"its taker scores {rules.simple_quinola_extra} more"
        holder = [c for c in clauses if "holder" in c or "thrower" in c]
        if holder:
            return "holder is paid" if fate == "dumped" else "holder pays"
        return "its taker pays" if any("whoever takes it" in c for c in clauses) else "no payment"

    return {"dumped": f"dumped: discarded on another suit ({who('dumped')})",
            "forced": f"forced: played to a heart lead ({who('forced')})",
            "led": f"led: the holder led it ({who('led')})",
            "talon": "talon: never in play"}


def espagnolette_words(rules: Rules) -> str | None:
    """The espagnolette in a few words (the hands that may declare it and its aim), or None where the rules have
    none."""
    if not rules.espagnolette_enabled:
        return None
    hands = " or ".join(HANDS[h] for h in rules.espagnolette_hands)
    if rules.espagnolette_success == "is_deal_winner":
        aim = "plays to win the deal, with the fewest points"
    elif rules.espagnolette_goal_choice:
        aim = "plays to win no trick, or every trick, as he declares"
    else:
        aim = "plays to win no trick"
    return f"a hand of {hands}, whose holder {aim}"


def reversis_words(rules: Rules) -> str | None:
    """When a seat is committed to the reversis, in a few words, or None where the rules have no reversis."""
    if not rules.reversis_enabled:
        return None
    k = rules.reversis_commit_after
    if k == rules.n_tricks - 2:
        return "a seat won all the tricks but the last two and so must win them all"
    return f"a seat won each of the first {k} tricks and so must win them all"


def not_played(what: str, rules: Rules) -> str:
    """The line a summary prints for a part of the game ``rules`` do not have."""
    return f"{what}: not played under {rules.name}"
