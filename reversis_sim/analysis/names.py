"""The names a user chooses among, stated once in plain Python (the command line lists them without importing the
analysis): the tables of ``analyze`` and the features of a dealt hand."""

TABLES = ("fish_by_seat", "fish_by_seat_zero_sum", "fish_by_position", "fish_by_policy", "fish_by_reason",
          "quinola_fate", "quinola_fate_by_hearts", "quinola_fate_by_position", "quinola_cost", "quinola_others_pay",
          "reversis_rates")
"""The tables of :func:`.run.analysis_tables`, in the order ``analyze`` prints them."""

HAND_FEATURES = ("top_cards", "hearts", "aces", "points", "quinola", "voids", "guards")
"""The features of a seat's dealt hand that :mod:`.hands` tabulates outcomes by."""

HAND_TABLE_KINDS = ("fish_by", "quinola_by", "quinola_cost_by")
"""The tables of :func:`.hands.hand_tables` for a feature F: ``<kind>_<F>``."""


def hand_table_names(features=HAND_FEATURES) -> tuple[str, ...]:
    """The names of the tables by the hand dealt for ``features``, in :func:`.hands.hand_tables` order."""
    return tuple(f"{kind}_{f}" for f in features for kind in HAND_TABLE_KINDS)


def hand_feature_of(table: str) -> str | None:
    """The feature a table by the hand dealt is by (``fish_by_hearts``: ``hearts``), or None for another table."""
    for kind in sorted(HAND_TABLE_KINDS, key=len, reverse=True):
        feature = table.removeprefix(f"{kind}_")
        if feature != table and feature in HAND_FEATURES:
            return feature
    return None
