"""``reversis-sim learn``: a learned player's weights from the toolkit's own reviewed deals. Parse, call
:mod:`reversis_sim.learn`, print."""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import click

from .options import SEED, command, interruptible, rule_option, rules_option, with_rule_overrides


@command("learn")
@rules_option
@rule_option
@click.option("--policy", default="strong", show_default=True, metavar="SPEC",
              help="The policy of the table learned from and of the review's rollouts: an avoid setting, whose "
                   "declaration the learned player keeps, or a learned player (a next round: its own "
                   "positions and rollouts).")
@click.option("--deals", type=click.IntRange(1), default=36000, show_default=True,
              help="Deals of self-play reviewed (whole matches); the last sixth choose the ridge penalty.")
@click.option("--worlds", type=click.IntRange(2, 1024), default=16, show_default=True,
              help="Worlds each card option is played out in (half choose, half measure, as the review).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the deals learned from.")
@click.option("--keep-exchange", is_flag=True,
              help="Learn the card play only: keep the table policy's exchange instead of fitting the exchange "
                   "model on the reviewed talon decisions (rules without a talon learn none either way).")
@click.option("--declaration-deals", type=click.IntRange(0), default=None,
              help="Deals dealt so that seat 0 may hold an espagnolette hand after the exchange (four Aces, or "
                   "three and the J♥, or the rules' own), whose declarations are reviewed to fit the declaration "
                   "model; the last sixth choose its penalty. 0 keeps the table policy's declaration.  "
                   "[default: 60,000 where the rules have the espagnolette]")
@click.option("--declaration-only", is_flag=True,
              help="Learn the declaration only: with a learned player as --policy, the file keeps its card and "
                   "exchange weights as they are (--deals is then unused).")
@click.option("--out", type=click.Path(dir_okay=False), required=True,
              help="The weights file to write (.npz); its chunks are kept beside it until it is written.")
@click.option("--resume", is_flag=True, help="Continue an interrupted run (the same options): only the missing "
                                             "chunks are computed, and the weights equal an uninterrupted run's.")
@click.option("--force", is_flag=True, help="Overwrite an existing weights file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def learn(ctx, rules, rule_overrides, policy, deals, worlds, seed, keep_exchange, declaration_deals,
          declaration_only, out, resume, force, fmt):
    """Learn a player's card play, exchange and declaration from reviewed self-play: every card option of every
    decision, and every option of every talon decision (which card to discard, or none), valued by the review
    (played out in worlds consistent with what the seat knew), a ridge regression of those values on facts of the
    seat's view (of its hand, for the talon), the penalty chosen on held-out matches. The declaration of the
    espagnolette, too rare in self-play, is learned the same way on deals of its own (--declaration-deals), dealt
    so that seat 0 may declare. The same command writes the same file; Ctrl-C keeps the finished chunks, and
    --resume continues them. Play the result with --seat learned:weights=OUT.

    \b
    Example:
      reversis-sim learn --rules parlett --deals 36000 --seed 4301 --out parlett.npz
      reversis-sim learn --policy learned --declaration-only --declaration-deals 36000 --seed 4302 --out p.npz
    """
    from ..learn.run import CHUNK, DECLARATION_DEALS, LearnError, LearnSpec
    from ..learn.run import learn as run_learn

    rules = with_rule_overrides(rules, rule_overrides)
    out = Path(out)
    n_matches = 0 if declaration_only else -(-deals // rules.match_deals)
    if declaration_deals is None:
        declaration_deals = DECLARATION_DEALS if rules.espagnolette_enabled else 0
    spec = LearnSpec(rules.name, rules.to_params(), policy.strip(), int(seed), n_matches, int(worlds),
                     not keep_exchange, -(-declaration_deals // rules.match_deals), not declaration_only)
    if out.exists() and not force:
        if resume:  # the weights are written once the run is whole
            raise click.UsageError(f"{out} is written: its run finished, nothing to resume; give --force to learn "
                                   f"it again")
        raise click.UsageError(f"{out} exists; give --force to overwrite it, or another --out")
    from ..policies import PolicySpecError, parse_spec
    from ..policies.registry import NAMED

    try:
        spec = replace(spec, policy=str(parse_spec(NAMED.get(spec.policy, spec.policy))))
        from ..learn.run import check

        check(spec)
    except (PolicySpecError, LearnError) as e:
        raise click.UsageError(str(e)) from None
    kept = [a for a in ctx.meta.get("reversis.args", []) if a not in ("--resume", "--force")]
    text = shlex.join(["reversis-sim", "learn", *kept])  # what the file records: the same command, the same file
    n_all = spec.n_chunks + spec.n_declaration_chunks
    label = f"reviewing {n_matches + spec.declaration_matches} matches ({CHUNK} a chunk)"
    bar = click.progressbar(length=n_all, label=label, file=sys.stderr)
    done = [0]

    def progress(c: int) -> None:
        bar.update(c - done[0])
        done[0] = c

    try:
        with bar:
            report = interruptible(run_learn, rules, spec, out, command=text, resume=resume, progress=progress)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the {done[0]} finished chunks of {n_all} are kept in {out}.parts; this "
                   f"continues them:\n{text} --resume", err=True)
        sys.exit(130)
    except LearnError as e:
        raise click.UsageError(str(e)) from None
    if fmt == "json":
        click.echo(json.dumps({"out": str(out), **report}, indent=2))
        return
    click.echo(f"wrote {out}")
    if "alpha" in report:
        click.echo(f"cards: penalty {report['alpha']:g}, held-out regret {report['held_out_regret']:.3f} fish a "
                   f"decision (the table's own cards: {report['held_out_regret_table']:.3f}), "
                   f"{report['train_decisions']:,} decisions fitted")
    if "exchange" in report:
        x = report["exchange"]
        click.echo(f"exchange: penalty {x['alpha']:g}, held-out regret {x['held_out_regret']:.3f} fish a talon "
                   f"decision (the table's own: {x['held_out_regret_table']:.3f}), {x['train_decisions']:,} "
                   f"decisions fitted")
    if "declaration" in report:
        x = report["declaration"]
        click.echo(f"declaration: penalty {x['alpha']:g}, held-out regret {x['held_out_regret']:.3f} fish a "
                   f"declaration (the table's own: {x['held_out_regret_table']:.3f}), {x['train_decisions']:,} "
                   f"declarations fitted")
