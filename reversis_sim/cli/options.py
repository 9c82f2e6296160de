"""Options shared by the commands of :mod:`reversis_sim.cli` and :mod:`reversis_sim.cli_compare`."""

from __future__ import annotations

import errno
import functools
from contextlib import contextmanager

import click

from .engines import ENGINES
from .overrides import with_overrides
from .policies import PolicySpecError, parse_spec
from .record import MIN_MATCHES, RunError
from .rules import PRESETS, RulesError, get_preset

MAX_SEED = 2**63 - 1
DEFAULT_SEAT = "avoid"
"""The seat policy of every command that plays deals when no --seat is given (simulate and replay alike)."""


def _rules(ctx, param, value):
    try:
        return get_preset(value)
    except RulesError as e:
        raise click.BadParameter(str(e)) from None


rules_option = click.option("--rules", "rules", default="parlett", show_default=True, callback=_rules,
                            help=f"Rules preset: {', '.join(PRESETS)}.")
seed_option = click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
                           help="Run seed (a non-negative integer).")

rule_option = click.option("--rule", "rule_overrides", multiple=True, metavar="NAME=VALUE",
                           help="Override one parameter of the preset (repeatable), e.g. --rule party_bonus=40; "
                                "'reversis-sim rules PRESET' lists every parameter and its value.")


def with_rule_overrides(rules, overrides):
    """The preset with the ``--rule`` overrides applied; ``click.BadParameter`` naming the problem otherwise."""
    try:
        return with_overrides(rules, overrides)
    except RulesError as e:
        raise click.BadParameter(str(e), param_hint="'--rule'") from None


def _threads(ctx, param, value):
    if value is None:
        return None
    import numba

    cores = numba.config.NUMBA_NUM_THREADS
    if value > cores:
        raise click.BadParameter(f"{value} is more than the {cores} threads numba may use on this machine "
                                 f"(NUMBA_NUM_THREADS); give 1 to {cores}, or leave it out to use them all")
    return value


threads_option = click.option("--threads", type=click.IntRange(1), default=None, callback=_threads,
                              help="Threads (default: all cores).")

_OS_REASONS = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "the disk quota is exceeded",
               errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
               errno.EPERM: "operation not permitted", errno.ENOENT: "no such file or folder",
               errno.ENOTDIR: "a part of the path is a file, not a folder", errno.EISDIR: "it is a folder"}


def os_fault(e: OSError, where, advice: str) -> click.ClickException:
    """One sentence for an operating-system fault (full disk, read-only or forbidden folder, a missing path): what
    failed, where, why, and what to do (``advice``); exit status 1, no traceback."""
    reason = _OS_REASONS.get(e.errno, e.strerror or str(e))
    target = e.filename or where
    return click.ClickException(f"cannot use {target}: {reason}; {advice}")


@contextmanager
def folder_errors(where, advice: str):
    """Turn what can go wrong with a run folder into one sentence and exit status 1: a :class:`RunError` as it is
    worded, an operating-system fault with :func:`os_fault` and ``advice``."""
    try:
        yield
    except RunError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise os_fault(e, where, advice) from None


def policy_spec(ctx, param, value):
    """Check a policy spec (or several) and keep it as the user wrote it: tables and headers show that name."""
    if value is None:
        return None
    try:
        for v in value if isinstance(value, tuple) else (value,):
            parse_spec(v)
    except PolicySpecError as e:
        raise click.BadParameter(str(e)) from None
    return tuple(v.strip() for v in value) if isinstance(value, tuple) else value.strip()


def named_policy(text: str) -> str:
    """A policy as the user wrote it, with its full spec where that differs (``cautious (avoid:hunt=0,...)``)."""
    canonical = str(parse_spec(text))
    return text if canonical == text else f"{text} ({canonical})"


def matches_of(rules, deals: int, option: str = "--deals") -> int:
    """The matches of ``deals`` deals (whole matches); at least two, the match being the sampling unit."""
    n = -(-deals // rules.match_deals)
    if n < MIN_MATCHES:
        raise click.UsageError(f"{option} {deals:,} is {n} match of {rules.match_deals} deals; the match is the "
                               f"sampling unit, so a comparison needs at least {MIN_MATCHES} ({option} "
                               f"{MIN_MATCHES * rules.match_deals:,} or more)")
    return n


COMMON_OPTIONS = [
    rules_option,
    rule_option,
    seed_option,
    click.option("--engine", type=click.Choice(ENGINES), default="numba", show_default=True),
    threads_option,
    click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True),
]


def _scheduler(ctx, param, value):
    if value is None:
        return None
    from .cluster import LOCAL  # no dask in it: dask is imported only when a cluster is connected

    m = LOCAL.match(value.strip())
    if m and int(m.group(1)) < 1:
        raise click.BadParameter(f"{value}: a local cluster needs at least 1 worker process (local:2)")
    if value.strip().startswith("local") and not m:
        raise click.BadParameter(f"{value}: write local:N, N worker processes (local:2)")
    return value.strip()


scheduler_option = click.option(
    "--scheduler", metavar="ADDRESS", default=None, callback=_scheduler,
    help="Play on a dask.distributed cluster: a scheduler address (tcp://host:8786), or local:N to start N local "
         "worker processes (pip install -e '.[dask]'; docs/cluster.md). Results are identical to a local run.")


@contextmanager
def on_cluster(address: str | None):
    """The :class:`reversis_sim.cluster.Cluster` of ``--scheduler`` (None without one: nothing of dask is imported),
    active for the comparisons while the block runs; one sentence and exit 1 when it cannot be used."""
    if address is None:
        yield None
        return
    from .cluster import ClusterError, connect, use

    try:
        cluster = connect(address)
    except ClusterError as e:
        raise click.ClickException(str(e)) from None
    with cluster, use(cluster):
        yield cluster


def with_common_options(f):
    """The options every comparison command takes, ``--scheduler`` included (the command then runs on the
    cluster)."""

    @functools.wraps(f)
    def on_the_cluster(*args, scheduler=None, **kwargs):
        with on_cluster(scheduler):
            return f(*args, **kwargs)

    for option in reversed([*COMMON_OPTIONS, scheduler_option]):
        on_the_cluster = option(on_the_cluster)
    return on_the_cluster


constraint_options = [
    click.option("--predeal", "predeal", multiple=True, metavar="SEAT=CARDS",
                 help="Cards placed in a seat's hand before the rest is dealt, e.g. 0=JH,2H,AS (repeatable; "
                      "docs/constraints.md)."),
    click.option("--where", "where", default=None, metavar="EXPR",
                 help="Keep only deals whose dealt hands meet EXPR, e.g. \"hearts(0) == 2 and has(0, JH)\" "
                      "(docs/constraints.md); rejected shuffles are drawn again."),
]


def with_constraint_options(f):
    for option in reversed(constraint_options):
        f = option(f)
    return f


ACCEPTANCE_SAMPLE = 20_000
"""Shuffles drawn to estimate how often ``--where`` passes before a run starts."""


def deals_from(rules, predeal, where, *, quiet: bool = False):
    """The :class:`reversis_sim.constraints.Deals` of ``--predeal`` and ``--where`` (None without them), checked
    before anything runs: a bad predeal or expression, or a condition that (almost) no shuffle meets for some
    dealer, is one sentence and exit 2. Prints the estimated acceptance rate unless ``quiet``."""
    from .constraints import ConstraintError, deals_of
    from .reference import acceptance

    try:
        deals = deals_of(rules, predeal, where)
    except ConstraintError as e:
        raise click.UsageError(str(e)) from None
    if deals is None or deals.where is None:
        return deals
    rates = acceptance(rules, deals, ACCEPTANCE_SAMPLE)
    for dealer, (passed, tried) in enumerate(rates):
        if passed == 0:
            raise click.UsageError(
                f"--where {deals.where.text!r}: no shuffle among {tried:,} dealt by seat {dealer} meets it (with the "
                f"predealt cards): impossible, or too rare to sample (under 1 in {tried:,}); loosen it or predeal "
                f"the cards it asks for")
    passed = sum(p for p, _ in rates)
    tried = sum(t for _, t in rates)
    if not quiet:
        click.echo(f"--where {deals.where.text!r}: about {passed / tried:.2%} of shuffles pass ({passed:,} of "
                   f"{tried:,} sampled); the deals are drawn again until one does", err=True)
    return deals
