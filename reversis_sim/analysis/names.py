"""The names a user chooses among, stated once in plain Python (the command line lists them without importing the
analysis): the tables of ``analyze`` and the features of a dealt hand."""

TABLES = ("fish_by_seat", "fish_by_seat_zero_sum", "fish_by_position", "fish_by_policy", "fish_by_reason",
          "quinola_fate", "quinola_fate_by_hearts", "quinola_fate_by_position", "quinola_cost", "quinola_others_pay",
          "reversis_rates")
"""The tables of :func:`.run.analysis_tables`, in the order ``analyze`` prints them."""

HAND_FEATURES = ("top_cards", "hearts", "aces", "points", "quinola", "voids", "guards")
"""The features of a seat's dealt hand that :mod:`.hands` tabulates outcomes by."""
