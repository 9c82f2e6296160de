"""``reversis-sim tune | best-response``: searching a family's parameters honestly. Parse, call
:mod:`reversis_sim.tune`, print."""

from __future__ import annotations

import json
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from ..keys import next_seed
from ..tune.defaults import DEFAULT_BUDGET, DEFAULT_CONFIRM_DEALS, DEFAULT_EVAL_DEALS, OPTIMIZERS
from .options import (
    REFUSALS,
    SEED,
    command,
    continue_command,
    exit_interrupted,
    json_text,
    os_fault,
    policy_spec,
    with_common_options,
    with_rule_overrides,
    working,
)

BUDGET_OPTIONS = [
    click.option("--param", "params", multiple=True, metavar="NAME=LOW..HIGH|NAME=V1,V2,...",
                 help="A parameter to search and its range or values, a choice by its names (infer=none,rollout; "
                      "repeat; default: every parameter)."),
    click.option("--budget-deals", type=click.IntRange(1), default=DEFAULT_BUDGET, show_default=True,
                 help="Deals the search may simulate (every candidate in every seat, and the baseline)."),
    click.option("--eval-deals", type=click.IntRange(1), default=DEFAULT_EVAL_DEALS, show_default=True,
                 help="Deals (per seat) a candidate is judged on, in blocks of 200 matches (two blocks at least)."),
    click.option("--confirm-seed", type=SEED, default=None,
                 help="Seed of the confirmation on fresh deals (default: --seed + 1)."),
    click.option("--confirm-deals", type=click.IntRange(1), default=DEFAULT_CONFIRM_DEALS, show_default=True,
                 help="Deals of the confirmation (per seat)."),
    click.option("--optimizer", type=click.Choice(OPTIMIZERS), default="optuna", show_default=True,
                 help="optuna: TPE with Wilcoxon racing (chosen by measurement, docs/tuning.md)."),
    click.option("--out", type=click.Path(file_okay=False), default=None,
                 help="Write every trial and the result as a folder (Parquet + manifest); every evaluation is kept "
                      "there as it is made, so that an interrupted tuning continues with --resume."),
    click.option("--force", is_flag=True, help="Overwrite an existing tuning folder."),
    click.option("--resume", is_flag=True,
                 help="Continue the interrupted tuning in --out (the same settings): the result is the "
                      "uninterrupted one's."),
]



@contextmanager
def _faults(out):
    """What ``tune`` and ``best-response`` turn into one sentence: bad input (exit 2), a run folder's refusal
    (exit 1), an operating-system fault naming ``out`` (exit 1)."""
    from ..record import RunError

    try:
        yield
    except RunError as e:
        raise click.ClickException(str(e)) from None
    except REFUSALS as e:  # bad input (SpaceError is a ValueError)
        raise click.UsageError(str(e)) from None
    except OSError as e:
        raise os_fault(e, out, "fix that (free space, permissions) or choose another --out") from None

def with_budget_options(f):
    for option in reversed(BUDGET_OPTIONS):
        f = option(f)
    return f


def _one_field(field):
    if not field:
        return None
    if len(field) != 1:
        raise click.BadParameter(f"give one --field policy (it fills every other seat), not {len(field)}",
                                 param_hint="'--field'")
    return field[0]


def _progress(fmt: str):
    def show(trial, result) -> None:
        if fmt == "text" and sys.stderr.isatty() and (trial.number < 5 or trial.number % 10 == 0):
            best = result.best
            click.echo(f"trial {trial.number:>4} {trial.state:<8} {trial.mean:+8.3f} over {len(trial.blocks):>3} "
                       f"blocks; best {best.mean if best else float('nan'):+.3f}; {result.deals_used:,} deals",
                       err=True)
    return show


def _trials_frame(result):
    import polars as pl

    rows = [{"trial": t.number, "state": t.state, "blocks": len(t.blocks), "mean": t.mean, "spec": t.spec,
             **{f"param_{k}": v for k, v in t.values.items()}} for t in result.search.trials]
    return pl.DataFrame(rows)


def _echo_result(result, rules, what: str) -> None:
    from ..overrides import label

    s = result.summary()
    click.echo(f"{label(rules.name, rules.to_params())}: {what}; {s['optimizer']}, {s['n_trials']} candidates "
               f"({s['n_pruned']} stopped early), {s['search_deals']:,} deals in {s['search_seconds']:.0f} s "
               f"({s['evaluations_per_s']:.1f} block evaluations/s)")
    click.echo(f"chosen on seed {result.seed}: {s['best']} ({s['explore_mean']:+.3f} fish per deal over "
               f"{s['explore_blocks']} blocks; chosen among {s['n_trials']}, so biased upwards)")
    verdict = ("a significant gain" if s["significant"] else
               "no significant gain: the interval holds 0 (or lies below it), so this search found nothing better")
    if s["ci_low"] == s["ci_high"] == s["confirmed_gain"] == 0:  # the same player on the same deals: exactly 0
        verdict = "the best found is the baseline itself, compared with itself (exactly 0): nothing beat it"
    click.echo(f"confirmed on seed {result.confirm_seed} ({s['confirm_deals']:,} fresh deals): "
               f"{s['confirmed_gain']:+.3f} fish per deal over {result.baseline}, 95% CI [{s['ci_low']:+.3f}, "
               f"{s['ci_high']:+.3f}], p = {s['p_value']:.3g}: {verdict}")


def _write(out, kind: str, result, rules, extra: dict, settings: dict) -> None:
    from ..compare.folders import write_folder
    from ..tune.journal import JOURNAL

    manifest = {"rules": rules.name, "rules_params": rules.to_params(), **result.summary(), **extra,
                "journal": JOURNAL, "complete": True}
    write_folder(Path(out), kind, {"trials.parquet": _trials_frame(result)}, manifest, force=True,  # its own folder
                 settings=settings)


@contextmanager
def _journal(ctx, kind: str, out, settings: dict, *, resume: bool, force: bool):
    """The journal of ``--out`` (None without it), and Ctrl-C as one sentence: what is kept, and the exact command
    that continues it (exit status 130)."""
    if out is None:
        if resume:
            raise click.UsageError("--resume continues the tuning in --out: give --out")
        yield None
        return
    from ..tune.journal import open_journal

    created = not Path(out).exists()
    journal = open_journal(out, kind, json.loads(json.dumps(settings)), resume=resume, force=force)
    if journal.damaged:
        click.echo(f"{out} holds this {kind}, complete, but {journal.damaged[0]}: it is made again from its journal",
                   err=True)
    if journal.known:
        click.echo(f"resuming: {len(journal.known):,} block evaluations of {out} are read back, not simulated",
                   err=True)
    try:
        yield journal
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the {len(journal.known):,} block evaluations made are kept in {out}; continue "
                   f"with:\n  {continue_command(ctx)}", err=True)
        exit_interrupted()
    except Exception:
        if created and not journal.known:  # refused before anything was evaluated: leave no folder behind
            shutil.rmtree(out, ignore_errors=True)
        raise


@command("tune")
@with_common_options
@click.option("--base", required=True, callback=policy_spec, metavar="SPEC",
              help="The policy whose parameters move (its family, from its values).")
@click.option("--baseline", default=None, callback=policy_spec, metavar="SPEC",
              help="What the candidates must beat, seat for seat (default: --base).")
@click.option("--field", multiple=True, callback=policy_spec, metavar="SPEC",
              help="The policy of the other seats (default: the baseline).")
@with_budget_options
@click.option("--self-play", "rounds", type=click.IntRange(1, 50), default=None,
              help="Iterate best responses for up to this many rounds, each against the previous round's best.")
def tune(rules, rule_overrides, seed, engine, threads, fmt, base, baseline, field, params, budget_deals, eval_deals,
         confirm_seed, confirm_deals, optimizer, out, force, resume, rounds, cluster):
    """Search the parameters of BASE's family for the setting that gains most over BASELINE against FIELD,
    with an existing optimizer racing the candidates on the same deals, then re-test the chosen setting alone
    on fresh deals (--confirm-seed): that interval is the result, and a search that found nothing says so.
    With --self-play N, iterate: each round tunes one seat against copies of the previous round's best, until
    a round's confirmed gain holds 0 (if the rounds run out first, the field exploited least is the result).

    \b
    Example:
      reversis-sim tune --base avoid --param take=0..20 --param hunt=0,1 --budget-deals 5000000 --seed 3
    """
    from .. import tune as library

    rules = with_rule_overrides(rules, rule_overrides)
    fld = _one_field(field)
    confirm_seed = next_seed(seed) if confirm_seed is None else confirm_seed
    kw = dict(params=params, budget_deals=budget_deals, eval_deals=eval_deals, seed=seed,
              confirm_seed=confirm_seed, confirm_deals=confirm_deals, optimizer=optimizer)
    settings = {"rules_params": rules.to_params(), "base": base, "baseline": baseline, "field": fld,
                "self_play": rounds, **kw}
    kw.update(engine=engine, threads=threads, on_trial=_progress(fmt), cluster=cluster)
    with _faults(out), _journal(click.get_current_context(), "tune", out, settings, resume=resume,
                                force=force) as journal:
        if rounds:
            _self_play(rules, base, rounds, {**kw, "journal": journal}, fmt, out, settings)
            return
        result = working(library.tune, rules, base, baseline=baseline, field=fld, journal=journal, **kw)
        if out is not None:
            _write(out, "tune", result, rules, {}, settings)
    if fmt == "json":
        click.echo(json_text(result.summary()))
        return
    _echo_result(result, rules, f"tuning {base} against a field of {fld or baseline or base} (baseline "
                                f"{baseline or base})")


@command("best-response")
@with_common_options
@click.option("--field", required=True, callback=policy_spec, metavar="SPEC",
              help="The policy to exploit: it sits in every other seat, and is the baseline.")
@click.option("--base", default=None, callback=policy_spec, metavar="SPEC",
              help="The family (and starting setting) of the responder (default: avoid, or SPEC's own family, "
                   "or a search's rollout policy).")
@with_budget_options
def best_response(rules, rule_overrides, seed, engine, threads, fmt, field, base, params, budget_deals, eval_deals,
                  confirm_seed, confirm_deals, optimizer, out, force, resume, cluster):
    """How much can the policy family exploit FIELD? Tune one seat against copies of FIELD (the baseline is
    FIELD itself in that seat) and confirm the best response on fresh deals: its gain is a lower bound on
    FIELD's exploitability within the family.

    \b
    Example:
      reversis-sim best-response --field avoid --budget-deals 5000000 --seed 5
    """
    from .. import tune as library

    rules = with_rule_overrides(rules, rule_overrides)
    confirm_seed = next_seed(seed) if confirm_seed is None else confirm_seed
    kw = dict(base=base, params=params, budget_deals=budget_deals, eval_deals=eval_deals, seed=seed,
              confirm_seed=confirm_seed, confirm_deals=confirm_deals, optimizer=optimizer)
    settings = {"rules_params": rules.to_params(), "field": field, **kw}
    with _faults(out), _journal(click.get_current_context(), "best-response", out, settings, resume=resume,
                                force=force) as journal:
        result = working(library.best_response, rules, field, engine=engine, threads=threads,
                         on_trial=_progress(fmt), journal=journal, cluster=cluster, **kw)
        if out is not None:
            _write(out, "best-response", result, rules, {"exploited": field}, settings)
    if fmt == "json":
        click.echo(json_text({**result.summary(), "kind": "best-response", "exploited": field}))
        return
    _echo_result(result, rules, f"best response to {field}")
    s = result.summary()
    click.echo(f"exploitability of {field} by the {s['best'].split(':')[0]} family: at least "
               f"{max(0.0, s['ci_low']):.3f} fish per deal (95% lower bound; point estimate "
               f"{s['confirmed_gain']:+.3f})")


def _self_play(rules, base, rounds, kw, fmt, out, settings):
    import polars as pl

    from ..compare.folders import write_folder
    from ..tune import self_play

    def show(rnd) -> None:
        if fmt == "text":
            r = rnd.result.summary()
            click.echo(f"round {rnd.number}: against {rnd.field}: best response {r['best']}: confirmed "
                       f"{r['confirmed_gain']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}] fish per deal")

    base_seed, confirm = kw.pop("seed"), kw.pop("confirm_seed")
    played = working(self_play, rules, base, rounds=rounds, seed=base_seed, confirm_seed=confirm, on_round=show, **kw)
    rows = [{"round": r.number, "field": r.field, **{k: v for k, v in r.result.summary().items()
                                                      if not isinstance(v, dict)}} for r in played.rounds]
    if out is not None:
        write_folder(Path(out), "tune", {"rounds.parquet": pl.DataFrame(rows)},
                     {"rules": rules.name, "rules_params": rules.to_params(), "self_play": True,
                      "stopped": played.stopped, "final": played.final, "complete": True},
                     force=True, settings=settings)  # its own folder
    if fmt == "json":
        click.echo(json_text({"rounds": rows, "stopped": played.stopped, "final": played.final}))
    else:
        why = ("a round found no confirmed gain: no setting of the family exploits it at this budget"
               if played.stopped == "converged" else
               f"the {rounds} rounds ran out: the field its best response gained least against")
        click.echo(f"final: {played.final} ({why})")
    return played
