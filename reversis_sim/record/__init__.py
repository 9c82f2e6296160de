"""The run folder: one schema, Arrow tables, crash-safe Parquet part files and a manifest: a killed run resumes with
only its missing chunks and equals an uninterrupted one.

A run folder holds ``manifest.json`` (the run description, versions, and the completed chunks) and, per chunk of
matches, a seat table ``part-NNNNN.parquet`` and a payments table ``payments-NNNNN.parquet``, each carrying its own
run description, chunk, row count and match range in its footer. A file is written under a temporary name,
fsynced and renamed when complete (the payments first: a seat part marks a whole chunk), then the manifest is
rewritten the same way; one process writes a folder at a time (an OS lock). A killed run therefore leaves only whole
chunks; ``--resume`` recomputes exactly the missing chunks, and because a chunk is a pure function of (run
description, chunk id) the result equals an uninterrupted run row for row. Readers verify every part against the
manifest before using it (:mod:`.read`).

- :mod:`.schema`: the two tables (schema version 3), seat rows and payments; :mod:`.spec`: the run description and
  its limits; :mod:`.chunks`: completed chunks as ranges; :mod:`.files`: durable writes, crash-safe appends and the
  writer's lock;
- :mod:`.read`: the verified readers; :mod:`.folder`: writing, resuming, repairing; :mod:`.upgrade`: a version-1
  folder rewritten in version 2.

``docs/schema.md`` documents every column.
"""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".chunks": ("ChunkSet",),
    ".files": ("LOCK", "TORN", "FolderLock", "RunError", "append_line", "json_ready", "strict_json", "write_durably",
               "write_json_atomic"),
    ".folder": ("RunFolder", "git_commit", "new_manifest", "repair_manifest", "versions"),
    ".read": ("FORMAT", "MANIFEST", "completed_chunks", "identity_of", "part_files", "part_path", "payments_path",
              "read_manifest", "verify_part"),
    ".tables": ("OWNER_KEY", "fingerprint", "owned_problem", "write_owned"),
    ".schema": ("META_KEY", "PAYMENTS_SCHEMA", "SCHEMA", "SCHEMA_VERSION", "WRITE_OPTIONS", "payment_table",
                "seat_table"),
    ".spec": ("MAX_CHUNK_DEALS", "MAX_DEALS", "MAX_MATCH_DEALS", "MAX_MATCHES", "MIN_MATCHES", "RunSpec",
              "check_run_size"),
})
