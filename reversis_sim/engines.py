"""The one engine interface: per-deal columns and deal records from either engine, chosen by name.

Every caller that plays deals (a run, a replay, a comparison, the benchmark) asks :func:`get_engine` for an
:class:`Engine` and calls it; nothing else chooses between the numba kernels (:mod:`reversis_sim.numba_engine`) and the
readable reference (:mod:`reversis_sim.reference`). Both give the same numbers: that is what the agreement tests
check.

- :meth:`Engine.columns`: the run-table rows of a block of matches (a :class:`reversis_sim.columns.Chunk`), the
  unit a run folder writes and a comparison sums;
- :meth:`Engine.match_records`, :meth:`Engine.deal_record`: deal records (RULES.md Appendix A), for ``replay``;
- :meth:`Engine.check`: refuse, in one sentence, a rule set the engine cannot play.

``policy_seeds`` (one seed per seat) key each seat's policy randomness apart from the cards (which always follow
``seed``): an A/A comparison replays the same cards with independent policy randomness.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the engines themselves are imported when first used: naming one costs nothing (the CLI's --help)
    import numpy as np

    from .columns import Chunk
    from .constraints import Deals
    from .policies import PolicySpec
    from .rules import Rules

ENGINES = ("numba", "reference")
"""The engines by name; ``numba`` is the default everywhere."""


class Engine(Protocol):
    name: str

    def check(self, rules: Rules) -> None:
        """Raise :class:`~reversis_sim.rules.RulesError` if this engine cannot play ``rules``."""

    def columns(self, rules: Rules, seats: Sequence[PolicySpec], *, seed: int, first_match: int, n_matches: int,
                match_deals: int | None = None, threads: int | None = None,
                policy_seeds: Sequence[int] | None = None, deals: Deals | None = None) -> Chunk:
        """The run-table rows of matches ``first_match .. first_match + n_matches - 1``, in (match, deal) order
        (``deals``: constrained deals)."""

    def match_records(self, rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int,
                      n_deals: int | None = None, policy_seeds: Sequence[int] | None = None,
                      deals: Deals | None = None) -> list[dict]:
        """The deal records of one match (fewer than ``n_deals`` where it ends at its target, ``parlett_simple``)."""

    def deal_record(self, rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int, deal: int,
                    policy_seeds: Sequence[int] | None = None, deals: Deals | None = None) -> dict:
        """The record of one deal (its match played up to it); ``ValueError`` if the match ended before it."""

    def warm(self, rules: Rules, seats: Sequence[PolicySpec]) -> None:
        """Load (or, the first time on a machine, compile) what playing ``seats`` under ``rules`` needs: one deal."""

    def dealt_hands(self, rules: Rules, *, seed: int, first_match: int, n_matches: int,
                    match_deals: int | None = None, deals: Deals | None = None) -> np.ndarray:
        """``uint64 (n_matches * match_deals, n_seats)``: every seat's hand as dealt (card masks), without play."""


class NumbaEngine:
    """The numba kernels: about a million random deals a second per core."""

    name = "numba"

    def check(self, rules: Rules) -> None:
        from .numba_engine import check_engine_supported

        check_engine_supported(rules)

    def columns(self, rules, seats, *, seed, first_match, n_matches, match_deals=None, threads=None,
                policy_seeds=None, deals=None):
        from .numba_engine import play_matches

        return play_matches(rules, seats, seed=seed, first_match=first_match, n_matches=n_matches,
                            match_deals=match_deals, threads=threads, policy_seeds=policy_seeds, deals=deals)

    def warm(self, rules, seats):
        self.columns(rules, seats, seed=0, first_match=0, n_matches=1, match_deals=1)

    def match_records(self, rules, seats, *, seed, match, n_deals=None, policy_seeds=None, deals=None):
        from .numba_engine import trace_match

        return trace_match(rules, seats, seed=seed, match=match, n_deals=n_deals, policy_seeds=policy_seeds,
                           deals=deals)

    def deal_record(self, rules, seats, *, seed, match, deal, policy_seeds=None, deals=None):
        from .numba_engine import trace_deal

        return trace_deal(rules, seats, seed, match, deal, policy_seeds=policy_seeds, deals=deals)

    def dealt_hands(self, rules, *, seed, first_match, n_matches, match_deals=None, deals=None):
        from .numba_engine.hands import dealt_hands

        return dealt_hands(rules, seed=seed, first_match=first_match, n_matches=n_matches, match_deals=match_deals,
                           deals=deals)


class ReferenceEngine:
    """The readable reference engine (pure Python, thousands of deals a second): the test oracle."""

    name = "reference"

    def check(self, rules: Rules) -> None:
        return None  # the reference plays every valid rule set

    def columns(self, rules, seats, *, seed, first_match, n_matches, match_deals=None, threads=None,
                policy_seeds=None, deals=None):
        from . import columns, reference

        records = []
        for match in range(first_match, first_match + n_matches):
            records += self.match_records(rules, seats, seed=seed, match=match, n_deals=match_deals,
                                          policy_seeds=policy_seeds, deals=deals)
        chunk = columns.from_records(records, rules)
        chunk.shuffles = sum(reference.deal_cards(rules, seed, r["match"], r["deal"], r["dealer"], deals).shuffles
                             for r in records) if deals is not None and deals.constrained else len(records)
        return chunk

    def warm(self, rules, seats):
        self.match_records(rules, seats, seed=0, match=0, n_deals=1)

    def match_records(self, rules, seats, *, seed, match, n_deals=None, policy_seeds=None, deals=None):
        from . import reference

        return list(reference.play_match(rules, seats, seed=seed, match=match, n_deals=n_deals,
                                         policy_seeds=policy_seeds, deals=deals))

    def deal_record(self, rules, seats, *, seed, match, deal, policy_seeds=None, deals=None):
        from . import reference

        return reference.replay(rules, seats, seed=seed, match=match, deal=deal, policy_seeds=policy_seeds,
                                deals=deals)

    def dealt_hands(self, rules, *, seed, first_match, n_matches, match_deals=None, deals=None):
        import numpy as np

        from . import cards as C
        from . import reference
        from .game import dealer_of

        n_deals = rules.match_deals if match_deals is None else int(match_deals)
        out = np.zeros((n_matches * n_deals, rules.n_seats), np.uint64)
        for i in range(n_matches):
            for d in range(n_deals):
                layout = reference.deal_cards(rules, seed, first_match + i, d, dealer_of(rules, d), deals)
                out[i * n_deals + d] = [C.mask(h) for h in layout.dealt]
        return out


_ENGINES: dict[str, Engine] = {"numba": NumbaEngine(), "reference": ReferenceEngine()}


def compile_watch():
    """A context manager that counts what numba compiles while it is entered (``CompileWatch`` of the numba floor,
    :mod:`reversis_sim.kernel.jit`: ``count``, ``started``, ``active``), for a command that says when the engine
    compiles."""
    from .numba_engine import CompileWatch

    return CompileWatch()


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (:data:`ENGINES`); ``ValueError`` naming the valid engines otherwise."""
    try:
        return _ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; valid engines: {', '.join(ENGINES)}") from None


def where_acceptance(rules: Rules, deals, n: int) -> list[tuple[int, int]]:
    """How often a first shuffle meets ``deals``' ``--where`` on ``n`` shuffles, by dealer (``[(passed, tried)]``):
    dealt by the numba kernel where it plays the rules (the reference's very shuffles and counts, in milliseconds
    instead of a second of Python), by the reference otherwise."""
    from .kernel.compiled import engine_plays

    if engine_plays(rules):
        from .numba_engine.hands import acceptance
    else:
        from .reference import acceptance
    return acceptance(rules, deals, n)
