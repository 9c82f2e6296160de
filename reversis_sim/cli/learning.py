"""``reversis-sim learn``: a learned player's weights from the toolkit's own reviewed deals. Parse, call
:mod:`reversis_sim.learn`, print."""

from __future__ import annotations

import json
import shlex
import sys
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
@click.option("--out", type=click.Path(dir_okay=False), required=True,
              help="The weights file to write (.npz); its chunks are kept beside it until it is written.")
@click.option("--resume", is_flag=True, help="Continue an interrupted run (the same options): only the missing "
                                             "chunks are computed, and the weights equal an uninterrupted run's.")
@click.option("--force", is_flag=True, help="Overwrite an existing weights file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def learn(ctx, rules, rule_overrides, policy, deals, worlds, seed, keep_exchange, out, resume, force, fmt):
    """Learn a player's card play and exchange from reviewed self-play: every card option of every decision, and
    every option of every talon decision (which card to discard, or none), valued by the review (played out in
    worlds consistent with what the seat knew), a ridge regression of those values on facts of the seat's view
    (of its hand, for the talon), the penalty chosen on held-out matches. The declaration is the table
    policy's. The same command writes the same file; Ctrl-C keeps the finished chunks, and --resume continues
    them. Play the result with --seat learned:weights=OUT.

    \b
    Example:
      reversis-sim learn --rules parlett --deals 36000 --seed 4301 --out parlett.npz
    """
    from ..learn.run import CHUNK, LearnError, LearnSpec
    from ..learn.run import learn as run_learn

    rules = with_rule_overrides(rules, rule_overrides)
    out = Path(out)
    n_matches = -(-deals // rules.match_deals)
    spec = LearnSpec(rules.name, rules.to_params(), policy.strip(), int(seed), n_matches, int(worlds),
                     not keep_exchange)
    if out.exists() and not force:
        raise click.UsageError(f"{out} exists; give --force to overwrite it, or another --out")
    from ..policies import PolicySpecError, parse_spec
    from ..policies.registry import NAMED

    try:
        spec = LearnSpec(spec.rules, spec.rules_params, str(parse_spec(NAMED.get(spec.policy, spec.policy))),
                         spec.seed, spec.n_matches, spec.worlds, spec.exchange)
        from ..learn.run import check

        check(spec)
    except (PolicySpecError, LearnError) as e:
        raise click.UsageError(str(e)) from None
    kept = [a for a in ctx.meta.get("reversis.args", []) if a not in ("--resume", "--force")]
    text = shlex.join(["reversis-sim", "learn", *kept])  # what the file records: the same command, the same file
    bar = click.progressbar(length=spec.n_chunks, label=f"reviewing {n_matches} matches ({CHUNK} a chunk)",
                            file=sys.stderr)
    done = [0]

    def progress(c: int) -> None:
        bar.update(c - done[0])
        done[0] = c

    try:
        with bar:
            report = interruptible(run_learn, rules, spec, out, command=text, resume=resume, progress=progress)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the {done[0]} finished chunks of {spec.n_chunks} are kept in {out}.parts; "
                   f"the same command with --resume continues", err=True)
        sys.exit(130)
    except LearnError as e:
        raise click.UsageError(str(e)) from None
    if fmt == "json":
        click.echo(json.dumps({"out": str(out), **report}, indent=2))
        return
    click.echo(f"wrote {out}: penalty {report['alpha']:g}, held-out regret {report['held_out_regret']:.3f} fish a "
               f"decision (the table's own cards: {report['held_out_regret_table']:.3f}), "
               f"{report['train_decisions']:,} decisions fitted")
    if "exchange" in report:
        x = report["exchange"]
        click.echo(f"exchange: penalty {x['alpha']:g}, held-out regret {x['held_out_regret']:.3f} fish a talon "
                   f"decision (the table's own: {x['held_out_regret_table']:.3f}), {x['train_decisions']:,} "
                   f"decisions fitted")
