"""The run description: what defines a run's rows (two runs with equal specs have identical Parquet rows), and the
limits on its size, checked before anything is created."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..rules import Rules

MAX_DEALS = 10**11
"""The most deals one run may ask for (a hundred billion: about a day on a 2-core machine's numba engine per
billion, so a cluster's job; the manifest stays small at any size)."""
MAX_MATCH_DEALS = 10_000
"""The most deals per match (the pool carries from deal to deal inside a match; 12 in parlett)."""
MAX_MATCHES = 2**32 - 1
"""The most matches in a run: every match of a run can be replayed by number (``replay --match``)."""
MAX_CHUNK_DEALS = 1_000_000
"""The most deals in one chunk (one part file): the engine holds a chunk in memory, about 560 bytes a deal (and
900 bytes of payment slots while it plays)."""
CHUNK_MATCHES = 2048
"""Matches per chunk (one part file each) unless ``--chunk-matches`` says otherwise, or fewer where that many
matches would be more than :data:`MAX_CHUNK_DEALS` deals (:func:`default_chunk_matches`)."""
MIN_MATCHES = 2
"""The fewest matches in a run: the match is the sampling unit, and one match gives no interval."""


def default_chunk_matches(match_deals: int) -> int:
    """The matches per chunk when none is asked: :data:`CHUNK_MATCHES`, or as many as :data:`MAX_CHUNK_DEALS` deals
    hold where matches are long (at least one)."""
    return max(1, min(CHUNK_MATCHES, MAX_CHUNK_DEALS // max(1, int(match_deals))))


def check_run_size(deals: int, match_deals: int, chunk_matches: int) -> None:
    """``ValueError`` in one sentence if a run of ``deals`` deals in matches of ``match_deals`` and chunks of
    ``chunk_matches`` matches is out of bounds (:data:`MAX_DEALS`, :data:`MAX_MATCH_DEALS`, :data:`MAX_MATCHES`,
    :data:`MIN_MATCHES`, :data:`MAX_CHUNK_DEALS`)."""
    if not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"--deals {deals:,} is out of range: a run plays 1 to {MAX_DEALS:,} deals")
    if not 1 <= match_deals <= MAX_MATCH_DEALS:
        raise ValueError(f"--match-deals {match_deals:,} is out of range: a match has 1 to {MAX_MATCH_DEALS:,} deals")
    n_matches = -(-deals // match_deals)
    if n_matches < MIN_MATCHES:
        raise ValueError(f"--deals {deals:,} in matches of {match_deals:,} deals is {n_matches} match; the match is "
                         f"the sampling unit, so a run needs at least {MIN_MATCHES} (--deals "
                         f"{MIN_MATCHES * match_deals:,} or more, or a smaller --match-deals)")
    if n_matches > MAX_MATCHES:
        raise ValueError(f"--deals {deals:,} in matches of {match_deals:,} deals is {n_matches:,} matches, over the "
                         f"{MAX_MATCHES:,} a run can number; raise --match-deals or split the run")
    if not 1 <= chunk_matches or chunk_matches * match_deals > MAX_CHUNK_DEALS:
        raise ValueError(f"--chunk-matches {chunk_matches:,} of {match_deals:,} deals is "
                         f"{chunk_matches * match_deals:,} deals per part file; at most {MAX_CHUNK_DEALS:,} (the "
                         f"engine holds a chunk in memory)")


@dataclass(frozen=True)
class RunSpec:
    """What defines a run's rows: two runs with equal specs have identical Parquet rows."""

    rules: str
    rules_params: dict
    seats: list[str]
    seed: int
    n_matches: int
    match_deals: int
    chunk_matches: int
    deals: dict | None = None
    """Constrained deals (``--predeal``, ``--where``): :meth:`reversis_sim.constraints.Deals.identity`; None for the
    unconstrained deal (and then absent from the run description, as before constraints existed)."""

    @classmethod
    def for_deals(cls, rules, seats, *, deals: int, seed: int, match_deals: int | None = None,
                  chunk_matches: int | None = None, constraints=None) -> RunSpec:
        """The spec of a run of at least ``deals`` deals (whole matches) of ``rules`` (a :class:`Rules`) with
        ``seats`` (policy specs, one or one per seat), in chunks of ``chunk_matches`` matches (default
        :func:`default_chunk_matches`); ``ValueError`` if its size is out of bounds (:func:`check_run_size`);
        ``constraints``: a :class:`reversis_sim.constraints.Deals` (or None)."""
        from ..policies import parse_seats

        per_match = match_deals or rules.match_deals
        chunk_matches = default_chunk_matches(per_match) if chunk_matches is None else chunk_matches
        check_run_size(deals, per_match, chunk_matches)
        specs = parse_seats([str(s) for s in seats], rules=rules)
        return cls(rules=rules.name, rules_params=rules.to_params(), seats=[str(s) for s in specs], seed=seed,
                   n_matches=-(-deals // per_match), match_deals=per_match, chunk_matches=chunk_matches,
                   deals=constraints.identity() if constraints is not None and constraints.constrained else None)

    def resolved_rules(self) -> Rules:
        """The rules this run plays: exactly those its description records (``rules_params``)."""
        return Rules.from_params(self.rules, self.rules_params)

    def resolved_deals(self, rules: Rules | None = None):
        """The :class:`reversis_sim.constraints.Deals` this run draws (None: unconstrained)."""
        if self.deals is None:
            return None
        from ..constraints import deals_of

        return deals_of(rules or self.resolved_rules(), self.deals.get("predeal", ()), self.deals.get("where"))

    @property
    def n_chunks(self) -> int:
        return -(-self.n_matches // self.chunk_matches)

    def chunk_range(self, chunk: int) -> tuple[int, int]:
        """(first match, number of matches) of a chunk."""
        first = chunk * self.chunk_matches
        return first, min(self.chunk_matches, self.n_matches - first)

    def row_bounds(self, chunk: int) -> tuple[int, int]:
        """(fewest, most) rows a chunk may have: every match has ``match_deals`` deals, except under simple
        scoring (``parlett_simple``, F4.3/G14), where a match stops after the deal a running total reaches the
        target and so has 1 to ``match_deals`` deals."""
        n_matches = self.chunk_range(chunk)[1]
        seats = len(self.seats)
        most = n_matches * self.match_deals * seats
        return (n_matches * seats if self.rules_params.get("scoring") == "simple" else most), most

    def identity(self) -> dict:
        """The run description as a part and the manifest record it (the spec and the schema version)."""
        from .schema import SCHEMA_VERSION  # the table's schema (pyarrow) is imported only where a run is recorded

        out = {**asdict(self), "schema_version": SCHEMA_VERSION}
        if out["deals"] is None:
            del out["deals"]
        return out

    @classmethod
    def from_identity(cls, identity: dict) -> RunSpec:
        """The spec a part's (or a manifest's) run description records."""
        return cls(**{k: identity[k] for k in ("rules", "rules_params", "seats", "seed", "n_matches", "match_deals",
                                               "chunk_matches")}, deals=identity.get("deals"))
