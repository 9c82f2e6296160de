"""Are a run's matches independent? The hearts dealt to seat 0 over each match's twelve deals (the cards are a pure
function of the keys, so a dependence between matches could only come from the keyed streams), their block means
over consecutive blocks of 1,000 .. 20,000 matches against what independent matches give (a ratio of 1, with a
sampling error of sqrt(2 / (K - 1)) for K blocks).

    python studies/match_independence/match_independence.py --seeds 2002,2003,2004 --matches 10000000
"""

from __future__ import annotations

import argparse

import numpy as np

from reversis_sim import cards as C
from reversis_sim.engines import get_engine
from reversis_sim.rules import get_preset

BLOCKS = (1_000, 5_000, 10_000, 20_000)
STEP = 200_000  # matches dealt at a time


def hearts_per_match(seed: int, n_matches: int) -> np.ndarray:
    rules = get_preset("parlett")
    hearts = np.uint64(sum(1 << c for c in range(C.N_CARD_CODES) if C.suit_of(c) == C.HEARTS))
    out = []
    for first in range(0, n_matches, STEP):
        hands = get_engine("numba").dealt_hands(rules, seed=seed, first_match=first,
                                                n_matches=min(STEP, n_matches - first))[:, 0]
        out.append(np.bitwise_count(hands & hearts).reshape(-1, rules.match_deals).sum(axis=1))
    return np.concatenate(out).astype(float)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="2002,2003,2004")
    ap.add_argument("--matches", type=int, default=10_000_000)
    args = ap.parse_args(argv)
    for seed in (int(s) for s in args.seeds.split(",")):
        v = hearts_per_match(seed, args.matches)
        v -= v.mean()
        cells = []
        for n in BLOCKS:
            k = len(v) // n
            ratio = v[:k * n].reshape(k, n).mean(axis=1).var(ddof=1) * n / v.var()
            cells.append(f"{n:,}: {ratio:.3f} (K={k:,}, se {np.sqrt(2 / (k - 1)):.3f})")
        print(seed, " | ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
