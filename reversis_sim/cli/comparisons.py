"""``reversis-sim compare | tournament | sweep | bench``: comparing heuristics, and measuring the engine.

Parse, call :mod:`reversis_sim.compare` or :mod:`reversis_sim.bench`, print. Registered on the main group
by :mod:`reversis_sim.cli`.
"""

from __future__ import annotations

import json
import sys

import click
import polars as pl

from .cli_options import (
    deals_from,
    matches_of,
    named_policy,
    os_fault,
    policy_spec,
    rules_option,
    with_common_options,
    with_constraint_options,
    with_rule_overrides,
)
from .compare import compare, json_ready, sprt_compare, sweep, tournament
from .overrides import label
from .policies import PolicySpecError
from .record import RunError
from .rules import RulesError


def _num(x, spec: str) -> str:
    return "n/a" if x is None else format(x, spec)


def _pairing(vr) -> str:
    """What the variance reduction means for the user, in words."""
    if vr is None:
        return "the two arms gave the same result in every match (nothing left to compare)"
    if vr >= 1.05:
        return (f"variance reduction x{vr:.1f}: playing the same deals, it took {vr:.1f} times fewer deals than "
                f"two separate runs would for the same precision")
    return (f"variance reduction x{vr:.2f}: playing the same deals did not help here (the arms' games differ "
            f"too much for the luck to cancel)")


def _fail(e: Exception):
    raise click.ClickException(str(e)) from None


def _print_frame(frame: pl.DataFrame, title: str) -> None:
    with pl.Config(tbl_rows=100, tbl_cols=20, float_precision=4, tbl_hide_dataframe_shape=True,
                   tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True, tbl_width_chars=160):
        click.echo(f"\n## {title}\n{frame}")


def register(main: click.Group) -> None:
    """Add the commands of this module to the ``reversis-sim`` group."""

    @main.command("compare")
    @with_common_options
    @click.option("--candidate", required=True, callback=policy_spec, metavar="SPEC", help="The policy under test.")
    @click.option("--baseline", required=True, callback=policy_spec, metavar="SPEC",
                  help="The policy it is compared to.")
    @click.option("--field", default=None, callback=policy_spec, metavar="SPEC",
                  help="The policy of the other three seats (default: the baseline).")
    @click.option("--deals", type=click.IntRange(1), default=24_000, show_default=True,
                  help="Deals in the comparison (whole matches; each is played in every seat, by both arms).")
    @click.option("--out", type=click.Path(file_okay=False), default=None,
                  help="Write the comparison as a folder (Parquet + manifest).")
    @click.option("--force", is_flag=True, help="Overwrite an existing comparison folder.")
    @click.option("--sprt", is_flag=True, help="Sequential test: stop as soon as the GSPRT decides.")
    @click.option("--delta", type=float, default=None, help="SPRT: the smallest gain (fish per deal) worth finding.")
    @click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
                  show_default=True, help="SPRT: false-positive rate.")
    @click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
                  show_default=True, help="SPRT: false-negative rate.")
    @click.option("--batch-deals", type=click.IntRange(1), default=6_000, show_default=True,
                  help="SPRT: deals per batch between looks.")
    @with_constraint_options
    def compare_cmd(rules, rule_overrides, seed, engine, threads, fmt, candidate, baseline, field, deals, out, force,
                    sprt, delta, alpha, beta, batch_deals, predeal, where):
        """Is CANDIDATE better than BASELINE? Duplicate deals: the same matches (same cards, same policy
        randomness) are played with the candidate and with the baseline in each seat in turn against the field.
        Prints the paired mean difference in fish per deal (candidate minus baseline) with its 95% CI, the
        p-value, a standardized effect, and how many times fewer deals the paired design needs than an unpaired
        comparison (variance reduction). With --sprt --delta D, plays batches until the GSPRT decides, printing
        the log-likelihood ratio as it goes; --deals is then the most it may use.

        \b
        Example:
          reversis-sim compare --candidate avoid --baseline random --deals 24000 --seed 1
        """
        rules = with_rule_overrides(rules, rule_overrides)
        constraints = deals_from(rules, predeal, where, quiet=fmt == "json")
        try:
            if sprt:
                if delta is None or delta <= 0:
                    raise click.UsageError("--sprt needs --delta D > 0: the gain in fish per deal worth detecting")

                def show(u):
                    if fmt == "text":
                        click.echo(f"batch {u.batch:>3}: {u.n_matches * rules.match_deals:>9,} deals compared  "
                                   f"LLR {u.llr:+8.3f} in [{u.lower:+.3f}, {u.upper:+.3f}]  "
                                   f"mean {u.mean:+.3f}  {u.decision}", err=True)

                res = sprt_compare(rules, candidate, baseline, field, delta=delta, alpha=alpha, beta=beta,
                                   batch_matches=matches_of(rules, batch_deals), max_matches=matches_of(rules, deals),
                                   seed=seed, engine=engine, threads=threads, on_update=show, constraints=constraints)
                summary = json_ready(res.summary())
            else:
                res = compare(rules, candidate, baseline, field, n_matches=matches_of(rules, deals), seed=seed,
                              engine=engine, threads=threads, out=out, force=force, deals=constraints)
                summary = res.json_summary()
        except (ValueError, RulesError, PolicySpecError, RunError) as e:
            _fail(e)
        except OSError as e:
            raise os_fault(e, out, "fix that (free space, permissions) or choose another --out") from None
        if fmt == "json":
            click.echo(json.dumps(summary, indent=2))
            return
        click.echo(f"{label(rules.name, rules.to_params())}: {named_policy(candidate)} vs {named_policy(baseline)} "
                   f"(field {named_policy(field or baseline)}), seed {seed}")
        compared = summary["n_matches"] * rules.match_deals
        if sprt:
            llr = summary["llr"]
            click.echo(f"decision: {summary['decision']} after {compared:,} deals compared "
                       f"({summary['n_deals']:,} simulated); LLR {_num(llr, '+.3f')} in "
                       f"[{summary['lower']:.3f}, {summary['upper']:.3f}]")
        else:
            click.echo(f"{compared:,} deals compared ({summary['n_deals']:,} simulated)")
        click.echo(f"mean difference {summary['mean_difference']:+.4f} fish per deal, 95% CI "
                   f"[{summary['ci_low']:+.4f}, {summary['ci_high']:+.4f}], p = {summary['p_value']:.3g}")
        click.echo(f"effect (mean / sd of the per-match differences) {_num(summary['effect'], '+.3f')}; "
                   f"{_pairing(summary['variance_reduction'])}")
        if out and not sprt:
            click.echo(f"wrote {out}", err=True)

    @main.command("tournament")
    @with_common_options
    @click.option("--policy", "policies", multiple=True, required=True, callback=policy_spec, metavar="SPEC",
                  help="A policy in the tournament (give two or more).")
    @click.option("--deals", type=click.IntRange(1), default=12_000, show_default=True,
                  help="Deals per pairing (whole matches).")
    @click.option("--out", type=click.Path(file_okay=False), default=None, help="Write the tables as a folder.")
    @click.option("--force", is_flag=True, help="Overwrite an existing tournament folder.")
    @with_constraint_options
    def tournament_cmd(rules, rule_overrides, seed, engine, threads, fmt, policies, deals, out, force, predeal, where):
        """Seat every policy in every seat against three copies of every policy, on the same deals: the payoff
        matrix (fish per deal of the row policy against a field of the column policy, with 95% CIs), a ranking,
        and pairwise claims corrected for multiple comparisons (Holm).

        \b
        Example:
          reversis-sim tournament --policy avoid --policy cautious --policy lowest --deals 12000
        """
        rules = with_rule_overrides(rules, rule_overrides)
        if len(policies) < 2:
            raise click.UsageError("a tournament needs at least two --policy")
        constraints = deals_from(rules, predeal, where, quiet=fmt == "json")
        try:
            res = tournament(rules, list(policies), n_matches=matches_of(rules, deals), seed=seed, engine=engine,
                             threads=threads, out=out, force=force, deals=constraints)
        except (ValueError, RulesError, RunError) as e:
            _fail(e)
        except OSError as e:
            raise os_fault(e, out, "fix that (free space, permissions) or choose another --out") from None
        if fmt == "json":
            click.echo(json.dumps(json_ready({"payoff": res.payoff.to_dicts(), "ranking": res.ranking.to_dicts(),
                                              "pairwise": res.pairwise.to_dicts(), "n_deals": res.n_deals}),
                                  indent=2))
            return
        click.echo(f"{rules.name}: {len(policies)} policies, seed {seed}, {res.n_deals:,} deals played")
        _print_frame(res.payoff, "payoff (row policy against a field of the column policy, fish per deal)")
        _print_frame(res.ranking, "ranking")
        _print_frame(res.pairwise, "pairwise (Holm-corrected)")

    @main.command("sweep")
    @with_common_options
    @click.option("--base", required=True, callback=policy_spec, metavar="SPEC",
                  help="The policy whose parameters move.")
    @click.option("--param", "params", multiple=True, required=True, metavar="NAME=V1,V2,...",
                  help="A parameter and the values to try (repeat for a grid).")
    @click.option("--baseline", required=True, callback=policy_spec, metavar="SPEC",
                  help="What each point must beat.")
    @click.option("--field", default=None, callback=policy_spec, metavar="SPEC",
                  help="The other seats (default: baseline).")
    @click.option("--deals", type=click.IntRange(1), default=12_000, show_default=True,
                  help="Deals per grid point on the explore seed.")
    @click.option("--confirm-seed", type=click.IntRange(0, 2**63 - 1), default=None,
                  help="Re-test the best point alone on this fresh seed (explore/confirm split).")
    @click.option("--confirm-deals", type=click.IntRange(1), default=None, help="Deals of the confirmation.")
    @click.option("--out", type=click.Path(file_okay=False), default=None, help="Write the grid as a folder.")
    @click.option("--force", is_flag=True, help="Overwrite an existing sweep folder.")
    def sweep_cmd(rules, rule_overrides, seed, engine, threads, fmt, base, params, baseline, field, deals, confirm_seed,
                  confirm_deals, out, force):
        """Evaluate a grid of parameter values of BASE against BASELINE with paired statistics, Holm-corrected
        across the grid; with --confirm-seed the best setting found is re-tested alone on fresh deals.

        \b
        Example:
          reversis-sim sweep --base avoid --param take=2,4,8 --param hunt=0,1 --baseline avoid --confirm-seed 99
        """
        rules = with_rule_overrides(rules, rule_overrides)
        grid = {}
        for p in params:
            name, eq, values = p.partition("=")
            try:
                grid[name.strip()] = [float(v) for v in values.split(",") if v.strip()]
            except ValueError:
                raise click.BadParameter(f"{p!r}: values must be numbers, e.g. take=2,4,8",
                                         param_hint="'--param'") from None
            if not eq or not grid[name.strip()]:
                raise click.BadParameter(f"{p!r} is not NAME=V1,V2,...", param_hint="'--param'")
        try:
            res = sweep(rules, base, grid, baseline, field=field, n_matches=matches_of(rules, deals), seed=seed,
                        confirm_seed=confirm_seed,
                        confirm_matches=None if confirm_deals is None else matches_of(rules, confirm_deals),
                        engine=engine, threads=threads, out=out, force=force)
        except (ValueError, PolicySpecError, RunError) as e:
            _fail(e)
        except OSError as e:
            raise os_fault(e, out, "fix that (free space, permissions) or choose another --out") from None
        table = res.table()
        if fmt == "json":
            click.echo(json.dumps(json_ready({"best": res.best, "confirmed": res.confirmed,
                                              "grid": table.to_dicts()}), indent=2))
            return
        _print_frame(table.select([c for c in ("stage", "spec", "mean_difference", "ci_low", "ci_high", "p_value",
                                               "p_holm", "reject", "best") if c in table.columns]),
                     f"sweep of {base} against {baseline} ({rules.name}, seed {seed})")
        if res.confirm is not None:
            verdict = "confirmed" if res.confirmed else "not confirmed"
            click.echo(f"\nbest: {res.best}: {verdict} on seed {confirm_seed}")

    @main.command("bench")
    @rules_option
    @click.option("--seat", "seat_specs", multiple=True, metavar="SPEC", help="Seat policies (default: random).")
    @click.option("--deals", type=click.IntRange(1), default=None,
                  help="Deals per kernel measurement (default 240,000; with --search 1,200).")
    @click.option("--threads", type=click.IntRange(1), default=None, help="'All threads' (default: all cores).")
    @click.option("--search", "search_specs", multiple=True, metavar="SPEC",
                  help="Measure these search settings instead (repeatable): one search seat among three --field.")
    @click.option("--field", default="tuned", show_default=True, metavar="SPEC",
                  help="With --search: the other seats' policy.")
    @click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
    def bench_cmd(rules, seat_specs, deals, threads, search_specs, field, fmt):
        """Measure, in one run, the deals per second of the reference engine, of the numba kernel on one thread
        and on all threads, and of a whole run written to disk (simulate --no-figures, startup excluded), their
        ratios and the bytes per deal on disk (shared machines are noisy: compare ratios, not absolutes).
        With --search: the cost of each search setting, deals per second per core and on all threads, the
        searching seat's cards per second, and how many times slower than the --field table (same run).

        \b
        Example:
          reversis-sim bench --seat avoid --deals 120000 --format json
          reversis-sim bench --search search:worlds=4 --search search:worlds=16
        """
        if search_specs:
            _bench_search(rules, search_specs, field, deals or 1_200, threads, fmt)
            return
        deals = deals or 240_000
        from .bench import measure

        try:
            r = measure(rules, list(seat_specs) or ["random"], deals, threads=threads)
        except (ValueError, PolicySpecError, RulesError) as e:
            _fail(e)
        r["ratio_1_thread"] = r["kernel_deals_per_s_1_thread"] / r["reference_deals_per_s"]
        r["ratio_all_threads"] = r["kernel_deals_per_s_all_threads"] / r["reference_deals_per_s"]
        if fmt == "json":
            click.echo(json.dumps(r, indent=2))
            return
        click.echo(f"{rules.name}, seats {' '.join(r['seats'])}: {r['n_deals']:,} kernel deals, "
                   f"{r['reference_deals']:,} reference deals", err=False)
        click.echo(f"{'engine':<32}{'deals/s':>14}{'x reference':>14}")
        ref = r["reference_deals_per_s"]
        for name, key in (("reference (pure Python)", "reference_deals_per_s"),
                          ("kernel, 1 thread", "kernel_deals_per_s_1_thread"),
                          (f"kernel, {r['threads']} threads", "kernel_deals_per_s_all_threads"),
                          ("end to end (simulate, no figures)", "end_to_end_deals_per_s")):
            click.echo(f"{name:<32}{r[key]:>14,.0f}{r[key] / ref:>14,.0f}")
        click.echo(f"end to end / kernel on {r['threads']} threads: {r['end_to_end_vs_kernel']:.2f} "
                   f"({r['end_to_end_vs_kernel_core']:.2f} of the kernel core)")
        click.echo(f"writer, 1 thread: {r['writer_deals_per_s_1_thread']:,.0f} deals/s, "
                   f"{r['writer_vs_kernel_1_thread']:.2f} cores of writing per core of play; tables built in "
                   f"{r['table_build_ns_per_deal']:.0f} ns a deal")
        click.echo(f"bytes per deal: Arrow {r['arrow_bytes_per_deal']:.0f} (seats "
                   f"{r['arrow_seat_bytes_per_deal']:.0f}, payments {r['arrow_payment_bytes_per_deal']:.0f}, "
                   f"{r['payment_rows_per_deal']:.1f} rows); disk {r['disk_bytes_per_deal']:.1f} (seats "
                   f"{r['disk_seat_bytes_per_deal']:.1f}, payments {r['disk_payment_bytes_per_deal']:.1f})")
        sys.stdout.flush()


def _bench_search(rules, specs, field, deals, threads, fmt):
    """``bench --search``: the table of :func:`reversis_sim.bench.measure_search`."""
    from .bench import measure_search

    try:
        r = measure_search(rules, list(specs), field, deals, threads=threads)
    except (ValueError, PolicySpecError, RulesError) as e:
        _fail(e)
    if fmt == "json":
        click.echo(json.dumps(r, indent=2))
        return
    click.echo(f"{r['rules']}: one search seat among three {r['field']}, {r['n_deals']:,} deals per measurement; "
               f"{r['field']} in every seat: {r['field_deals_per_s_1_thread']:,.0f} deals/s on one thread")
    click.echo(f"{'setting':<36}{'deals/s/core':>14}{'deals/s ' + str(r['threads']) + ' threads':>20}"
               f"{'its cards/s/core':>18}{'x slower':>10}")
    for row in r["rows"]:
        click.echo(f"{row['setting']:<36}{row['deals_per_s_1_thread']:>14,.0f}{row['deals_per_s_all_threads']:>20,.0f}"
                   f"{row['cards_per_s_1_thread']:>18,.0f}{row['x_field']:>10,.0f}")
