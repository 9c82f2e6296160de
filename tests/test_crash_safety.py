"""Nothing lost: a writer killed in the middle of a record leaves an append-only file (a games file, a tuning's
journal) that the next append repairs or sets aside before it writes, so that every earlier record and the new one
are read back."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reversis_sim.engines import get_engine
from reversis_sim.policies import parse_seats
from reversis_sim.record import TORN, append_line
from reversis_sim.rules import PRESETS

KILLED_MID_WRITE = textwrap.dedent("""
    import os, signal
    real = os.write
    def torn(fd, data):  # the process dies after half of the record reached the file
        real(fd, data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)
    os.write = torn
""")


def _killed_while(code: str) -> None:
    """Run ``code`` in a process whose first write to a file is cut in the middle by a SIGKILL."""
    r = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE + textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == -signal.SIGKILL, r.stderr


@pytest.fixture(scope="module")
def records():
    engine = get_engine("reference")
    seats = parse_seats(["avoid"], 4)
    return [engine.deal_record(PRESETS["parlett"], seats, seed=5, match=0, deal=d) for d in range(3)]


def test_a_games_file_torn_by_a_killed_writer_loses_nothing_at_the_next_append(tmp_path, records):
    from reversis_sim.play.records import read_deal_records, read_games
    from reversis_sim.play.session import GAMES, append_record

    folder = tmp_path / "games"
    append_record(folder, records[0])
    _killed_while(f"""
        import json
        from pathlib import Path
        from reversis_sim.play.session import append_record
        append_record(Path({str(folder)!r}), json.loads({json.dumps(json.dumps(records[1]))}))
    """)
    games = folder / GAMES
    assert not games.read_text().endswith("\n")  # the killed writer's half record
    assert read_deal_records(folder) == ([records[0]], True)
    path, done = append_record(folder, records[2])
    assert (path, done) == (games, "set aside")
    assert read_deal_records(folder) == (read_games(folder), False) == ([records[0], records[2]], False)
    assert json.dumps(records[1]).startswith((folder / (GAMES + TORN)).read_text().strip())


def test_a_journal_torn_by_a_killed_writer_keeps_every_evaluation(tmp_path):
    from reversis_sim.tune import Journal

    path = tmp_path / "journal.jsonl"
    Journal(path).add("ctx", "avoid:take=2", 0, 0.5, 2400, 2400)
    _killed_while(f"""
        from reversis_sim.tune import Journal
        Journal({str(path)!r}).add("ctx", "avoid:take=4", 0, 0.25, 2400, 0)
    """)
    assert len(Journal(path)) == 1  # the torn evaluation is made again
    Journal(path).add("ctx", "avoid:take=4", 0, 0.25, 2400, 0)
    Journal(path).add("ctx", "avoid:take=6", 1, -0.5, 2400, 2400)
    again = Journal(path)
    assert again.get("ctx", "avoid:take=2", 0) == (0.5, 2400, 2400)
    assert again.get("ctx", "avoid:take=4", 0) == (0.25, 2400, 0)
    assert again.get("ctx", "avoid:take=6", 1) == (-0.5, 2400, 2400)
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_a_last_line_that_only_lost_its_newline_is_repaired_not_set_aside(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text('{"n": 1}\n{"n": 2}')
    assert append_line(path, '{"n": 3}') == "repaired"
    assert [json.loads(x)["n"] for x in path.read_text().splitlines()] == [1, 2, 3]
    assert append_line(path, '{"n": 4}') is None and not Path(str(path) + TORN).exists()


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def test_a_damaged_review_folder_is_reviewed_again_where_it_is_damaged(tmp_path):
    """A review folder whose chunk files were truncated, copied over one another or lost: read, it is one sentence
    naming the file and --resume; resumed, exactly those chunks are reviewed again and the review equals the
    undamaged one."""
    from click.testing import CliRunner

    from reversis_sim.cli import main
    from reversis_sim.record import RunError
    from reversis_sim.review.batch import PlayerReview, damaged_chunks, read_review, run_review
    from reversis_sim.review.settings import review_settings

    rules = PRESETS["parlett"]
    job = PlayerReview(rules, "random", "tuned", 6, 4, review_settings(4, parse_seats(["random", "tuned", "tuned",
                                                                                        "tuned"]), [0], 4, "tuned", 0),
                       chunk_matches=2)
    out = tmp_path / "rev"
    run_review(job, out)
    _, decisions, deals = read_review(out)
    _truncate(out / "decisions-00001.parquet")
    (out / "deals-00002.parquet").write_bytes((out / "deals-00000.parquet").read_bytes())  # another chunk's
    with pytest.raises(RunError, match=r"decisions-00001.parquet: not a readable Parquet file.*--resume"):
        read_review(out)
    assert sorted(damaged_chunks(out, job)) == [1, 2]
    redone = []
    run_review(job, out, resume=True, progress=lambda done, total: redone.append(done))
    assert redone == [1, 2, 3] and not damaged_chunks(out, job)
    _, decisions_again, deals_again = read_review(out)
    assert decisions_again.equals(decisions) and deals_again.equals(deals)

    args = ["review", "--policy", "random", "--field", "tuned", "--deals", "24", "--seed", "4", "--worlds", "4",
            "--luck-samples", "0", "--out", str(tmp_path / "one"), "--format", "json", "--no-figures"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    _truncate(tmp_path / "one" / "decisions-00000.parquet")
    again = CliRunner().invoke(main, [*args, "--resume"])
    assert again.exit_code == 0 and "Traceback" not in again.output, again.output
    assert json.loads(again.stdout)["error_rate"] == json.loads(first.stdout)["error_rate"]
    assert "decisions-00000.parquet: not a readable Parquet file" in again.stderr


FOLDERS = {
    "compare": ["compare", "--candidate", "avoid", "--baseline", "random", "--deals", "240", "--seed", "3"],
    "tournament": ["tournament", "--policy", "avoid", "--policy", "random", "--deals", "240", "--seed", "3"],
    "sweep": ["sweep", "--base", "avoid", "--param", "take=2,4", "--baseline", "avoid", "--deals", "240",
              "--seed", "3"],
    "tune": ["tune", "--base", "avoid", "--param", "take=0..8", "--budget-deals", "300000", "--eval-deals", "4800",
             "--confirm-deals", "48000", "--seed", "5"],
}


def _tables(out: Path) -> dict:
    import polars as pl

    files = json.loads((out / "manifest.json").read_text())["files"]
    return {name: pl.read_parquet(out / name) for name in files}


@pytest.mark.parametrize("kind", FOLDERS)
def test_a_damaged_comparison_or_tuning_folder_is_computed_again_on_resume(tmp_path, kind):
    """A comparison or tuning folder one of whose tables is truncated, missing or another folder's: --resume
    computes it again (the same tables as before), and refuses a whole folder (nothing to resume)."""
    from click.testing import CliRunner

    from reversis_sim.cli import main

    def run(*extra):
        return CliRunner().invoke(main, [*FOLDERS[kind], "--format", "json", *extra])

    out = tmp_path / kind
    first = run("--out", str(out))
    assert first.exit_code == 0, first.output
    before = _tables(out)
    whole = run("--out", str(out), "--resume")
    assert whole.exit_code == 1 and "nothing to resume" in whole.output, whole.output
    if kind != "tune":  # where its tables are, in the command line's words
        assert "its tables are the parquet files there" in whole.output and "force=" not in whole.output
    names = sorted(before)
    _truncate(out / names[0])
    damaged = run("--out", str(out), "--resume")
    assert damaged.exit_code == 0, damaged.output
    assert json.loads(damaged.stdout) == json.loads(first.stdout) or kind == "tune"  # tune: its timing differs
    assert {n: t.equals(before[n]) for n, t in _tables(out).items()} == {n: True for n in names}
    (out / names[-1]).unlink()
    assert run("--out", str(out), "--resume").exit_code == 0 and (out / names[-1]).is_file()
    if kind == "compare":  # another comparison's table copied in
        other = tmp_path / "other"
        assert CliRunner().invoke(main, [*FOLDERS[kind][:-1], "4", "--out", str(other)]).exit_code == 0
        (out / names[0]).write_bytes((other / names[0]).read_bytes())
        foreign = run("--out", str(out), "--resume")
        assert foreign.exit_code == 0 and _tables(out)[names[0]].equals(before[names[0]]), foreign.output
    other = run("--out", str(out), "--resume", "--seed", "9")
    assert other.exit_code == 1 and "other settings" in other.output and "Traceback" not in other.output
    if kind != "tune":  # a folder written before the settings were kept: --resume cannot tell, and says so
        manifest = json.loads((out / "manifest.json").read_text())
        del manifest["settings"]
        (out / "manifest.json").write_text(json.dumps(manifest))
        old = run("--out", str(out), "--resume")
        assert old.exit_code == 1 and "written before comparison folders kept their settings" in old.output
