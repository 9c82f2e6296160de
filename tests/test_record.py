"""The run folder: schema, atomic parts, manifest, resume, refusal of bad folders."""

import json

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reversis_sim import cards as C
from reversis_sim import columns, reference
from reversis_sim.engines import ENGINES, get_engine
from reversis_sim.policies import parse_seats
from reversis_sim.record import (
    SCHEMA,
    RunError,
    RunSpec,
    completed_chunks,
    part_files,
    part_path,
    payment_table,
    read_manifest,
    seat_table,
)
from reversis_sim.rules import PARLETT
from reversis_sim.simulate import run


def spec(**kw):
    base = dict(rules="parlett", rules_params=PARLETT.to_params(), seats=["random"] * 4, seed=5, n_matches=5,
                match_deals=12, chunk_matches=2)
    base.update(kw)
    return RunSpec(**base)


def read_rows(out):
    return pl.read_parquet(part_files(out)).sort(["match", "deal", "seat"])


def test_seat_table_holds_every_deal_and_seat_and_conserves_chips():
    seats = parse_seats(["random"])
    recs = list(reference.play_match(PARLETT, seats, seed=1, match=0))
    chunk = columns.from_records(recs, PARLETT)
    table = seat_table(chunk, [str(s) for s in seats])
    assert table.schema.equals(SCHEMA) and table.num_rows == 12 * 4
    df = pl.from_arrow(table)
    by_deal = df.group_by("deal").agg(pl.col("fish").sum(), pl.col("pool_after").first(),
                                      pl.col("pool_before").first())
    assert (by_deal["fish"] + by_deal["pool_after"] - by_deal["pool_before"]).to_list() == [0] * 12
    # the payments add up to the fish, seat by seat and deal by deal; the ledger's own movements, summed
    pay = pl.from_arrow(payment_table(chunk, [str(s) for s in seats]))
    assert pay.schema["reason"] == pl.Categorical and (pay["amount"] != 0).all()
    sums = pay.group_by("deal", "seat").agg(pl.col("amount").sum())
    assert df.join(sums, on=["deal", "seat"], how="left").fill_null(0).select(
        (pl.col("amount") == pl.col("fish")).all()).item()
    ledger = {}
    for rec in recs:
        for p in rec["payments"]:
            for party, sign in ((p["from"], -1), (p["to"], 1)):
                if party != "pool":
                    key = (rec["deal"], party, p["reason"])
                    ledger[key] = ledger.get(key, 0) + sign * p["amount"]
    got = pay.group_by("deal", "seat", pl.col("reason").cast(pl.String)).agg(pl.col("amount").sum())
    assert {(d, s, r): a for d, s, r, a in got.iter_rows() if a} == {k: v for k, v in ledger.items() if v}
    first = recs[0]["result"]["fish"]
    assert df.filter(pl.col("deal") == 0).sort("seat")["fish"].to_list() == first


def test_run_then_resume_after_losing_a_part_gives_identical_rows(tmp_path):
    out = tmp_path / "run"
    run(spec(), out, engine="reference")
    full = read_rows(out)
    assert full.height == 5 * 12 * 4
    assert list(completed_chunks(read_manifest(out))) == [0, 1, 2]
    # lose one part, truncate another, leave a stray temporary file
    part_path(out, 1).unlink()
    data = part_path(out, 2).read_bytes()
    part_path(out, 2).write_bytes(data[: len(data) // 2])
    (out / "part-00000.parquet.tmp").write_bytes(b"half a file")
    report = run(spec(), out, engine="reference", resume=True)
    assert report.n_chunks_run == 2
    assert read_rows(out).equals(full)
    assert not list(out.glob("*.tmp"))


def test_chunking_does_not_change_the_rows(tmp_path):
    run(spec(chunk_matches=2), tmp_path / "a", engine="reference")
    run(spec(chunk_matches=5), tmp_path / "b", engine="reference")
    assert read_rows(tmp_path / "a").equals(read_rows(tmp_path / "b"))


def test_a_run_reports_to_its_watch_one_object(tmp_path):
    """The run keeps its stage in its watch and tells it the folder opened, each chunk's deals and the end, the
    folder's lock still held then: what the command line's bar and summary are built on (cli/shown_run.py)."""
    from reversis_sim.simulate import RunWatch

    class Seen(RunWatch):
        def __init__(self):
            self.calls = []

        def opened(self):
            self.calls.append(("opened", self.stage))

        def added(self, n_deals):
            self.calls.append(("added", self.stage, n_deals, self.n_deals))

        def finished(self, report):
            self.calls.append(("finished", self.stage, report.n_deals_run))

    seen = Seen()
    report = run(spec(chunk_matches=2), tmp_path / "a", engine="reference", threads=1, watch=seen)
    assert seen.calls[0] == ("opened", "running") and seen.calls[-1] == ("finished", "done", 60)
    added = seen.calls[1:-1]
    assert sorted(c[2] for c in added) == [12, 24, 24] and added[-1][3] == 60 == report.n_deals_run
    assert all(c[1] == "running" for c in added) and seen.stage == "done"
    assert RunWatch().stage == "before"


def test_existing_folder_is_never_overwritten_without_force(tmp_path):
    out = tmp_path / "run"
    run(spec(n_matches=1), out, engine="reference")
    before = part_path(out, 0).read_bytes()
    with pytest.raises(RunError, match="already exists .* --resume .* --force"):
        run(spec(n_matches=1), out, engine="reference")
    assert part_path(out, 0).read_bytes() == before
    run(spec(n_matches=1, seed=6), out, engine="reference", force=True)
    assert read_manifest(out)["seed"] == 6
    other = tmp_path / "notes"
    other.mkdir()
    (other / "x.txt").write_text("mine")
    with pytest.raises(RunError, match="not a run folder"):
        run(spec(n_matches=1), other, engine="reference", force=True)
    assert (other / "x.txt").read_text() == "mine"


def test_resume_with_other_settings_is_refused(tmp_path):
    out = tmp_path / "run"
    run(spec(n_matches=1), out, engine="reference")
    with pytest.raises(RunError, match="settings differ .*seed"):
        run(spec(n_matches=1, seed=99), out, engine="reference", resume=True)


def test_bad_folders_get_clear_errors(tmp_path):
    with pytest.raises(RunError, match="not a folder"):
        read_manifest(tmp_path / "missing")
    with pytest.raises(RunError, match="no manifest.json"):
        read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "reversis-run/1", "schema_version": 99}))
    with pytest.raises(RunError, match="newer than this"):
        read_manifest(tmp_path)
    out = tmp_path / "run"
    run(spec(n_matches=1), out, engine="reference")
    pq.write_table(pa.table({"x": [1, 2]}), part_path(out, 0))
    with pytest.raises(RunError, match="foreign Parquet"):
        part_files(out)
    part_path(out, 0).write_bytes(b"PAR1 garbage")
    with pytest.raises(RunError, match="not a readable Parquet"):
        part_files(out)


@pytest.mark.parametrize("engine", ENGINES)
def test_columns_of_either_engine_are_a_pure_function_of_the_chunk(engine):
    seats = parse_seats(["random"])
    play = get_engine(engine)
    a = play.columns(PARLETT, seats, seed=3, first_match=4, n_matches=2, match_deals=12)
    b = play.columns(PARLETT, seats, seed=3, first_match=5, n_matches=1, match_deals=12)
    assert np.array_equal(a["fish"][12:], b["fish"]) and np.array_equal(a["match"][12:], b["match"])
    assert not np.array_equal(a["fish"][:12], b["fish"])


def test_every_preset_runs_into_a_folder_with_the_numba_engine(tmp_path):
    """Simulate works for every preset, parlett_simple's shorter matches and modern_five's five seats
    included; a part with a missing match is recomputed on resume."""
    from reversis_sim.analysis import load_run
    from reversis_sim.rules import PRESETS

    for name, rules in PRESETS.items():
        out = tmp_path / name
        spec = RunSpec.for_deals(rules, ["avoid"], deals=rules.match_deals * 6, seed=3, chunk_matches=4)
        run(spec, out)
        _, lf = load_run(out)
        df = lf.collect()
        assert df["seat"].n_unique() == rules.n_seats, name
        assert df["match"].n_unique() == 6, name
        per_deal = df.group_by("match", "deal").agg(pl.col("fish").sum(), pl.col("pool_after").first(),
                                                     pl.col("pool_before").first())
        assert (per_deal["fish"] + per_deal["pool_after"] - per_deal["pool_before"]).to_list() == \
            [0] * per_deal.height, name
        if rules.scoring == "simple":
            assert df.height <= 6 * rules.match_deals * rules.n_seats
    # a truncated part of the simple preset is found and recomputed
    out = tmp_path / "parlett_simple"
    spec = RunSpec.for_deals(PRESETS["parlett_simple"], ["avoid"], deals=72, seed=3, chunk_matches=4)
    before = read_rows(out)
    part_path(out, 1).write_bytes(part_path(out, 1).read_bytes()[:100])
    assert run(spec, out, resume=True).n_chunks_run == 1
    assert read_rows(out).equals(before)


def test_a_run_plays_the_rules_its_spec_records_not_the_preset_of_that_name(tmp_path):
    """A past bug: a modified rule set wrote its parameters into the manifest but played the preset's."""
    from reversis_sim.analysis import load_run

    rules = PARLETT.replace(party_bonus=40)
    seats = parse_seats(["random"])
    spec = RunSpec.for_deals(rules, seats, deals=240, seed=3, chunk_matches=7)
    run(spec, tmp_path / "r")
    manifest, lf = load_run(tmp_path / "r")
    assert manifest["rules_params"]["party_bonus"] == 40
    rows = lf.filter(pl.col("seat") == 0).sort("match", "deal").collect()
    want = get_engine("reference").columns(rules, seats, seed=3, first_match=0, n_matches=20, match_deals=12)
    assert rows["party_value"].min() >= 40
    assert np.array_equal(rows["party_value"].to_numpy(), want["party_value"])
    assert np.array_equal(rows["fish"].to_numpy(), want["fish"][:, 0])


def test_a_version_1_folder_is_refused_with_the_upgrade_and_upgraded_row_for_row(tmp_path):
    """A folder written before the lean table: every reader names 'reversis-sim upgrade'; the upgrade rewrites it
    in place so that both tables equal a current run of the same description (the hands dealt again); a second
    upgrade has nothing to do (the command says so and succeeds; the library refuses it)."""
    from click.testing import CliRunner
    from v1folder import write_v1_folder

    from reversis_sim.cli import main
    from reversis_sim.record.upgrade import upgrade

    s = spec(seats=["random", "avoid", "lowest", "cautious"], n_matches=5, chunk_matches=2)
    old = tmp_path / "old"
    write_v1_folder(old, s, PARLETT)
    with pytest.raises(RunError, match=f"schema version 1.*'reversis-sim upgrade {old}'"):
        part_files(old)
    result = CliRunner().invoke(main, ["analyze", str(old)])
    assert result.exit_code == 1 and "reversis-sim upgrade" in result.output
    result = CliRunner().invoke(main, ["upgrade", str(old)])
    assert result.exit_code == 0, result.output
    assert "3 chunks rewritten" in result.output
    new = tmp_path / "new"
    run(s, new, engine="reference")
    assert read_manifest(old)["schema_version"] == 3
    for chunk in range(3):
        for name in (f"part-{chunk:05d}.parquet", f"payments-{chunk:05d}.parquet"):
            a, b = pq.read_table(old / name), pq.read_table(new / name)
            assert a.schema.equals(b.schema) and a.equals(b), name
    again = CliRunner().invoke(main, ["upgrade", str(old)])  # nothing to do: said, and not a failure
    assert again.exit_code == 0 and "already in schema version 3: nothing to upgrade" in again.output
    with pytest.raises(RunError, match="already in schema version 3"):  # the library refuses it
        upgrade(old)


def test_a_version_2_folder_gets_the_dealt_hands_and_equals_a_current_run(tmp_path):
    """Version 2 had no ``hand`` column: written here from a current run by dropping it (the parts' footers and the
    manifest naming version 2), refused by the readers, upgraded in place (a constrained run, so the hands are dealt
    again under the constraint), and then part for part the current run."""
    import json

    from click.testing import CliRunner

    from reversis_sim.cli import main
    from reversis_sim.constraints import deals_of
    from reversis_sim.record import META_KEY

    deals = deals_of(PARLETT, ["0=JH"], "hearts(0) >= 3")
    s = RunSpec.for_deals(PARLETT, ["random", "avoid", "lowest", "cautious"], deals=5 * 12, seed=6, chunk_matches=2,
                          constraints=deals)
    new, old = tmp_path / "new", tmp_path / "old"
    run(s, new)
    old.mkdir()
    for path in sorted(new.glob("*.parquet")):
        t = pq.read_table(path)
        meta = json.loads(t.schema.metadata[META_KEY])
        meta["run"]["schema_version"] = 2
        if path.name.startswith("part-"):
            t = t.drop_columns(["hand"])
        pq.write_table(t.replace_schema_metadata({META_KEY: json.dumps(meta)}), old / path.name)
    manifest = json.loads((new / "manifest.json").read_text())
    manifest["schema_version"] = 2
    (old / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RunError, match="schema version 2.*reversis-sim upgrade"):
        part_files(old)
    result = CliRunner().invoke(main, ["upgrade", str(old)])
    assert result.exit_code == 0 and "3 chunks rewritten" in result.output, result.output
    for path in sorted(new.glob("*.parquet")):
        a, b = pq.read_table(old / path.name), pq.read_table(path)
        assert a.schema.equals(b.schema) and a.equals(b), path.name
    hands = pq.read_table(new / "part-00000.parquet", columns=["seat", "hand"]).to_pandas()
    holder = hands[hands.seat == 0]["hand"].to_numpy(dtype=np.uint64)
    assert ((holder >> np.uint64(C.QUINOLA)) & np.uint64(1)).all()  # the predealt J♥ is in every dealt hand


def test_a_folder_from_before_a_default_changed_is_read_but_not_continued(tmp_path):
    # `search` took other defaults before 0.2.0 (policies.CHANGED_DEFAULTS): a folder of that time holds rows of
    # another player than today's `search`, so a resume must refuse it instead of adding rows of a second player.
    out = tmp_path / "run"
    run(spec(n_matches=1), out, engine="reference")
    manifest = json.loads((out / "manifest.json").read_text())
    manifest.update(seats=["search"] * 4, package_version="0.1.0")
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RunError, match=r"cannot resume .*reversis_sim 0\.1\.0, when `search` took worlds=16"):
        run(spec(n_matches=1, seats=["search"] * 4), out, engine="reference", resume=True)
    assert read_manifest(out)["seats"] == ["search"] * 4  # read as ever
    manifest.update(seats=["random"] * 4)  # a folder without the family is continued as before
    (out / "manifest.json").write_text(json.dumps(manifest))
    run(spec(n_matches=1), out, engine="reference", resume=True)
    assert read_rows(out).height == 12 * 4


def test_a_shipped_folder_of_tables_says_it_has_no_deals_instead_of_asking_for_an_upgrade(tmp_path):
    """The folders under results/ keep a run's summary and tables, not its parts (too large for the repository):
    analyze and upgrade say so, instead of sending a reader from upgrade to a resume of a run they cannot have."""
    import shutil
    from pathlib import Path

    from click.testing import CliRunner

    from reversis_sim.cli import main

    shipped = Path(__file__).resolve().parents[1] / "results" / "parlett_avoid"
    assert (shipped / "manifest.json").exists() and not list(shipped.glob("part-*.parquet"))
    copy = tmp_path / "parlett_avoid"
    shutil.copytree(shipped, copy)
    for command in ("analyze", "upgrade"):
        r = CliRunner().invoke(main, [command, str(copy)])
        assert r.exit_code == 1 and "keeps no part files" in r.output and "resume" not in r.output, r.output
