"""Rule variants that make rare events common, for the agreement checks.

With the random policy a reversis (winning the first nine tricks) essentially never happens and an espagnolette
comes up in about one deal in eighty, so the presets alone leave the commitment, the rollback and the reversis
settlement nearly untested. These variants keep the engine but move the parameters of each scoring family (shorter
deals on a shorter deck, an early commitment, more eligible hands, the other options of the family) so that every
branch of the deal kernel runs thousands of times. They are not presets: only tests and
``scripts/check_agreement.py`` use them.
"""

from __future__ import annotations

from ..rules import MODERN, PARLETT, PRESETS, Rules

STRESS: dict[str, Rules] = {
    # Early commitment in a full deal: broken reversis, rollback of pool moves and claims, breaker; with every
    # option of the family switched to its other value.
    "stress_commit": PARLETT.replace(
        name="stress_commit", reversis_commit_after=2, espagnolette_renounce_tricks=5,
        espagnolette_hands=("four_aces", "JH_plus_three_aces", "four_aces_plus_JH", "three_aces_plus_king"),
        first_lead_rule="heart_if_able", special_rank="JH_top_of_hearts", tie_order=(0, -1, -2, -3),
        dealer_step=-1, talon_point_overrides=(("AD", 5), ("JH", 3)), trick_point_overrides=(("AD", 5), ("JH", 4)),
        restake_below=40, every_each=1, last_tricks_count=3, party_payers="loser_only", declarer_can_commit=False),
    # Three-trick deals: made reversis (the party cancelled, an espagnolette voided), last trick doubled.
    "stress_short": PARLETT.replace(
        name="stress_short", hand_size=3, reversis_commit_after=1, espagnolette_renounce_tricks=1,
        last_tricks_count=1, espagnolette_hands=("three_aces_plus_king", "four_aces", "JH_plus_three_aces")),
    # Partial rollback, no cancellation of the party, a broken reversis paying the pool (pierer), a forced
    # Quinola paying the pool on top (serbian's F3.4), no talon.
    "stress_partial": PARLETT.replace(
        name="stress_partial", hand_size=4, reversis_commit_after=2, espagnolette_renounce_tricks=2,
        reversis_rollback=("side_payments",), cancel_party_on_success=False, reversis_broken_pays_pool=True,
        quinola_forced_plus_pool=True, talon_mode="none", dealer_extra_card=False, party_payers="none",
        espagnolette_hands=("three_aces_plus_king", "JH_plus_three_aces")),
    # Frequent espagnolettes (three Aces and a King) with a commitment after five tricks.
    "stress_espagnolette": PARLETT.replace(
        name="stress_espagnolette", reversis_commit_after=5, espagnolette_renounce_tricks=9,
        espagnolette_hands=("three_aces_plus_king", "four_aces", "JH_plus_three_aces"),
        quinola_pool_led="none", espagnolette_return_factor=3, party_payers="loser_only"),
    # Penalty scoring (modern) on four-card hands of a 16-card deck, Aces high: made reversis (with a voided
    # espagnolette), declarers who win the first tricks (never committed, F1.4), win_all and lose_all made.
    "stress_penalty": MODERN.replace(
        name="stress_penalty", ranks="AKQJ", hand_size=4, reversis_commit_after=2),
    # The five-seat table (the dealer sits out) with a persistent pot, a placement that also counts as captured,
    # and the commitment after one trick.
    "stress_penalty_five": PRESETS["modern_five"].replace(
        name="stress_penalty_five", ranks="KQJA", hand_size=4, reversis_commit_after=1, pool_persists=True,
        winner_takes_pool=False, placement_is_capture=True),
    # Bank scoring (serbian) on five-card hands of a 24-card deck: made reversis taking everything (the declarer's
    # 2 on top, or the declarer himself the maker), failed espagnolettes returning their takings, doubled antes.
    "stress_bank": PRESETS["serbian"].replace(
        name="stress_bank", ranks="AKQJ98", hand_size=5, reversis_commit_after=2, last_tricks_count=2,
        espagnolette_renounce_tricks=3,
        espagnolette_hands=("four_aces", "JH_plus_three_aces", "three_aces_plus_king")),
    # Simple scoring with a low target (short matches) and, off-preset, the reversis and espagnolette switched on:
    # reported in the record's result, never paid.
    "stress_simple": PRESETS["parlett_simple"].replace(
        name="stress_simple", ranks="AKQJ9876", hand_size=6, target_total=30, reversis_enabled=True,
        reversis_commit_after=2, espagnolette_enabled=True, espagnolette_renounce_tricks=4,
        espagnolette_hands=("four_aces", "JH_plus_three_aces", "three_aces_plus_king")),
}
"""Stress variants by name."""
