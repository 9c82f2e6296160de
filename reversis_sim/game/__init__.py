"""The game's shared vocabulary, the floor both engines stand on: payment reasons, the pool as a party, the deal
record's format and its one builder, the Quinola's fates, an illegal play (:mod:`.vocabulary`,
:mod:`.deal_record`). Neither engine imports the other; both import this."""

from .deal_record import (
    MISSING,
    DealOutcome,
    Exchange,
    Reversis,
    deal_record,
    difference,
    first_difference,
    rules_of,
)
from .vocabulary import (
    DUMP_REASONS,
    FATE_DUMPED,
    FATE_FORCED,
    FATE_LED,
    FATE_MEANINGS,
    FATE_TALON,
    FATES,
    FORMAT,
    POOL,
    QUINOLA_PAID,
    QUINOLA_RECEIVED,
    REASONS,
    IllegalPlay,
    Payment,
    TrickRecord,
    dealer_of,
    espagnolette_eligible,
    quinola_fate,
)

__all__ = ["DUMP_REASONS", "FATES", "FATE_DUMPED", "FATE_FORCED", "FATE_LED", "FATE_MEANINGS", "FATE_TALON", "FORMAT",
           "POOL",
           "QUINOLA_PAID", "QUINOLA_RECEIVED", "REASONS",
           "DealOutcome", "Exchange", "IllegalPlay", "Payment", "Reversis", "TrickRecord", "deal_record", "dealer_of",
           "espagnolette_eligible", "first_difference", "quinola_fate", "MISSING", "difference", "rules_of"]
