"""A learning run: the positions of self-play matches reviewed chunk by chunk into a parts folder beside the
weights file (each chunk a pure function of the run and its first match, written whole or not at all), then the
ridge fit, then the weights file. An interrupted run keeps its finished chunks; ``resume`` computes only the
missing ones, and the weights equal an uninterrupted run's.

The table is one policy in every seat, an ``avoid`` setting or a learned player (the next round of a policy
iteration: the positions its own play reaches, each option valued with it playing the rest of the deal); the review
values each card option, and each option of the talon decisions, with that policy's rollouts. Where the rules
have a talon the exchange model is fitted on the talon decisions as the card model is on the cards; with
``exchange`` off, or rules without a talon, the weights keep the table's exchange (a learned player's: the
``avoid`` setting its file names). The declaration of the espagnolette is too rare in self-play to learn from (a
seat of a ``learned`` table is eligible in about one deal of two hundred): its model is fitted on matches of their own
(``declaration_matches``), dealt so that seat 0 may be eligible after the exchange (:func:`eligible_where`),
seat 0's declarations reviewed; without them the weights keep the table's declaration (a learned player's, or the
``avoid`` setting's). With ``cards`` off (a learned table), only the declaration is learned: the file keeps the
table's card and exchange weights as they are, and the table declares as its ``avoid`` setting while it is
reviewed (a declaration model its file carries set aside), so that the same command writes the same file whether
or not the table's file already carries one. The last :data:`HELD_OUT` of the matches of each kind choose the
ridge penalty and are not fitted on.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..constraints import deals_of
from ..policies import parse_spec
from ..policies import weights as W
from ..policies.learned import (
    DECLARATION_FEATURES,
    DO_WIN_ALL,
    EXCHANGE_FEATURES,
    FEATURES,
    N_DO,
    N_DWEIGHTS,
    N_WEIGHTS,
    N_XWEIGHTS,
)
from ..rules import Rules
from .fit import fit
from .positions import declarations, positions

CHUNK = 25
"""Matches per chunk of positions."""
HELD_OUT = 1 / 6
"""The share of the matches (the last ones) that choose the penalty."""
MIN_MATCHES = 12
"""The fewest matches a run may have: below it the held-out matches are too few to choose a penalty."""
MIN_DECISIONS_PER_WEIGHT = 10
"""The fewest fitted decisions per weight: below it the fit is refused (the weights would fit noise)."""
DECLARATION_DEALS = 60_000
"""The declaration deals of a run that names none, where the rules have the espagnolette: at a table of ``strong``
under ``parlett`` about 0.6-0.7% of them reach a declaration (its exchange throws an Ace or the J♥ from most hands
one card from eligible), some 300 fitted against the 130 asked; 6.7% at a table of ``learned``."""


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
    declaration_matches: int = 0
    cards: bool = True

    @property
    def n_chunks(self) -> int:
        return -(-self.n_matches // CHUNK) if self.cards else 0

    @property
    def n_declaration_chunks(self) -> int:
        return -(-self.declaration_matches // CHUNK)


_HANDS = {"four_aces": "aces(0) == 4", "JH_plus_three_aces": "has(0, JH) == 1 and aces(0) >= 3",
          "four_aces_plus_JH": "has(0, JH) + aces(0) == 5", "three_aces_plus_king": "aces(0) == 3 and kings(0) >= 1"}
_ONE_CARD_AWAY = {"four_aces": "aces(0) >= 3", "JH_plus_three_aces": "has(0, JH) + aces(0) >= 3 and aces(0) >= 2",
                  "four_aces_plus_JH": "has(0, JH) + aces(0) >= 4 and aces(0) >= 3",
                  "three_aces_plus_king": "aces(0) >= 3 or (aces(0) == 2 and kings(0) >= 1)"}
"""Seat 0's dealt hands that are (or, where the rules have a talon, are one card from) each eligible hand (R38)."""


def eligible_where(rules: Rules) -> str:
    """The ``--where`` condition of the deals a declaration model learns from: seat 0's dealt hand is eligible
    (rules without a talon) or one card from eligible (a talon exchange changes one card of a hand), so that every
    deal where it declares after the exchange is among them."""
    table = _HANDS if rules.talon_mode == "none" else _ONE_CARD_AWAY
    return " or ".join(f"({table[h]})" for h in rules.espagnolette_hands)


def _deals(spec: LearnSpec, matches: int) -> int:
    """The deals of ``matches`` matches under the spec's rules."""
    return matches * int(spec.rules_params["match_deals"])


def check(spec: LearnSpec) -> None:
    """Refuse a run that cannot give weights, before anything is computed or written."""
    if spec.declaration_matches and not spec.rules_params.get("espagnolette_enabled"):
        raise LearnError(f"the rules {spec.rules} have no espagnolette: there is no declaration to learn; give no "
                         f"declaration deals")
    if spec.declaration_matches and spec.declaration_matches < MIN_MATCHES:
        raise LearnError(f"{spec.declaration_matches} declaration matches are too few to learn from: the held-out "
                         f"share needs at least {MIN_MATCHES} matches; give at least {_deals(spec, MIN_MATCHES):,} "
                         f"declaration deals")
    if not spec.cards:
        if parse_spec(spec.policy).family != "learned" or not spec.declaration_matches:
            raise LearnError("learning the declaration only keeps a learned table's card play: give a learned "
                             "player as the policy and declaration deals")
    elif spec.n_matches < MIN_MATCHES:
        raise LearnError(f"{spec.n_matches} matches are too few to learn from: the held-out share that chooses the "
                         f"penalty needs at least {MIN_MATCHES} matches; give at least {_deals(spec, MIN_MATCHES):,} "
                         f"deals")
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
    kept = None if table.weights is None else W.load(table.weights)
    exchange = str(table) if kept is None else kept.exchange
    if not spec.cards and kept.WD is not None:  # the table declares as its avoid setting: the same file either way
        plain = parts / "table.npz"
        W.save(plain, kept.W, WX=kept.WX, exchange=kept.exchange, rules=rules, command=kept.command,
               provenance=kept.provenance)
        table = parse_spec(f"learned:weights={plain}")
    seats = [table] * rules.n_seats
    where = eligible_where(rules) if spec.declaration_matches else None
    deals = deals_of(rules, (), where) if where else None
    for c in range(spec.n_chunks + spec.n_declaration_chunks):
        card_chunk = c < spec.n_chunks
        path = parts / (f"chunk-{c:05d}.npz" if card_chunk else f"declaration-{c - spec.n_chunks:05d}.npz")
        if not path.exists():
            first = (c if card_chunk else c - spec.n_chunks) * CHUNK
            if card_chunk:
                data = positions(rules, seats, table, seed=spec.seed, first_match=first,
                                 n_matches=min(CHUNK, spec.n_matches - first), worlds=spec.worlds)
            else:
                data = declarations(rules, seats, table, seed=spec.seed, first_match=first,
                                    n_matches=min(CHUNK, spec.declaration_matches - first), worlds=spec.worlds,
                                    deals=deals, reviewed=[0])
            tmp = path.with_name(path.name + ".tmp.npz")
            np.savez(tmp, **data)
            tmp.replace(path)
        if progress is not None:
            progress(c + 1)
    report: dict = {}
    weights, wx = (None, None) if kept is None else (kept.W, kept.WX)  # kept, unless learned again
    if spec.cards:
        weights, wx, report = _fit_cards(parts, spec, wx)
    wd = None if kept is None else kept.WD
    if spec.declaration_matches:
        wd, report["declaration"] = _fit_declaration(parts, spec)
        report["declaration"]["where"] = where
    provenance = {"spec": asdict(spec), "fit": report, "target": "the review's option values (each option played "
                  "out in worlds consistent with the seat's information), centred within decisions"}
    if not spec.cards:  # the card and exchange weights kept: how they were made, as their file recorded it
        provenance["kept"] = {"from": spec.policy, "command": kept.command, "provenance": kept.provenance}
    W.save(out, weights, WX=wx, WD=wd, exchange=exchange, rules=rules, command=command, provenance=provenance)
    shutil.rmtree(parts)
    return report


def _fit_cards(parts: Path, spec: LearnSpec, wx):
    """The card model's weights, the exchange model's (``wx`` kept where it is not learned) and the report."""
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
    if learn_x:
        wx, x_report = fit(x_train, x_held)
        report["exchange"] = x_report | {"train_decisions": n_x, "features": EXCHANGE_FEATURES}
    return weights, wx, report


def _fit_declaration(parts: Path, spec: LearnSpec):
    """The declaration model's weights (the ``win_all`` column zero where the rules ask no goal) and its report:
    the held-out regret beside the table's own declarations'."""
    m = spec.declaration_matches
    cut = m - max(1, round(m * HELD_OUT))
    train = _load_kind(parts, spec, 0, cut, "", "declaration", spec.n_declaration_chunks)
    held = _load_kind(parts, spec, cut, m, "", "declaration", spec.n_declaration_chunks)
    n_dec = int(train["decision"][-1]) + 1 if len(train["decision"]) else 0
    goal = bool(spec.rules_params.get("espagnolette_goal_choice"))
    n_weights = N_DWEIGHTS if goal else N_DWEIGHTS // N_DO  # without a goal, only the declare column is fitted
    if n_dec < MIN_DECISIONS_PER_WEIGHT * n_weights or not len(held["decision"]):
        raise LearnError(f"{n_dec:,} declarations are too few to fit the declaration's {n_weights} weights (at "
                         f"least {MIN_DECISIONS_PER_WEIGHT * n_weights:,}); give more declaration deals")
    wd, report = fit(train, held)
    if not goal:
        wd[:, DO_WIN_ALL] = 0.0  # no option weighs it: the fit's zeros, stated
    n_held = int(held["decision"][-1]) + 1
    return wd, report | {"train_matches": cut, "held_out_matches": m - cut, "train_decisions": n_dec,
                         "held_out_decisions": n_held, "features": DECLARATION_FEATURES}


def _prefixed(data: dict, prefix: str) -> dict:
    """The arrays of ``data`` whose names start with ``prefix``, named without it."""
    return {k[len(prefix):]: v for k, v in data.items() if k.startswith(prefix)}


def _load(parts: Path, spec: LearnSpec, lo: int, hi: int) -> dict:
    """The positions of matches ``lo .. hi`` (whole chunks; ``lo``, ``hi`` cut inside a chunk by match), with
    decisions renumbered from 0: the card decisions' arrays, and the talon decisions' prefixed by ``x``."""
    return _load_kind(parts, spec, lo, hi, "") | {"x" + k: v for k, v in _load_kind(parts, spec, lo, hi, "x").items()}


def _load_kind(parts: Path, spec: LearnSpec, lo: int, hi: int, p: str, name: str = "chunk",
               n_chunks: int | None = None) -> dict:
    keys = ("O", "D", "value", "decision", "card", "played", "deal")
    acc: dict[str, list] = {k: [] for k in keys}
    n_dec, per = 0, int(spec.rules_params["match_deals"])
    for c in range(spec.n_chunks if n_chunks is None else n_chunks):
        with np.load(parts / f"{name}-{c:05d}.npz") as z:
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
