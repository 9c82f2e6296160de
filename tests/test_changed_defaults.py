"""A folder written before a family's defaults changed is read as ever and never continued (`search`
changed its defaults in 0.2.0 and in 0.3.0): its rows, evaluations or reviewed decisions are of the old player,
and continuing them with today's player of the same name would mix two players without a word."""

import json

import pytest

import reversis_sim
from reversis_sim.policies import changed_meaning, parse_seats
from reversis_sim.policies.registry import CHANGED_DEFAULTS
from reversis_sim.record import RunError
from reversis_sim.review.batch import REVIEW_FORMAT, PlayerReview, check_folder
from reversis_sim.review.settings import review_settings
from reversis_sim.rules import PARLETT
from reversis_sim.tune.journal import open_journal


def test_the_sentence_names_what_the_spec_meant_and_what_to_do():
    said = changed_meaning(["tuned", "search:worlds=4"], "0.1.0")
    assert "reversis_sim 0.1.0, when `search` took worlds=16, race=0, first=4, start=0, rollout=tuned" in said
    assert "`search:worlds=4` is another player" in said and "start a new folder" in said
    assert changed_meaning(["search"], None).startswith("it was written by reversis_sim before 0.2.0")
    assert changed_meaning(["tuned", "strong", "avoid:take=0"], "0.1.0") is None  # other families are unchanged
    said = changed_meaning(["search"], "0.2.0")  # the change after the folder's version is named
    assert "reversis_sim 0.2.0, when `search` took worlds=16, start=5, rollout=strong" in said and "since 0.3.0" in said
    assert changed_meaning(["search"], "0.3.0") is None and changed_meaning(["search"], "1.0") is None
    # what this version writes, it continues
    assert all(changed_meaning([name], reversis_sim.__version__) is None for name in CHANGED_DEFAULTS)


def test_a_tuning_of_a_search_from_before_is_not_resumed(tmp_path):
    settings = {"base": "search", "baseline": "tuned", "seed": 1}
    open_journal(tmp_path, "tune", settings, resume=False, force=False)  # today's: resumed
    assert json.loads((tmp_path / "manifest.json").read_text())["package_version"] == reversis_sim.__version__
    open_journal(tmp_path, "tune", settings, resume=True, force=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["package_version"]  # as the journals before 0.2.0 were written
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RunError, match="cannot resume the tune in .*when `search` took worlds=16"):
        open_journal(tmp_path, "tune", settings, resume=True, force=False)


def test_a_review_of_a_search_from_before_is_not_resumed(tmp_path):
    settings = review_settings(4, parse_seats(["search", "tuned", "tuned", "tuned"]), [0], 4, "tuned", 1)
    job = PlayerReview(PARLETT, "search", "tuned", 6, 8, settings, chunk_matches=2)
    manifest = {"format": REVIEW_FORMAT, "identity": job.identity(), "chunks_done": [],
                "package_version": reversis_sim.__version__}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert check_folder(tmp_path, job, resume=True, force=False) == []
    manifest["package_version"] = "0.1.0"
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RunError, match="cannot resume the review in .*reversis_sim 0.1.0, when `search` took"):
        check_folder(tmp_path, job, resume=True, force=False)
