"""The three headline questions against a direct computation in pandas and numpy on the collected rows:
expected fish, the Quinola's risk and the reversis rates, each in a different way from the polars code."""

import numpy as np
import pandas as pd
import pytest

from reversis_sim.analysis import fish_by, fish_by_reason, load_payments, load_run, quinola_risk, reversis_rates, stats
from reversis_sim.analysis.tables import kind_of
from reversis_sim.game import QUINOLA_PAID, QUINOLA_RECEIVED
from reversis_sim.record import RunSpec
from reversis_sim.rules import PARLETT
from reversis_sim.simulate import run


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    out = tmp_path_factory.mktemp("headline") / "run"
    spec = RunSpec.for_deals(PARLETT, ["random", "avoid", "lowest", "avoid"], deals=30 * 12, seed=8, chunk_matches=7)
    run(spec, out, engine="reference")
    _, lf = load_run(out)
    df = lf.collect().to_pandas()
    df["policy"] = df["policy"].astype(str)
    df["quinola_fate"] = df["quinola_fate"].astype(str)
    pay = load_payments(out).collect().to_pandas()
    pay["reason"] = pay["reason"].astype(str)
    pay["policy"] = pay["policy"].astype(str)
    # what the J♥ moved to or from each seat, from the payments table (not from the seat rows' quinola_net)
    q = pay[(pay["reason"].isin(QUINOLA_RECEIVED) & (pay["amount"] > 0))
            | (pay["reason"].isin(QUINOLA_PAID) & (pay["amount"] < 0))]
    net = q.groupby(["match", "deal", "seat"])["amount"].sum().rename("net_from_payments")
    df = df.join(net, on=["match", "deal", "seat"]).fillna({"net_from_payments": 0})
    return lf, df, pay


@pytest.fixture(scope="module")
def seat_rows(rows):
    return rows[:2]


def clustered(values: pd.Series, matches: pd.Series) -> stats.MeanCI:
    return stats.mean_ci(values.to_numpy(dtype=float), clusters=matches.to_numpy())


@pytest.mark.parametrize("by", ["seat", "position", "policy"])
def test_expected_fish_per_deal(seat_rows, by):
    lf, df = seat_rows
    table = fish_by(lf, by).to_pandas().set_index(by)
    for key, group in df.groupby(by):
        direct = stats.mean_ci(group["fish"].to_numpy(dtype=float), clusters=group["match"].to_numpy(),
                               kind=kind_of("fish", [by]))  # a seat's or a position's fish, else the strictest
        got = table.loc[key]
        assert got["mean"] == pytest.approx(group["fish"].mean(), rel=1e-12)
        bounds = (direct.ci_low, direct.ci_high) if direct.reliable else (np.nan, np.nan)  # too few matches: none
        assert (got["se"], got["ci_low"], got["ci_high"]) == pytest.approx((direct.se, *bounds), rel=1e-9, nan_ok=True)
        assert got["n_needed"] == direct.n_needed
        assert got["n_units"] == group["match"].nunique() and got["n_deals"] == len(group)


def test_quinola_risk(rows):
    lf, df, _ = rows
    q = {k: v.to_pandas() for k, v in quinola_risk(lf).items()}
    deals = df[df["seat"] == 0]
    share = deals["quinola_fate"].value_counts(normalize=True)
    assert q["fate"].set_index("quinola_fate")["rate"].to_dict() == pytest.approx(share.to_dict(), rel=1e-12)

    holder = df[df["seat"] == df["quinola_holder"]].copy()
    for key, table in (("hearts_at_lead", q["fate_by_hearts"]), ("position", q["fate_by_position"])):
        direct = pd.crosstab(holder[key], holder["quinola_fate"], normalize="index")
        for r in table.itertuples():
            assert r.rate == pytest.approx(direct.loc[getattr(r, key), r.quinola_fate], rel=1e-12)

    assert (holder["quinola_net"] == holder["net_from_payments"]).all()
    holder["net"] = holder["net_from_payments"]
    cost = q["cost"].set_index("fate")
    for fate, group in [("all", holder), *holder.groupby("quinola_fate")]:
        direct = clustered(group["net"], group["match"])
        assert (cost.loc[fate, "mean"], cost.loc[fate, "se"]) == pytest.approx((direct.mean, direct.se), rel=1e-9)
    direct = clustered(holder["fish"], holder["match"])
    assert (q["holder_fish"]["mean"][0], q["holder_fish"]["se"][0]) == pytest.approx((direct.mean, direct.se),
                                                                                     rel=1e-9)

    others = df[(df["quinola_holder"] >= 0) & (df["seat"] != df["quinola_holder"])]
    paid = (-others["net_from_payments"]).clip(lower=0)
    pays = q["others_pay"].set_index("seat")
    for seat in range(4):
        mine = others["seat"] == seat
        assert pays.loc[seat, "rate"] == pytest.approx((paid[mine] > 0).mean(), rel=1e-12)
        assert pays.loc[seat, "mean_paid"] == pytest.approx(paid[mine].mean(), rel=1e-12)
    assert (paid > 0).any(), "the fixture has payments for someone else's Quinola"


def test_reversis_rates(seat_rows):
    lf, df = seat_rows
    table = reversis_rates(lf, "policy").to_pandas().set_index(["policy", "event"])
    for policy, group in df.groupby("policy"):
        committed = group["reversis_seat"] == group["seat"]
        eligible = group["espagnolette_eligible"] == group["seat"]
        declared = group["espagnolette_seat"] == group["seat"]
        expected = {
            "reversis_committed": (committed.sum(), len(group)),
            "reversis_made": ((committed & group["reversis_made"]).sum(), committed.sum()),
            "espagnolette_eligible": (eligible.sum(), len(group)),
            "espagnolette_declared": (declared.sum(), eligible.sum()),
            "espagnolette_made": ((declared & group["espagnolette_made"]).sum(), declared.sum()),
        }
        for event, (k, n) in expected.items():
            got = table.loc[(policy, event)]
            assert (got["successes"], got["trials"]) == (k, n), event
            low, high = stats.clopper_pearson_interval(np.array([k]), np.array([n]))
            if n:
                assert (got["ci_low"], got["ci_high"]) == pytest.approx((low[0], high[0]))


@pytest.mark.parametrize("by", ["policy", "seat"])
def test_fish_by_reason_adds_up_to_the_fish_and_counts_silent_matches_as_zeros(rows, by):
    lf, df, pay = rows
    table = fish_by_reason(lf, pay_frame(pay), by).to_pandas()
    fish = fish_by(lf, by).to_pandas().set_index(by)
    totals = table.groupby(by)["mean"].sum()
    for key in fish.index:
        assert totals[key] == pytest.approx(fish.loc[key, "mean"], rel=1e-9, abs=1e-9)
    # one reason directly: per-match totals with a zero for every match of the group without a payment row
    for key, group in df.groupby(by):
        ante = pay[(pay["reason"] == "ante") & (pay[by] == key)].groupby("match")["amount"].sum()
        per_match = ante.reindex(sorted(group["match"].unique()), fill_value=0)
        size = group.groupby("match").size()
        want = stats.ratio_mean_ci(per_match.to_numpy(float), size.to_numpy(float))
        got = table[(table[by] == key) & (table["reason"] == "ante")].iloc[0]
        assert (got["mean"], got["se"]) == pytest.approx((want.mean, want.se), rel=1e-9)
        assert got["n_units"] == group["match"].nunique()


def pay_frame(pay):
    import polars as pl

    return pl.from_pandas(pay).lazy()
