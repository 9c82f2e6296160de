"""A player reviewed over many deals (``reversis-sim review --policy SPEC --deals N --out DIR``): the card
decisions of the player in seat 0 (its field in the other seats; the dealer rotates, so seat 0 plays every
position), chunk by chunk into a review folder that a crash or Ctrl-C leaves resumable, then the error rate and its
breakdowns (:mod:`.summary`).

The folder: ``manifest.json`` (format :data:`REVIEW_FORMAT`, the settings, the chunks done), and per chunk
``decisions-KKKKK.parquet`` (one row per reviewed decision) and ``deals-KKKKK.parquet`` (one row per deal: the
player's fish and the luck of its hand), each naming in its footer the review and the chunk it belongs to and its
rows (:func:`reversis_sim.record.write_owned`). A chunk is written durably, then the manifest names it; a chunk
whose file is missing, truncated or another review's is reviewed again on ``--resume``, as a run's part is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from .. import __version__
from ..policies import changed_meaning, parse_seats, parse_spec
from ..record import LOCK, FolderLock, RunError, fingerprint, owned_problem, write_json_atomic, write_owned
from ..rules import Rules
from .settings import ReviewSettings

REVIEW_FORMAT = "reversis-review/2"
"""``format`` of a review folder's manifest: 2 reviews the exchange and the declaration beside the cards."""
EARLIER_FORMATS = ("reversis-review/1",)
"""Review folders of an earlier version (1: the card decisions only): replaced with ``--force``, never resumed or
summarised with the rows of another version."""


@dataclass(frozen=True)
class PlayerReview:
    """What a review of a player over many deals is: the rules, the player and its field, the matches and their
    first, the seed, the review's settings (seat 0 reviewed), the matches per chunk."""

    rules: Rules
    policy: str
    field: str
    n_matches: int
    seed: int
    settings: ReviewSettings
    chunk_matches: int = 128

    def identity(self) -> dict:
        """What a resumed review must match."""
        return {"rules_params": self.rules.to_params(), "rules": self.rules.name,
                "policy": str(parse_spec(self.policy)), "field": str(parse_spec(self.field)),
                "n_matches": self.n_matches, "seed": self.seed, "chunk_matches": self.chunk_matches,
                "worlds": self.settings.worlds, "rollout": self.settings.rollout.text,
                "luck_samples": self.settings.luck_samples}

    @property
    def table(self) -> list:
        """The seats' policies: the player in seat 0, its field in the others."""
        return parse_seats([self.policy] + [self.field] * (self.rules.n_seats - 1), rules=self.rules)

    @property
    def n_chunks(self) -> int:
        return -(-self.n_matches // self.chunk_matches)

    def chunk(self, k: int) -> tuple[int, int]:
        """(first match, matches) of chunk ``k``."""
        first = k * self.chunk_matches
        return first, min(self.chunk_matches, self.n_matches - first)


def _manifest(out: Path) -> dict | None:
    try:
        m = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return m if isinstance(m, dict) else None


def check_folder(out: Path, job: PlayerReview, *, resume: bool, force: bool) -> list[int]:
    """The chunks already done in ``out`` (none for a new folder), writing nothing; a :class:`RunError` for a
    folder the review may not write: a file, a non-empty folder that is not a review folder, a review without
    ``resume`` or ``force``, a resume of another review or of nothing."""
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file, not a folder; choose another --out")
    m = _manifest(out) if out.exists() else None
    non_empty = out.exists() and any(p.name != LOCK for p in out.iterdir())
    if m is not None and m.get("format") in EARLIER_FORMATS and not force:
        raise RunError(_earlier(out, m))
    if non_empty and (m is None or m.get("format") not in (REVIEW_FORMAT, *EARLIER_FORMATS)):
        raise RunError(f"{out} is not a review folder (no manifest.json of format {REVIEW_FORMAT}); refusing to "
                       f"write into it: choose another --out")
    if resume:
        if m is None or m.get("format") != REVIEW_FORMAT:
            raise RunError(f"there is no review to resume in {out}; run without --resume to start one")
        ident = m.get("identity") or {}
        stale = changed_meaning([ident.get(k, "") for k in ("policy", "field", "rollout")], m.get("package_version"))
        if stale:
            raise RunError(f"cannot resume the review in {out}: {stale}")
        if ident != json.loads(json.dumps(job.identity())):
            raise RunError(f"{out} holds a review with other settings; --resume continues only the same review "
                           f"(same rules, player, field, deals, seed, worlds, rollout, luck samples)")
        bad = damaged_chunks(out, job)
        return [k for k in sorted(int(k) for k in m.get("chunks_done", [])) if k not in bad]  # bad: reviewed again
    if non_empty and not force:
        raise RunError(f"{out} already holds a review; add --resume to continue it or --force to replace it")
    return []


TABLES = ("decisions", "deals")
"""The tables of a review chunk, each a Parquet file per chunk (:func:`chunk_file`)."""


def chunk_file(table: str, k: int) -> str:
    """The name of table ``table`` (one of :data:`TABLES`) of chunk ``k`` in a review folder."""
    return f"{table}-{k:05d}.parquet"


def _owner(job_or_identity, k: int, table: str) -> dict:
    """Whose table ``table`` of chunk ``k`` is: this review's (a fingerprint of its identity)."""
    identity = job_or_identity.identity() if isinstance(job_or_identity, PlayerReview) else job_or_identity
    return {"folder": "review", "review": fingerprint(json.loads(json.dumps(identity))), "chunk": k, "table": table}


def damaged(out: Path, job_or_identity, k: int) -> list[str]:
    """What is wrong with the files of done chunk ``k`` in ``out`` (``file: problem``; none when the chunk is whole):
    missing, truncated, another review's or another chunk's (:func:`reversis_sim.record.owned_problem`). A file
    written before tables named their owner is judged by its matches."""
    identity = job_or_identity.identity() if isinstance(job_or_identity, PlayerReview) else job_or_identity
    try:
        first, size = k * int(identity["chunk_matches"]), int(identity["chunk_matches"])
        first_last = (first, min(first + size, int(identity["n_matches"])) - 1)
    except (KeyError, TypeError, ValueError):
        first_last = None
    problems = []
    for table in TABLES:
        name = chunk_file(table, k)
        why = owned_problem(out / name, _owner(job_or_identity, k, table),
                            unowned=lambda meta, table=table: _unowned(meta, table, first_last))
        if why:
            problems.append(f"{name}: {why}")
    return problems


def damaged_chunks(out: Path, job: PlayerReview) -> dict[int, list[str]]:
    """The chunks the manifest of ``out`` lists as done whose files are damaged (:func:`damaged`), with what is
    wrong: a ``--resume`` reviews them again."""
    m = _manifest(out) or {}
    found = {int(k): damaged(out, job, int(k)) for k in m.get("chunks_done", [])}
    return {k: v for k, v in found.items() if v}


def _unowned(meta, table: str, first_last: tuple[int, int] | None) -> str | None:
    """A readable chunk file of an earlier version, which names no owner: whole if its matches are the chunk's."""
    if first_last is None:
        return None
    try:
        col = meta.schema.names.index("match")
        stats = [meta.row_group(g).column(col).statistics for g in range(meta.num_row_groups)]
        seen = (min(s.min for s in stats), max(s.max for s in stats)) if stats else None
    except (ValueError, AttributeError, TypeError):
        return "not a table of a review chunk"
    if seen is None or not first_last[0] <= seen[0] <= seen[1] <= first_last[1] or \
            (table == "deals" and seen != first_last):
        return "holds other matches than its chunk's (a copied file)"
    return None


def _earlier(out: Path, m: dict) -> str:
    return (f"{out} holds a review of format {m['format']} (an earlier version, which reviewed the card decisions "
            f"only); review again with --force to replace it")


def open_folder(out: Path, job: PlayerReview, *, resume: bool, force: bool) -> list[int]:
    """The chunks already done in ``out``, after :func:`check_folder`; a new review (or one ``force`` replaces)
    starts with its manifest and no chunk."""
    done = check_folder(out, job, resume=resume, force=force)
    if resume:
        return done
    if out.exists() and any(p.name != LOCK for p in out.iterdir()):
        for p in list(out.glob("*.parquet")) + list(out.glob("*.tmp")):
            p.unlink()
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out / "manifest.json", _manifest_data(job, []))
    return []


def _manifest_data(job: PlayerReview, done: list[int]) -> dict:
    return {"format": REVIEW_FORMAT, "identity": job.identity(), "names": {"policy": job.policy, "field": job.field,
                                                                    "rollout": job.settings.as_dict()["rollout_name"]},
            "chunks_done": sorted(done),
            "n_chunks": job.n_chunks, "package_version": __version__}


def review_chunk(job: PlayerReview, k: int, threads: int | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The decisions and deals of chunk ``k`` (numba)."""
    from .reviewing import review_matches

    first, n = job.chunk(k)
    out = review_matches(job.rules, job.table, seed=job.seed, first_match=first, n_matches=n, reviewed=[0],
                         worlds=job.settings.worlds, rollout=job.settings.rollout,
                         luck_samples=job.settings.luck_samples, threads=threads)
    d = {key: np.asarray(v) for key, v in out.decisions.items()}
    decisions = pl.DataFrame(d).with_columns(pl.col("trick") + 1)  # 1-based, as the deal record numbers tricks
    deals = pl.DataFrame({"match": out.deals["match"], "deal": out.deals["deal"],
                          "pool_before": out.deals["pool_before"], "fish": out.deals["fish"][:, 0],
                          "luck": out.deals["luck"][:, 0]})
    return decisions, deals


def warm_review(job: PlayerReview) -> None:
    """Load (or compile) the review kernel of ``job``'s table in this process: one deal of one match."""
    from .reviewing import review_matches

    review_matches(job.rules, job.table, seed=job.seed, first_match=0, n_matches=1, reviewed=[0], worlds=1,
                   rollout=job.settings.rollout, match_deals=1, luck_samples=min(1, job.settings.luck_samples))


def run_review(job: PlayerReview, out: Path, *, resume: bool = False, force: bool = False,
               threads: int | None = None, progress: Callable[[int, int], None] | None = None,
               cluster=None) -> None:
    """Review every chunk not yet done into ``out``, holding the folder's lock; ``progress(done, total)`` after
    each chunk. With ``cluster`` (:class:`reversis_sim.cluster.Cluster`) its workers review the chunks and this
    process writes them as they come (the same rows as a local review: a chunk is a pure function of the job).
    An interruption keeps every chunk written; ``resume`` continues."""
    done = open_folder(out, job, resume=resume, force=force)
    with FolderLock(out):
        if progress:
            progress(len(done), job.n_chunks)
        todo = [k for k in range(job.n_chunks) if k not in done]
        if cluster is None:
            results = ((k, review_chunk(job, k, threads)) for k in todo)
        else:
            cluster.prepare_with(("review", job.rules.n_seats), warm_review, job)
            results = cluster.map_chunks(review_chunk, [job], todo)
        for k, (decisions, deals) in results:
            for name, frame in zip(TABLES, (decisions, deals)):
                write_owned(out / chunk_file(name, k), frame, _owner(job, k, name))
            done.append(k)
            write_json_atomic(out / "manifest.json", _manifest_data(job, done))
            if progress:
                progress(len(done), job.n_chunks)


def read_review(out: Path) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    """(manifest, decisions, deals) of a review folder, its chunks done; a folder of another kind is refused."""
    m = _manifest(out)
    if m is not None and m.get("format") in EARLIER_FORMATS:
        raise RunError(_earlier(out, m))
    if m is None or m.get("format") != REVIEW_FORMAT:
        raise RunError(f"{out} is not a review folder (no manifest.json of format {REVIEW_FORMAT})")
    done = sorted(m.get("chunks_done", []))
    if not done:
        raise RunError(f"{out} holds no reviewed chunk yet; continue it with --resume")
    identity = m.get("identity") or {}
    bad = [why for k in done for why in damaged(out, identity, k)]
    if bad:
        raise RunError(f"{out} has {len(bad)} damaged or missing file(s) of its reviewed chunks ({bad[0]}"
                       f"{', first' if len(bad) > 1 else ''}): continue the review with --resume to review those "
                       f"chunks again")
    decisions, deals = (pl.concat([pl.read_parquet(out / chunk_file(t, k)) for k in done]) for t in TABLES)
    return m, decisions, deals
