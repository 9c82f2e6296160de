"""A tuning's journal: every block evaluation it has made, kept on disk as it goes, so that an interrupted tuning
resumes where it stopped and ends with exactly the result of an uninterrupted one.

A block evaluation (a candidate's mean gain over the baseline on one block of matches, :mod:`.evaluator`) is a pure
function of the evaluation's context (rules, baseline, field, seed, block size), the candidate and the block
(every draw is a function of its key, not of a stream's history), and the optimizers are seeded: a resumed tuning runs
its search again from the start, and every evaluation it already made is read from the journal instead of being
simulated, with the deals it cost, so the optimizer sees the same values in the same order, asks for the same candidates
and spends the budget the same way. Only the evaluations the interrupted run had not reached are simulated (the
confirmation on fresh deals is simulated again: it is one comparison).

The journal is ``journal.jsonl`` in the tuning's folder, one JSON object a line, each line written and flushed to
disk before the search goes on; a line torn by a crash is ignored (that evaluation is simply made again) and set
aside before the next line is appended (:func:`reversis_sim.record.append_line`), so that no evaluation joins it. The
folder's manifest records the tuning's settings from the start (``complete: false``), so that ``--resume`` refuses
other settings in one sentence.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import __version__
from ..policies import changed_meaning
from ..record import LOCK, RunError, append_line, write_json_atomic

JOURNAL = "journal.jsonl"
"""The journal's file name in a tuning folder."""


class Journal:
    """The block evaluations of a tuning (see the module docstring), read from ``path`` and appended to it."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.known: dict[tuple[str, str, int], tuple[float, int, int]] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                try:
                    e = json.loads(line)
                    self.known[(e["context"], e["spec"], int(e["block"]))] = (float(e["value"]), int(e["deals"]),
                                                                              int(e["baseline_deals"]))
                except (ValueError, KeyError, TypeError):
                    continue  # a line torn by a crash: that evaluation is made again
        self.loaded = set(self.known)
        self._read_back: set = set()
        self.damaged: list[str] = []  # a complete tuning's damaged tables, which a resume writes again

    def __len__(self) -> int:
        return len(self.known)

    @property
    def replayed(self) -> int:
        """How many of the evaluations found in the file when it was opened have been read back."""
        return len(self._read_back)

    def get(self, context: str, spec: str, block: int) -> tuple[float, int, int] | None:
        """(value, the deals of the candidate's seatings, the deals of the block's baseline seatings if this
        evaluation was the first on the block, else 0) of an evaluation already made, or None."""
        key = (context, spec, int(block))
        if key in self.loaded:
            self._read_back.add(key)
        return self.known.get(key)

    def add(self, context: str, spec: str, block: int, value: float, deals: int, baseline_deals: int) -> None:
        """Record an evaluation (as :meth:`get` returns it), durably, before the search goes on."""
        self.known[(context, spec, int(block))] = (float(value), int(deals), int(baseline_deals))
        line = json.dumps({"context": context, "spec": spec, "block": int(block), "value": float(value),
                           "deals": int(deals), "baseline_deals": int(baseline_deals)})
        append_line(self.path, line)  # a line a crash tore is set aside first, never joined


def open_journal(out: str | Path, kind: str, settings: dict, *, resume: bool, force: bool) -> Journal:
    """The journal of the tuning folder ``out`` (``kind``: tune or best-response): a new one, the folder made ready
    (refused if it holds anything else, unless ``force`` and it is a folder of the same kind), or with ``resume``
    the journal of an interrupted tuning of exactly these ``settings``, or of a complete one one of whose tables is
    truncated, missing or foreign (its ``damaged``: the tuning is made again from the journal and its tables
    written anew). :class:`RunError` in one sentence when the folder cannot be used so."""
    from ..compare.folders import COMPARE_FORMAT, check_out, folder_problems

    out = Path(out)
    manifest_path = out / "manifest.json"
    if resume:
        try:
            manifest = json.loads(manifest_path.read_text())
        except (OSError, ValueError):
            raise RunError(f"{out} holds no interrupted {kind} to resume (no readable manifest.json); run it without "
                           f"--resume") from None
        if manifest.get("format") != COMPARE_FORMAT or manifest.get("kind") != kind:
            raise RunError(f"{out} is not a {kind} folder; nothing to resume there")
        damaged = []
        if manifest.get("complete", True) and manifest.get("settings") in (None, settings):
            damaged = folder_problems(out, kind, settings, manifest) if manifest.get("settings") else []
            if not damaged:
                raise RunError(f"{out} holds a complete {kind}: nothing to resume (read its manifest.json, or give "
                               f"--force instead of --resume to run it again)")
        recorded = [v for v in (manifest.get("settings") or {}).values() if isinstance(v, str)]
        stale = changed_meaning(recorded, manifest.get("package_version"))
        if stale:
            raise RunError(f"cannot resume the {kind} in {out}: {stale}")
        if manifest.get("settings") != settings:
            theirs, mine = manifest.get("settings") or {}, settings
            differ = sorted(k for k in set(theirs) | set(mine) if theirs.get(k) != mine.get(k))
            raise RunError(f"{out} was started with other settings ({', '.join(differ)} differ): --resume continues "
                           f"exactly the interrupted command; give its settings, or --force to start again")
        journal = Journal(out / JOURNAL)
        journal.damaged = damaged
        return journal
    if not force and _interrupted(manifest_path, kind):
        raise RunError(f"{out} holds an interrupted {kind}: continue it with --resume (the same settings), or give "
                       f"--force to start again")
    check_out(out, force, kind)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        if old.name != LOCK and old.is_file():
            old.unlink()
    write_json_atomic(manifest_path, {"format": COMPARE_FORMAT, "kind": kind, "complete": False,
                                      "settings": settings, "package_version": __version__})
    return Journal(out / JOURNAL)


def _interrupted(manifest_path: Path, kind: str) -> bool:
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("kind") == kind and manifest.get("complete") is False
