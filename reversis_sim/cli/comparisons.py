"""``reversis-sim compare | tournament | sweep``: comparing policies on the same deals. Parse, call
:mod:`reversis_sim.compare`, print."""

from __future__ import annotations

import textwrap

import click

from .options import (
    REFUSALS,
    SEED,
    command,
    conditional_on,
    deals_from,
    estimator_note,
    fail,
    json_text,
    matches_of,
    named_policy,
    os_fault,
    policy_spec,
    refusal_note,
    shown_frame,
    with_common_options,
    with_constraint_options,
    with_rule_overrides,
    working,
)


def _num(x, spec: str) -> str:
    return "n/a" if x is None else format(x, spec)


def _interval(summary: dict, what: str = "mean difference") -> str:
    """The estimate with its 95% CI and p-value, or, with too few matches for a reliable interval, the sentence
    saying how many are needed (``summary['note']``, :func:`reversis_sim.analysis.intervals.too_few`)."""
    head = f"{what} {summary['mean_difference']:+.4f} fish per deal"
    if summary.get("n_needed"):
        return f"{head}; {summary['note']}"
    return (f"{head}, 95% CI [{summary['ci_low']:+.4f}, {summary['ci_high']:+.4f}], "
            f"p = {summary['p_value']:.3g}")


def _pairing(vr) -> str:
    """What the variance reduction means for the user, in words."""
    if vr is None:
        return "the two arms gave the same result in every match (nothing left to compare)"
    if vr >= 1.05:
        return (f"variance reduction x{vr:.1f}: playing the same deals, it took {vr:.1f} times fewer deals than "
                f"two separate runs would for the same precision")
    return (f"variance reduction x{vr:.2f}: playing the same deals did not help here (the arms' games differ "
            f"too much for the luck to cancel)")


def _conditional(constraints) -> dict | None:
    """A constrained comparison's ``--predeal`` and ``--where`` as a run's manifest keeps them (None without)."""
    return constraints.identity() if constraints is not None and constraints.constrained else None


def _print_frame(frame, title: str) -> None:
    import polars as pl

    with pl.Config(tbl_rows=100, tbl_cols=20, float_precision=4, tbl_hide_dataframe_shape=True,
                   tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True, tbl_width_chars=160):
        click.echo(f"\n## {title}\n{shown_frame(frame)}")


def _resume_option(kind: str):
    return click.option("--resume", is_flag=True,
                        help=f"Compute again the {kind} in --out (the same settings) where one of its tables is "
                             "truncated, missing or foreign; a whole folder is left as it is.")


def _folder_options(out, force: bool, resume: bool) -> None:
    """``--resume`` needs the folder it repairs, and excludes ``--force``: one sentence, exit 2."""
    if resume and out is None:
        raise click.UsageError("--resume computes again the damaged tables of the folder --out: give --out")
    if resume and force:
        raise click.UsageError("--resume keeps the folder and recomputes what is damaged, --force replaces it: give "
                               "one of the two")


def _only_with_sprt(sprt: bool, out) -> None:
    """The options of the sequential test, refused without ``--sprt`` (and ``--out``, which it does not write)."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    if sprt:
        if out is not None:
            raise click.UsageError("--sprt stops when the test decides and writes no folder: leave out --out (or "
                                   "--sprt, for a comparison of a fixed size written to --out)")
        return
    given = [f"--{name.replace('_', '-')}" for name in ("delta", "alpha", "beta", "batch_deals")
             if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE]
    if given:
        raise click.UsageError(f"{', '.join(given)} {'sets' if len(given) == 1 else 'set'} the sequential test: add "
                               f"--sprt, or leave {'it' if len(given) == 1 else 'them'} out")


def _grid_value(param, text: str) -> float:
    """One value of a sweep's ``--param``: a number, or for a parameter ``param`` that names a choice
    (``search:infer=rollout``) one of its names; a ``ValueError`` saying what it should be otherwise. ``param``:
    the base family's :class:`~reversis_sim.policies.family.Param` of that name (None: the family has none, which
    :func:`sweep` refuses)."""
    if param is not None and param.choices:
        try:
            return param.read(text)
        except ValueError as e:
            raise ValueError(f"{text.strip()} {e}") from None
    try:
        value = float(text)
    except ValueError:
        raise ValueError("values must be numbers, e.g. take=2,4,8") from None
    problem = param.problem(value) if param is not None else None  # its range, as a spec's value is checked
    if problem:
        raise ValueError(f"{param.name}={text.strip()} {problem}")
    return value


@command("compare")
@with_common_options
@click.option("--candidate", required=True, callback=policy_spec, metavar="SPEC", help="The policy under test.")
@click.option("--baseline", required=True, callback=policy_spec, metavar="SPEC",
              help="The policy it is compared to.")
@click.option("--field", default=None, callback=policy_spec, metavar="SPEC",
              help="The policy of the other three seats (default: the baseline).")
@click.option("--deals", type=click.IntRange(1), default=48_000, show_default=True,
              help="Deals in the comparison (whole matches; each is played in every seat, by both arms). The 95% CI "
                   "is printed from 4,000 matches (48,000 deals): below, too few for a reliable one.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Write the comparison as a folder (Parquet + manifest).")
@click.option("--force", is_flag=True, help="Overwrite an existing comparison folder.")
@_resume_option("comparison")
@click.option("--sprt", is_flag=True, help="Sequential test: stop as soon as the GSPRT decides.")
@click.option("--delta", type=float, default=None, help="SPRT: the smallest gain (fish per deal) worth finding.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="SPRT: false-positive rate.")
@click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="SPRT: false-negative rate.")
@click.option("--batch-deals", type=click.IntRange(1), default=6_000, show_default=True,
              help="SPRT: deals per batch between looks.")
@with_constraint_options
def compare(rules, rule_overrides, seed, engine, threads, fmt, candidate, baseline, field, deals, out, force, resume,
            sprt, delta, alpha, beta, batch_deals, predeal, where, cluster):
    """Is CANDIDATE better than BASELINE? Duplicate deals: the same matches (same cards, same policy
    randomness) are played with the candidate and with the baseline in each seat in turn against the field.
    Prints the paired mean difference in fish per deal (candidate minus baseline) with its 95% CI, the
    p-value, a standardized effect, and how many times fewer deals the paired design needs than an unpaired
    comparison (variance reduction). Fish per match are skewed and heavy-tailed (the pool), so the CI and the
    p-value are printed from 4,000 matches on; below, the command says how many are needed. With --sprt
    --delta D, plays batches until the GSPRT decides (not before 1,000 matches), printing the log-likelihood
    ratio as it goes; --deals is then the most it may use.

    \b
    Example:
      reversis-sim compare --candidate avoid --baseline random --deals 48000 --seed 1
    """
    from .. import compare as library
    from ..overrides import label

    rules = with_rule_overrides(rules, rule_overrides)
    _only_with_sprt(sprt, out)
    _folder_options(out, force, resume)
    constraints = deals_from(rules, predeal, where, quiet=fmt == "json")
    try:
        if sprt:
            if delta is None or delta <= 0:
                raise click.UsageError("--sprt needs --delta D > 0: the gain in fish per deal worth detecting")
            from ..analysis.sequential import MIN_UNITS

            if matches_of(rules, deals) < MIN_UNITS:  # it would end inconclusive whatever the players
                raise click.UsageError(f"the sequential test takes no decision before {MIN_UNITS:,} matches "
                                       f"({MIN_UNITS * rules.match_deals:,} deals; docs/statistics.md §9): give "
                                       f"--deals {MIN_UNITS * rules.match_deals:,} or more")

            def show(u):
                if fmt == "text":
                    click.echo(f"batch {u.batch:>3}: {u.n_matches * rules.match_deals:>9,} deals compared  "
                               f"LLR {u.llr:+8.3f} in [{u.lower:+.3f}, {u.upper:+.3f}]  "
                               f"mean {u.mean:+.3f}  {u.decision}", err=True)

            res = working(library.sprt_compare, rules, candidate, baseline, field, delta=delta, alpha=alpha, beta=beta,
                          batch_matches=matches_of(rules, batch_deals), max_matches=matches_of(rules, deals),
                          seed=seed, engine=engine, threads=threads, on_update=show, constraints=constraints,
                          cluster=cluster)
            summary = library.json_ready(res.summary())
        else:
            res = working(library.compare, rules, candidate, baseline, field, n_matches=matches_of(rules, deals),
                          seed=seed, engine=engine, threads=threads, out=out, force=force, deals=constraints,
                          resume=resume, cluster=cluster)
            summary = res.json_summary()
    except REFUSALS as e:
        fail(e)
    except OSError as e:
        raise os_fault(e, out, "fix that (free space, permissions) or choose another --out") from None
    if fmt == "json":  # its "deals" says what the comparison is conditional on
        click.echo(json_text(summary))
        return
    conditional = _conditional(constraints)
    click.echo(f"{label(rules.name, rules.to_params())}: {named_policy(candidate)} vs {named_policy(baseline)} "
               f"(field {named_policy(field or baseline)}), seed {seed}")
    if conditional:
        click.echo(f"{conditional_on(conditional)}: the difference and its interval are among those deals")
    compared = summary["n_matches"] * rules.match_deals
    if sprt:
        llr = summary["llr"]
        click.echo(f"decision: {summary['decision']} after {compared:,} deals compared "
                   f"({summary['n_deals']:,} simulated); LLR {_num(llr, '+.3f')} in "
                   f"[{summary['lower']:.3f}, {summary['upper']:.3f}]")
    else:
        click.echo(f"{compared:,} deals compared ({summary['n_deals']:,} simulated)")
    click.echo(_interval(summary))
    click.echo(f"effect (mean / sd of the per-match differences) {_num(summary['effect'], '+.3f')}; "
               f"{_pairing(summary['variance_reduction'])}")
    if out and not sprt:
        click.echo(f"wrote {out}", err=True)

@command("tournament")
@with_common_options
@click.option("--policy", "policies", multiple=True, required=True, callback=policy_spec, metavar="SPEC",
              help="A policy in the tournament (give two or more).")
@click.option("--deals", type=click.IntRange(1), default=120_000, show_default=True,
              help="Deals per pairing (whole matches); payoffs and ranking with intervals from 10,000 matches "
                   "(120,000 deals), pairwise claims from 4,000 (48,000 deals).")
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Write the tables as a folder.")
@click.option("--force", is_flag=True, help="Overwrite an existing tournament folder.")
@_resume_option("tournament")
@with_constraint_options
def tournament(rules, rule_overrides, seed, engine, threads, fmt, policies, deals, out, force, resume, predeal,
               where, cluster):
    """Seat every policy in every seat against three copies of every policy, on the same deals: the payoff
    matrix (fish per deal of the row policy against a field of the column policy, with 95% CIs), a ranking,
    and pairwise claims corrected for multiple comparisons (Holm).

    \b
    Example:
      reversis-sim tournament --policy avoid --policy cautious --policy lowest
    """
    from .. import compare as library

    rules = with_rule_overrides(rules, rule_overrides)
    if len(policies) < 2:
        raise click.UsageError("a tournament needs at least two --policy")
    _folder_options(out, force, resume)
    constraints = deals_from(rules, predeal, where, quiet=fmt == "json")
    try:
        res = working(library.tournament, rules, list(policies), n_matches=matches_of(rules, deals), seed=seed,
                      engine=engine, threads=threads, out=out, force=force, deals=constraints, resume=resume,
                      cluster=cluster)
    except REFUSALS as e:
        fail(e)
    except OSError as e:
        raise os_fault(e, out, "fix that (free space, permissions) or choose another --out") from None
    conditional = _conditional(constraints)
    if fmt == "json":
        click.echo(json_text({"payoff": res.payoff.to_dicts(), "ranking": res.ranking.to_dicts(),
                              "pairwise": res.pairwise.to_dicts(), "n_deals": res.n_deals,
                              **({"deals": conditional} if conditional else {})}))  # as compare's
        return
    click.echo(f"{rules.name}: {len(policies)} policies, seed {seed}, {res.n_deals:,} deals played")
    if conditional:
        click.echo(f"{conditional_on(conditional)}: every payoff, rank and claim below is among those deals")
    for frame, title in ((res.payoff, "payoff (row policy against a field of the column policy, fish per deal)"),
                         (res.ranking, "ranking"), (res.pairwise, "pairwise (Holm-corrected)")):
        _print_frame(frame, title)
        note = refusal_note(frame, rules.match_deals)
        if note:
            click.echo(note)
        how = estimator_note(frame)
        if how:
            click.echo(textwrap.fill(how if res.pool_path_note is None else
                                     f"(plain means of what this run saw: {res.pool_path_note})", width=100))
        if frame is res.pairwise and "estimator" in res.ranking.columns and \
                (res.ranking["estimator"] == "pool_path").any():
            click.echo(textwrap.fill(PAIRWISE_PLAIN, width=100))

PAIRWISE_PLAIN = ("(pairwise: plain differences, each pair's seatings match by match, as their floor was measured; "
                  "the ranking's means go through the pool's expected size, so the gap between two of its rows need "
                  "not be the pair's difference)")
"""The sentence under a tournament's pairwise table when its ranking went through the pool's expected size."""


@command("sweep")
@with_common_options
@click.option("--base", required=True, callback=policy_spec, metavar="SPEC",
              help="The policy whose parameters move.")
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=V1,V2,...",
              help="A parameter and the values to try: numbers, or a choice's names (infer=none,rollout); "
                   "repeat for a grid.")
@click.option("--baseline", required=True, callback=policy_spec, metavar="SPEC",
              help="What each point must beat.")
@click.option("--field", default=None, callback=policy_spec, metavar="SPEC",
              help="The other seats (default: baseline).")
@click.option("--deals", type=click.IntRange(1), default=48_000, show_default=True,
              help="Deals per grid point on the explore seed; claims from 4,000 matches (48,000 deals).")
@click.option("--confirm-seed", type=SEED, default=None,
              help="Re-test the best point alone on this fresh seed (explore/confirm split).")
@click.option("--confirm-deals", type=click.IntRange(1), default=None, help="Deals of the confirmation.")
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Write the grid as a folder.")
@click.option("--force", is_flag=True, help="Overwrite an existing sweep folder.")
@_resume_option("sweep")
def sweep(rules, rule_overrides, seed, engine, threads, fmt, base, params, baseline, field, deals, confirm_seed,
          confirm_deals, out, force, resume, cluster):
    """Evaluate a grid of parameter values of BASE against BASELINE with paired statistics, Holm-corrected
    across the grid; with --confirm-seed the best setting found is re-tested alone on fresh deals.

    \b
    Example:
      reversis-sim sweep --base avoid --param take=2,4,8 --param hunt=0,1 --baseline avoid --confirm-seed 99
    """
    from .. import compare as library

    rules = with_rule_overrides(rules, rule_overrides)
    from ..policies import FAMILIES, parse_spec

    _folder_options(out, force, resume)
    family = {q.name: q for q in FAMILIES[parse_spec(base).family].params}  # base was checked by its option
    grid = {}
    for p in params:
        name, eq, values = p.partition("=")
        if name.strip() in grid:
            raise click.BadParameter(f"{name.strip()} is given twice; give each parameter once, its values "
                                     f"together ({name.strip()}=V1,V2,...)", param_hint="'--param'")
        try:
            grid[name.strip()] = [_grid_value(family.get(name.strip()), v) for v in values.split(",") if v.strip()]
        except ValueError as e:
            raise click.BadParameter(f"{p!r}: {e}", param_hint="'--param'") from None
        if not eq or not grid[name.strip()]:
            raise click.BadParameter(f"{p!r} is not NAME=V1,V2,...", param_hint="'--param'")
        if name.strip() not in family:  # said of the option, not of the whole expanded spec the grid would build
            raise click.BadParameter(f"{p!r}: {parse_spec(base).family} has no parameter {name.strip()!r} "
                                     f"(parameters: {', '.join(family)})", param_hint="'--param'")
    try:
        res = working(library.sweep, rules, base, grid, baseline, field=field, n_matches=matches_of(rules, deals),
                      seed=seed, confirm_seed=confirm_seed,
                      confirm_matches=None if confirm_deals is None else matches_of(rules, confirm_deals),
                      engine=engine, threads=threads, out=out, force=force, resume=resume, cluster=cluster)
    except REFUSALS as e:
        fail(e)
    except OSError as e:
        raise os_fault(e, out, "fix that (free space, permissions) or choose another --out") from None
    table = res.table()
    if fmt == "json":
        click.echo(json_text({"best": res.best, "confirmed": res.confirmed, "grid": table.to_dicts()}))
        return
    _print_frame(table.select([c for c in ("stage", "spec", "mean_difference", "ci_low", "ci_high", "p_value",
                                           "p_holm", "reject", "best") if c in table.columns]),
                 f"sweep of {base} against {baseline} ({rules.name}, seed {seed})")
    note = refusal_note(table, rules.match_deals)
    if note:
        click.echo(note)
    if res.confirm is not None:
        verdict = "confirmed" if res.confirmed else "not confirmed"
        if res.confirm.n_needed:
            verdict += f" ({res.confirm.summary()['note']})"
        click.echo(f"\nbest: {res.best}: {verdict} on seed {confirm_seed}")
