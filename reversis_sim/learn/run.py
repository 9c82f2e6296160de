"""A learning run: the positions of self-play matches reviewed chunk by chunk into a parts folder beside the
weights file (each chunk a pure function of the run and its first match, written whole or not at all), then the
ridge fit, then the weights file. An interrupted run keeps its finished chunks; ``resume`` computes only the
missing ones, and the weights equal an uninterrupted run's.

The table is one policy in every seat, an ``avoid`` setting or a learned player (the next round of a policy
iteration: the positions its own play reaches, each option valued with it playing the rest of the deal); the review
values each card option, and each option of the talon decisions, with that policy's rollouts. Where the rules
have a talon the exchange model is fitted on the talon decisions as the card model is on the cards; with
``exchange`` off, or rules without a talon, the weights keep the table's exchange (a learned player's: the
``avoid`` setting its file names). The declaration is the ``avoid`` setting's. The last :data:`HELD_OUT` of the
matches choose the ridge penalty and are not fitted on.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..policies import parse_spec
from ..policies import weights as W
from ..policies.learned import EXCHANGE_FEATURES, FEATURES, N_WEIGHTS, N_XWEIGHTS
from ..rules import Rules
from .fit import fit
from .positions import positions

CHUNK = 25
"""Matches per chunk of positions."""
HELD_OUT = 1 / 6
"""The share of the matches (the last ones) that choose the penalty."""
MIN_MATCHES = 12
"""The fewest matches a run may have: below it the held-out matches are too few to choose a penalty."""
MIN_DECISIONS_PER_WEIGHT = 10
"""The fewest fitted decisions per weight: below it the fit is refused (the weights would fit noise)."""


class LearnError(ValueError):
    """A learning run that cannot be made: one sentence, nothing written."""


@dataclass(frozen=True)
class LearnSpec:
    """What a learning run is: rules (their name and resolved values), the policy of the table and of the review's
    rollouts (an ``avoid`` or ``learned`` spec), its seed, matches and review worlds, and whether the exchange is
    learned too (where the rules have a talon) or kept from the table's policy."""

    rules: str
    rules_params: dict
    policy: str
    seed: int
    n_matches: int
    worlds: int
    exchange: bool = True

    @property
    def n_chunks(self) -> int:
        return -(-self.n_matches // CHUNK)


def check(spec: LearnSpec) -> None:
    """Refuse a run that cannot give weights, before anything is computed or written."""
    if spec.n_matches < MIN_MATCHES:
        raise LearnError(f"{spec.n_matches} matches are too few to learn from: the held-out share that chooses the "
                         f"penalty needs at least {MIN_MATCHES} matches; give more deals")
    if not 2 <= spec.worlds <= 1024:
        raise LearnError(f"worlds must be 2..1024 (half choose, half measure each option), got {spec.worlds}")
    if parse_spec(spec.policy).family not in ("avoid", "learned"):
        raise LearnError(f"the table's policy must be an avoid setting (such as strong) or a learned player, not "
                         f"{spec.policy!r}")


def _parts(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def learn(rules: Rules, spec: LearnSpec, out: Path, *, command: str, resume: bool = False,
          progress: Callable[[int], None] | None = None) -> dict:
    """Make the weights file ``out``: positions chunk by chunk into ``out``'s parts folder (kept when
    interrupted; ``resume`` continues them), the fit, the file. Returns the fit's report."""
    check(spec)
    parts = _parts(out)
    desc = json.dumps(asdict(spec), sort_keys=True)
    if parts.exists():
        if not resume:
            raise LearnError(f"{parts} holds the chunks of an earlier run; continue it with --resume, or remove it")
        if (parts / "spec.json").read_text() != desc:
            raise LearnError(f"{parts} holds the chunks of another run (other rules, seed, size or policy); remove "
                             f"it or give that run's options")
    else:
        parts.mkdir(parents=True)
        (parts / "spec.json").write_text(desc)
    table = parse_spec(spec.policy)
    seats = [table] * rules.n_seats
    exchange = str(table) if table.weights is None else W.load(table.weights).exchange
    for c in range(spec.n_chunks):
        path = parts / f"chunk-{c:05d}.npz"
        if not path.exists():
            first = c * CHUNK
            data = positions(rules, seats, table, seed=spec.seed, first_match=first,
                             n_matches=min(CHUNK, spec.n_matches - first), worlds=spec.worlds)
            tmp = path.with_name(path.name + ".tmp.npz")
            np.savez(tmp, **data)
            tmp.replace(path)
        if progress is not None:
            progress(c + 1)
    cut = spec.n_matches - max(1, round(spec.n_matches * HELD_OUT))
    train, held = _load(parts, spec, 0, cut), _load(parts, spec, cut, spec.n_matches)
    n_dec = int(train["decision"][-1]) + 1 if len(train["decision"]) else 0
    if n_dec < MIN_DECISIONS_PER_WEIGHT * N_WEIGHTS or not len(held["decision"]):
        raise LearnError(f"{n_dec:,} decisions are too few to fit {N_WEIGHTS} weights (at least "
                         f"{MIN_DECISIONS_PER_WEIGHT * N_WEIGHTS:,}); give more deals")
    x_train, x_held = _prefixed(train, "x"), _prefixed(held, "x")
    n_x = int(x_train["decision"][-1]) + 1 if len(x_train["decision"]) else 0
    learn_x = spec.exchange and n_x + len(x_held["decision"]) > 0
    if learn_x and (n_x < MIN_DECISIONS_PER_WEIGHT * N_XWEIGHTS or not len(x_held["decision"])):
        raise LearnError(f"{n_x:,} talon decisions are too few to fit the exchange's {N_XWEIGHTS} weights (at least "
                         f"{MIN_DECISIONS_PER_WEIGHT * N_XWEIGHTS:,}); give more deals, or --keep-exchange")
    weights, report = fit(train, held)
    report |= {"train_matches": cut, "held_out_matches": spec.n_matches - cut, "train_decisions": n_dec,
               "features": FEATURES}
    wx = None if table.weights is None else W.load(table.weights).WX  # kept, unless learned again
    if learn_x:
        wx, x_report = fit(x_train, x_held)
        report["exchange"] = x_report | {"train_decisions": n_x, "features": EXCHANGE_FEATURES}
    W.save(out, weights, WX=wx, exchange=exchange, rules=rules, command=command,
           provenance={"spec": asdict(spec), "fit": report, "target": "the review's option values (each option "
                       "played out in worlds consistent with the seat's information), centred within decisions"})
    shutil.rmtree(parts)
    return report


def _prefixed(data: dict, prefix: str) -> dict:
    """The arrays of ``data`` whose names start with ``prefix``, named without it."""
    return {k[len(prefix):]: v for k, v in data.items() if k.startswith(prefix)}


def _load(parts: Path, spec: LearnSpec, lo: int, hi: int) -> dict:
    """The positions of matches ``lo .. hi`` (whole chunks; ``lo``, ``hi`` cut inside a chunk by match), with
    decisions renumbered from 0: the card decisions' arrays, and the talon decisions' prefixed by ``x``."""
    return _load_kind(parts, spec, lo, hi, "") | {"x" + k: v for k, v in _load_kind(parts, spec, lo, hi, "x").items()}


def _load_kind(parts: Path, spec: LearnSpec, lo: int, hi: int, p: str) -> dict:
    keys = ("O", "D", "value", "decision", "card", "played", "deal")
    acc: dict[str, list] = {k: [] for k in keys}
    n_dec, per = 0, int(spec.rules_params["match_deals"])
    for c in range(spec.n_chunks):
        with np.load(parts / f"chunk-{c:05d}.npz") as z:
            d = {k: z[p + k] for k in keys}
        m_of = d["deal"] // per  # each decision's match
        keep_dec = (m_of >= lo) & (m_of < hi)
        if not keep_dec.any():
            continue
        new_id = np.cumsum(keep_dec) - 1 + n_dec
        keep_opt = keep_dec[d["decision"]]
        acc["D"].append(d["D"][keep_dec])
        acc["deal"].append(d["deal"][keep_dec])
        for k in ("O", "value", "card", "played"):
            acc[k].append(d[k][keep_opt])
        acc["decision"].append(new_id[d["decision"][keep_opt]])
        n_dec += int(keep_dec.sum())
    return {k: (np.concatenate(v) if v else np.zeros(0)) for k, v in acc.items()}
