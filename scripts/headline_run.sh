#!/usr/bin/env bash
# The headline results in results/: 10,000,000 deals of the classic rules between four copies of the default
# heuristic, analysed and plotted; the same with four copies of the tuned preset (and the tuned presets of modern and
# serbian beside their avoid runs); four copies of the search player (strong play) beside the tuned runs of parlett
# and modern; four copies of the strong preset of each rule family (strong play at the heuristics' speed,
# 10,000,000 deals under parlett, modern and serbian); four copies of the learned player of each of those rule
# sets (10,000,000 deals each); plus one smaller run per rule set for the comparison across presets.
# Summary tables (JSON/CSV), manifests and figures are committed; the Parquet parts are ignored by git.
#
#   bash scripts/headline_run.sh            # full size (a few minutes on 2 cores)
#   DEALS=240000 bash scripts/headline_run.sh
#   HEADLINE=0 PRESETS="modern serbian" bash scripts/headline_run.sh   # only (re)do some presets' runs
#   HEADLINE=0 PRESETS="" bash scripts/headline_run.sh                  # only the tuned, search, strong, learned runs
#   HEADLINE=0 PRESETS="" TUNED=0 STRONG=0 LEARNED=0 bash scripts/headline_run.sh  # only the search runs
#   HEADLINE=0 PRESETS="" TUNED=0 SEARCH=0 LEARNED=0 bash scripts/headline_run.sh  # only the strong runs
#   HEADLINE=0 PRESETS="" TUNED=0 SEARCH=0 STRONG=0 bash scripts/headline_run.sh   # only the learned runs
#   REUSE=1 bash scripts/headline_run.sh    # keep complete runs (upgraded to the current schema), redo tables+figures
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
mkdir -p results
DEALS=${DEALS:-10000000}
PRESET_DEALS=${PRESET_DEALS:-1200000}
SEED=${SEED:-2026}
PRESETS=${PRESETS-"pierer parlett_penguin parlett_52 modern modern_five serbian"}  # empty: none
HEADLINE=${HEADLINE:-1}
TUNED=${TUNED:-1}
SEARCH=${SEARCH:-1}
STRONG=${STRONG:-1}
LEARNED=${LEARNED:-1}
REUSE=${REUSE:-0}
SEARCH_DEALS=${SEARCH_DEALS:-120000}  # the search plays about 400 deals/s with four searching seats on 2 cores

run() {  # run NAME RULES DEALS SEAT...
  local name=$1 rules=$2 deals=$3; shift 3
  local out=results/$name
  local seats=()
  for s in "$@"; do seats+=(--seat "$s"); done
  local mode=--force
  if [ "$REUSE" = 1 ] && [ -f "$out/manifest.json" ]; then
    reversis-sim upgrade "$out" > /dev/null 2>&1 || true  # a folder of an older schema: rewritten row for row
    mode=--resume  # a complete run only prints its summary
  fi
  reversis-sim simulate --rules "$rules" "${seats[@]}" --deals "$deals" --seed "$SEED" --out "$out" $mode \
    --chunk-matches 8192 --quiet --no-figures --format json > "$out.summary.json.tmp"
  mkdir -p "$out/tables"
  mv "$out.summary.json.tmp" "$out/summary.json"
  reversis-sim analyze "$out" --format json > "$out/tables/all.json"
  python - "$out/tables" <<'PY'  # one analysis, every table also as CSV
import json, sys
from pathlib import Path
import polars as pl
tables = Path(sys.argv[1])
for name, rows in json.loads((tables / "all.json").read_text()).items():
    pl.DataFrame(rows, infer_schema_length=None).write_csv(tables / f"{name}.csv")
PY
  reversis-sim plot "$out" --format png > /dev/null
  echo "results/$name: done"
}

if [ "$HEADLINE" = 1 ]; then
  run parlett_avoid parlett "$DEALS" avoid
fi
for rules in $PRESETS; do
  run "${rules}_avoid" "$rules" "$PRESET_DEALS" avoid
done
if [ "$TUNED" = 1 ]; then
  run parlett_tuned parlett "$DEALS" tuned
  run modern_tuned modern "$PRESET_DEALS" tuned_modern
  run serbian_tuned serbian "$PRESET_DEALS" tuned_serbian
  python scripts/attempt_chart.py  # what a reversis attempt is worth by hand strength, avoid against tuned
fi
if [ "$SEARCH" = 1 ]; then
  # the search before 0.2.0 spelled out (these folders were written with it, as `search`; docs/search.md)
  run parlett_search parlett "$SEARCH_DEALS" search:worlds=16,race=0,first=4,start=0,rollout=tuned
  run modern_search modern "$SEARCH_DEALS" search:worlds=16,race=0,first=4,start=0,rollout=tuned_modern
fi
if [ "$STRONG" = 1 ]; then
  run parlett_strong parlett "$DEALS" strong
  run modern_strong modern "$DEALS" strong_modern
  run serbian_strong serbian "$DEALS" strong_serbian
fi
if [ "$LEARNED" = 1 ]; then
  run parlett_learned parlett "$DEALS" learned
  run modern_learned modern "$DEALS" learned_modern
  run serbian_learned serbian "$DEALS" learned_serbian
fi
python scripts/results_readme.py
