"""Outcomes by what a seat was dealt: hand features joined to the run table.

Every seat row holds the seat's hand as dealt (the ``hand`` column, a card mask: the analysis never deals), and
the features are computed from it part by part. A feature is a number a player
sees in his hand: ``top_cards`` (the two highest ranks of each suit in play order: the Aces and Kings of parlett),
``hearts``, ``aces``, ``points`` (card points, R7), ``quinola`` (holds the J♥), ``voids`` (suits he holds none of),
``guards`` (hearts below the J♥: what follows a heart lead without giving up the Quinola). The hand is the one
dealt, before the talon exchange; on a run of constrained deals (``--predeal``, ``--where``) the tables are
conditional on the constraints (:func:`conditioning`).

:func:`by_hand` gives, for each value of a feature: the seats' mean fish per deal (95% interval, the match as the
unit), how often a seat holding such a hand was committed to the reversis and how often it made it, and the mean
fish of the committed seats alone: the expected fish of an attempt by hand strength.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from .. import cards as C
from ..policies import parse_spec
from ..record import RunSpec, part_files, payments_path, read_manifest
from ..rules import Rules
from .batches import Batches
from .names import HAND_FEATURES, HAND_TABLE_KINDS
from .pool_path import path_rows
from .scan_pool import group_part
from .tables import mean_table, rate_table

N_VALUES = 64
"""Values a hand feature can take (0 .. 63): the most card points a hand holds is 40."""


def _bits(mask_of_cards) -> np.uint64:
    return np.uint64(C.mask(mask_of_cards))


def hand_features(masks: np.ndarray, rules: Rules) -> dict[str, np.ndarray]:
    """Every feature of :data:`HAND_FEATURES` for an array of hand masks (any shape), as ``int8`` arrays of that
    shape."""
    t = rules.tables
    m = np.asarray(masks, np.uint64)
    top = [c for c in t.deck if t.strength[c] >= max(t.strength[x] for x in t.deck if C.suit_of(x) == C.suit_of(c))
           - 1]
    hearts = [c for c in t.deck if C.suit_of(c) == C.HEARTS]
    points = np.zeros(m.shape, np.int64)
    for c in t.deck:
        if t.trick_points[c]:
            points += ((m >> np.uint64(c)) & np.uint64(1)).astype(np.int64) * t.trick_points[c]
    voids = np.zeros(m.shape, np.int8)
    for suit in range(C.N_SUITS):
        voids += (m & _bits(c for c in t.deck if C.suit_of(c) == suit)) == 0
    guards = [c for c in hearts if C.rank_of(c) < C.RANK_JACK]
    return {
        "top_cards": np.bitwise_count(m & _bits(top)).astype(np.int8),
        "hearts": np.bitwise_count(m & _bits(hearts)).astype(np.int8),
        "aces": np.bitwise_count(m & _bits(C.ACES)).astype(np.int8),
        "points": points.astype(np.int8),
        "quinola": ((m >> np.uint64(C.QUINOLA)) & np.uint64(1)).astype(np.int8),
        "voids": voids,
        "guards": np.bitwise_count(m & _bits(guards)).astype(np.int8),
    }


def with_hand_features(out: str | Path, features=HAND_FEATURES) -> tuple[dict, Batches]:
    """(manifest, batches of the run's rows, one part each, with the feature columns of the seat's dealt hand, read
    from the seat table's ``hand`` column: nothing is dealt again)."""
    manifest = read_manifest(out)
    rules = RunSpec.from_identity(manifest).resolved_rules()
    frames = []
    for path in part_files(out, manifest):
        masks = pq.read_table(path, columns=["hand"])["hand"].to_numpy()
        feats = hand_features(masks, rules)
        frames.append(pl.scan_parquet(path).with_columns(
            *(pl.lit(pl.Series(f, feats[f])) for f in features)))
    return manifest, Batches(frames)


def pool_path_by_hand(out: str | Path, feature: str, value: str = "fish", holders: bool = False
                      ) -> pl.DataFrame | None:
    """:func:`.tables.mean_table` of ``value`` (``fish``, or ``quinola_net``) by ``feature`` of the seat's dealt
    hand (of the seats dealt the J♥ alone with ``holders``), through the pool's expected size
    (:mod:`.pool_path`), with an ``estimator`` column; None where the run does not allow it (a seat that decides by
    the pool, a pool that breaks the rules' law: :mod:`.scan_pool`)."""
    manifest = read_manifest(out)
    if any(parse_spec(str(s)).rollout is not None for s in manifest["seats"]):
        return None
    rules = RunSpec.from_identity(manifest).resolved_rules()
    total = None
    for path in part_files(out, manifest):
        feats = hand_features(pq.read_table(path, columns=["hand"])["hand"].to_numpy(), rules)
        groups = feats[feature].astype(np.int64)
        if holders:
            groups = np.where(feats["quinola"] == 1, groups, -1)
        part = group_part(path, payments_path(out, int(path.stem.split("-")[1])), len(manifest["seats"]), groups,
                          N_VALUES, value)
        total = part if total is None else total.add(part)
        if total.broken:
            return None
    rows = path_rows(total.sums, total.dealers, *total.ante(), kind="pool_path_hand")
    frame = pl.concat([pl.DataFrame({feature: pl.Series(np.arange(N_VALUES), dtype=pl.Int8)}),
                       pl.DataFrame(rows, schema_overrides={"n_units": pl.Int64, "n_deals": pl.Int64,
                                                            "n_needed": pl.Int64})], how="horizontal")
    return frame.filter(pl.col("n_deals") > 0).with_columns(pl.lit("pool_path").alias("estimator"))


def by_hand(out: str | Path, feature: str = "top_cards", estimator: str = "pool_path") -> pl.DataFrame:
    """For each value of ``feature`` in a seat's dealt hand: seats' mean fish per deal (``mean``, ``ci_low``,
    ``ci_high``), the reversis committed and made rates (``committed_rate``, ``made_rate`` of the committed), and
    ``attempt_fish``: the mean fish of the committed seats (null where none was), with its interval. With
    ``estimator="pool_path"`` the seats' mean fish goes through the pool's expected size where the run allows it
    (:func:`pool_path_by_hand`; the ``estimator`` column says which); the attempt's stays plain."""
    if feature not in HAND_FEATURES:
        raise ValueError(f"unknown hand feature {feature!r}; valid features: {', '.join(HAND_FEATURES)}")
    _, lf = with_hand_features(out, (feature,))
    lf = lf.with_columns((pl.col("reversis_seat") == pl.col("seat")).alias("committed"),
                         ((pl.col("reversis_seat") == pl.col("seat")) & pl.col("reversis_made")).alias("made"))
    fish = pool_path_by_hand(out, feature) if estimator == "pool_path" else None
    if fish is None:
        fish = mean_table(lf, feature, "fish", unit="match")
        if estimator == "pool_path":
            fish = fish.with_columns(pl.lit("plain").alias("estimator"))
    committed = rate_table(lf, feature, "committed").select(
        feature, pl.col("rate").alias("committed_rate"), pl.col("ci_low").alias("committed_ci_low"),
        pl.col("ci_high").alias("committed_ci_high"), pl.col("successes").alias("committed"))
    out = fish.join(committed, on=feature, how="left")
    if not out["committed"].sum():  # no seat committed: the attempt columns are null, not an error
        return out.with_columns(pl.lit(None, pl.Float64).alias(c) for c in (
            "made_rate", "attempt_fish", "attempt_ci_low", "attempt_ci_high")).sort(feature)
    made = rate_table(lf.filter(pl.col("committed")), feature, "made").select(
        feature, pl.col("rate").alias("made_rate"))
    attempt = mean_table(lf.filter(pl.col("committed")), feature, "fish", unit="match").select(
        feature, pl.col("mean").alias("attempt_fish"), pl.col("ci_low").alias("attempt_ci_low"),
        pl.col("ci_high").alias("attempt_ci_high"))
    return out.join(made, on=feature, how="left").join(attempt, on=feature, how="left").sort(feature)


def conditioning(out: str | Path) -> dict:
    """What a run's tables are conditional on: ``{"deals": the constraints or None, "acceptance": the share of all
    deals that meet them, "passed": the share of shuffles that met the ``--where`` condition}``. A rate measured on
    a constrained run is a rate among the deals that meet the constraint; times ``acceptance`` it is that deal
    family's contribution to the unconditional rate. ``acceptance`` is 1.0 without constraints, and None where the
    run cannot tell it: a ``--predeal`` places its cards in every deal instead of waiting for a shuffle that deals
    them, so the shuffles count only the ``--where`` condition among deals that already hold them (``passed``), not
    how often a deal holds them; None too where the parts do not say."""
    import json

    import pyarrow.parquet as pq

    from ..record import META_KEY

    manifest = read_manifest(out)
    if manifest.get("deals") is None:
        return {"deals": None, "acceptance": 1.0, "passed": 1.0}
    deals = shuffles = 0
    for path in part_files(out, manifest):
        info = json.loads(pq.read_metadata(path).metadata[META_KEY])
        if "shuffles" not in info:
            return {"deals": manifest["deals"], "acceptance": None, "passed": None}
        deals += info["rows"] // len(manifest["seats"])
        shuffles += info["shuffles"]
    passed = deals / shuffles if shuffles else None
    return {"deals": manifest["deals"], "acceptance": None if manifest["deals"].get("predeal") else passed,
            "passed": passed}


def _holders(out: str | Path, feature: str):
    """The rows of the seats dealt the J♥, with ``feature`` and their J♥'s fate as a string (batches)."""
    if feature not in HAND_FEATURES:
        raise ValueError(f"unknown hand feature {feature!r}; valid features: {', '.join(HAND_FEATURES)}")
    _, lf = with_hand_features(out, tuple(dict.fromkeys((feature, "quinola"))))
    return lf.filter(pl.col("quinola") == 1).with_columns(pl.col("quinola_fate").cast(pl.String))


def quinola_by_hand(out: str | Path, feature: str = "guards") -> pl.DataFrame:
    """The Quinola's fate for its holder by a feature of his dealt hand: for each value, the share of his deals in
    which the J♥ was dumped, forced, led or left in the talon (Clopper-Pearson 95% intervals; ``fate``, ``rate``,
    ``ci_low``, ``ci_high``, ``successes``, ``trials``). Holder: the seat dealt the J♥ (``quinola`` feature),
    whatever the exchange did with it. What the J♥ costs him is :func:`quinola_cost_by_hand` (one row per value,
    not per fate)."""
    holders = _holders(out, feature)
    counts = pl.concat([f.group_by(feature, "quinola_fate").agg(pl.len().alias("k")).collect() for f in holders])
    counts = counts.group_by(feature, "quinola_fate").agg(pl.col("k").sum())
    totals = counts.group_by(feature).agg(pl.col("k").sum().alias("n"))
    return rate_table(counts.join(totals, on=feature), [feature, "quinola_fate"], "k", "n").rename(
        {"quinola_fate": "fate"}).sort(feature, "fate")


def quinola_cost_by_hand(out: str | Path, feature: str = "guards", estimator: str = "pool_path") -> pl.DataFrame:
    """What the J♥ moves to (+) or from (−) its holder per deal by a feature of his dealt hand, whatever its fate:
    for each value, his mean ``quinola_net`` (``cost_mean``, ``cost_ci_low``, ``cost_ci_high``: the match as the
    unit), the deals behind it (``holders``) and ``n_needed`` (matches needed for an interval, 0 when it is
    printed). With ``estimator="pool_path"`` through the pool's expected size where the run allows it
    (:func:`pool_path_by_hand`; an ``estimator`` column says which)."""
    cost = pool_path_by_hand(out, feature, "quinola_net", holders=True) if estimator == "pool_path" else None
    if cost is None:
        cost = mean_table(_holders(out, feature), feature, "quinola_net", unit="match")
        if estimator == "pool_path":
            cost = cost.with_columns(pl.lit("plain").alias("estimator"))
    return cost.select(feature, pl.col("n_deals").alias("holders"), pl.col("mean").alias("cost_mean"),
                       pl.col("ci_low").alias("cost_ci_low"), pl.col("ci_high").alias("cost_ci_high"),
                       "n_needed", *(["estimator"] if "estimator" in cost.columns else [])).sort(feature)


def hand_tables(out: str | Path, features=HAND_FEATURES, estimator: str = "pool_path") -> dict[str, pl.DataFrame]:
    """``fish_by_<F>`` (:func:`by_hand`), ``quinola_by_<F>`` (:func:`quinola_by_hand`) and ``quinola_cost_by_<F>``
    (:func:`quinola_cost_by_hand`) for every feature F, in that order (:func:`.names.hand_table_names`): the tables
    ``hands`` prints and draws, and ``analyze --hand`` adds."""
    made = {"fish_by": lambda o, f: by_hand(o, f, estimator), "quinola_by": quinola_by_hand,
            "quinola_cost_by": lambda o, f: quinola_cost_by_hand(o, f, estimator)}
    return {f"{kind}_{f}": made[kind](out, f) for f in features for kind in HAND_TABLE_KINDS}
