"""Fingerprint the behaviour of the command line, to show that a refactoring changed nothing a user can see.

For every preset and three tables of policies (random, a mix of heuristics, bold ones): the deal records of a
match from both engines (``replay``), the rows of a run folder from both engines (``simulate``; Parquet content
without its metadata), and the numbers of a comparison, a tournament and a sweep. Each is hashed; two snapshots
taken before and after a change must be equal.

    python scripts/behaviour_snapshot.py before.json          # with the old checkout installed
    python scripts/behaviour_snapshot.py after.json           # with the new one
    python scripts/behaviour_snapshot.py --compare before.json after.json

Rule parameters added since the old checkout appear in every record's ``rules_params``: name them in
``NEW_RULE_FIELDS`` (comma-separated) and the records are compared without them. Takes about 6 minutes.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0 if sys.argv[1:] else 2)

PRESETS = ["parlett", "parlett_penguin", "parlett_no_espagnolette", "parlett_simple", "parlett_52", "modern",
           "modern_partie", "modern_simple", "modern_five", "modern_52", "pierer", "serbian"]
SEATS = {"random": ["random"], "mixed": ["avoid", "random", "lowest", "cautious"],
         "bold": ["bold", "hunter", "avoid:take=0,reversis=6", "saver"]}


def cli(*args):
    out = subprocess.run([sys.executable, "-m", "reversis_sim", *args], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{args}: {out.stderr}")
    return out.stdout


def h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def table_hash(folder: Path) -> str:
    d = hashlib.sha256()
    for p in sorted(folder.glob("part-*.parquet")):
        t = pq.read_table(p)
        t = t.replace_schema_metadata(None)
        for name in t.column_names:
            col = t.column(name).combine_chunks()
            if hasattr(col, "dictionary_decode"):
                col = col.dictionary_decode()
            d.update(name.encode())
            d.update(json.dumps(col.to_pylist()).encode())
    return d.hexdigest()[:16]


NEW_FIELDS = [f for f in os.environ.get("NEW_RULE_FIELDS", "").split(",") if f]


def normalize(text: str) -> str:
    """Each JSON line with the rules_params fields added since the base removed (the base has none)."""
    out = []
    for line in text.splitlines():
        rec = json.loads(line)
        for f in NEW_FIELDS:
            rec["rules_params"].pop(f, None)
        out.append(json.dumps(rec))
    return "\n".join(out)


if sys.argv[1] == "--compare":
    a, b = (json.loads(Path(p).read_text()) for p in sys.argv[2:4])
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    print(f"{len(a)} fingerprints, {len(differ)} differ" + "".join(f"\n  {k}" for k in differ))
    sys.exit(1 if differ else 0)

snap = {}
raw = {}
for preset in PRESETS:
    for label, seats in SEATS.items():
        if preset == "modern_five":
            seats = (seats * 2)[:5] if len(seats) > 1 else seats
        seat_args = [a for s in seats for a in ("--seat", s)]
        for engine in ("numba", "reference"):
            text = cli("replay", "--rules", preset, "--seed", "11", "--match", "3", "--engine", engine, *seat_args)
            snap[f"replay/{preset}/{label}/{engine}"] = h(normalize(text))
        with tempfile.TemporaryDirectory() as tmp:
            for engine in ("numba", "reference"):
                deals = "2400" if engine == "numba" else "240"
                out = Path(tmp) / engine
                cli("simulate", "--rules", preset, *seat_args, "--deals", deals, "--seed", "5", "--out", str(out),
                    "--chunk-matches", "7", "--engine", engine, "--no-figures", "--quiet", "--format", "json")
                snap[f"rows/{preset}/{label}/{engine}"] = table_hash(out)
        print(preset, label, file=sys.stderr)
for args in (["compare", "--candidate", "avoid:take=0", "--baseline", "avoid", "--deals", "4800", "--seed", "3"],
             ["compare", "--candidate", "cautious", "--baseline", "avoid", "--field", "random", "--deals", "2400",
              "--rules", "modern", "--seed", "3"],
             ["tournament", "--policy", "avoid", "--policy", "lowest", "--policy", "random", "--deals", "1200"],
             ["sweep", "--base", "avoid", "--param", "take=0,4", "--baseline", "avoid", "--deals", "1200",
              "--confirm-seed", "9"]):
    text = cli(*args, "--format", "json")
    data = json.loads(text)
    snap["cmp/" + " ".join(args)] = h(json.dumps(data, sort_keys=True))
    raw[" ".join(args)] = data
Path(sys.argv[1]).write_text(json.dumps(snap, indent=1) + "\n")
Path(sys.argv[1] + ".raw").write_text(json.dumps(raw, indent=1) + "\n")
print(len(snap), "fingerprints")
