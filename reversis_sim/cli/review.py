"""``reversis-sim review``: why a player loses fish, decision by decision, split by job: ``review deal`` (one deal),
``review player`` (a player over many deals, into a folder), ``review record FILE`` (kept deals, from their
records), each with only its own options; the one-command spelling (``review --deal``, ``--policy``, ``--record``)
still works and calls the same jobs (:mod:`.review_jobs`). Parse, call the library, print."""

from __future__ import annotations

from pathlib import Path

import click

from ..record import MAX_DEALS, MAX_MATCHES
from ..review.settings import (
    DEFAULT_LUCK_SAMPLES,
    DEFAULT_ROLLOUT,
    DEFAULT_WORLDS,
    FAMILY_DEFAULTS,
    MAX_WORLDS,
    MIN_WORLDS,
    default_rollout,
)
from .options import (
    Command,
    jobs,
    policy_spec,
    rule_option,
    rules_option,
    scheduler_option,
    seat_option,
    seed_option,
    threads_option,
    with_constraint_options,
    with_rule_overrides,
)
from .pages import FILE_FORMATS, output_option, planned_output, record_file_stem
from .review_jobs import one_deal, player, records

match_option = click.option("--match", type=click.IntRange(0, MAX_MATCHES - 1), default=0, show_default=True,
                            help="Match number.")
review_seat_option = click.option("--review-seat", "review_seats", type=int, multiple=True, metavar="K",
                                  help="A seat to review (repeat for several; default: every seat; a kept deal: the "
                                       "person's seats).")
worlds_option = click.option(
    "--worlds", type=int, default=DEFAULT_WORLDS, show_default=True,
    help=f"Worlds each decision is played out in ({MIN_WORLDS} to {MAX_WORLDS}), the same for every option: half "
         "choose the best option, the others measure the values and the loss's standard error.")
rollout_option = click.option(
    "--rollout", default=None, callback=policy_spec, metavar="SPEC",
    help=f"The heuristic that plays the rest of the deal in every seat of the reviewer's rollouts (default: "
         f"{DEFAULT_ROLLOUT}; under the modern family's rules {FAMILY_DEFAULTS['penalty']}, under serbian "
         f"{FAMILY_DEFAULTS['bank']}: each family's strongest preset).")


def luck_option(default_help: str):
    return click.option("--luck-samples", type=int, default=None,
                        help="Deals dealt again, each reviewed hand kept and freely, for the luck of the hand (0: "
                             f"none; default {default_help}).")


def format_option(choices: tuple[str, ...], help_: str):
    return click.option("--format", "fmt", type=click.Choice(list(choices)), default="text", show_default=True,
                        help=help_)


ascii_option = click.option("--ascii", "ascii_", is_flag=True, help="--format text: suits as S H D C, no Unicode.")
policy_option = click.option("--policy", default=None, callback=policy_spec, metavar="SPEC",
                             help="The player reviewed, in seat 0 (the dealer rotates: it plays every position).")
field_option = click.option("--field", default=None, callback=policy_spec, metavar="SPEC",
                            help="The policy of the other seats (default: the player itself).")
deals_option = click.option("--deals", "n_deals", type=click.IntRange(1, MAX_DEALS), default=12_000,
                            show_default=True, help="How many deals (whole matches).")
out_option = click.option("--out", type=click.Path(file_okay=False), default=None,
                          help="The review folder (default: results/review_<policy>_seed<S>_<N>deals).")
resume_option = click.option("--resume", is_flag=True, help="Continue an interrupted review in --out.")
quiet_option = click.option("--quiet", is_flag=True, help="No progress bar.")
figures_option = click.option("--figures/--no-figures", default=True, show_default=True,
                              help="Draw the loss by trick and kind into OUT/figures/.")
ONE_DEAL_FORMATS = ("text", "json", *FILE_FORMATS)
ONE_DEAL_FORMAT_HELP = ("text or json; html: a page to open in a browser (the table, the tricks, each decision's "
                        "options, the costliest decisions), or svg: the diagram with the marks, as a picture.")
PLAYER_FORMAT_HELP = "text, json, or csv: the error rates by kind, trick and situation."


@jobs("review")
@rules_option
@rule_option
@seed_option
@match_option
@click.option("--deal", type=int, default=None, help="One deal: its number within the match (0-based).")
@seat_option
@review_seat_option
@policy_option
@field_option
@deals_option
@out_option
@resume_option
@click.option("--force", is_flag=True, help="Many deals: replace the review folder --out; --format html or svg: "
                                            "replace the --output file.")
@threads_option
@worlds_option
@rollout_option
@luck_option(f"{DEFAULT_LUCK_SAMPLES} for one deal, 16 for many")
@format_option(("text", "json", "csv", *FILE_FORMATS), "text or json; many deals also csv (the error rates by "
               "kind, trick and situation); one deal or --record also html: a page to open in a browser (the table, "
               "the tricks, each decision's options, the costliest decisions), or svg: the diagram with the marks, "
               "as a picture.")
@output_option
@ascii_option
@quiet_option
@figures_option
@scheduler_option
@click.option("--record", "record_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Review the deals kept in FILE (a games file of 'play --out', or what replay wrote) from their "
                   "records: each refereed, then the person's seats (or --review-seat; every seat where bots played "
                   "them all) reviewed; --deal K: its K-th record. No luck of the hand (it deals the hand again).")
@with_constraint_options
@click.pass_context
def review(ctx, rules, rule_overrides, seed, match, deal, seat_specs, review_seats, policy, field, n_deals, out,
           resume, force, threads, worlds, rollout, luck_samples, fmt, output, ascii_, quiet, figures, scheduler,
           record_file, predeal, where):
    """Why a player loses fish, by job: one deal (review deal), a player over many deals (review player), the
    deals kept in a file (review record). One deal: every decision of the reviewed seats (the exchange: keep or
    which card to discard; the declaration; each card), each option valued in fish from what the seat knew at that
    moment (worlds consistent with its information, the same worlds for every option), the best, the loss with its
    standard error and a mark (?! ? ??), the best knowing every card (hindsight); per seat the fish lost and the
    luck of the hand dealt. A player: its error rate (fish lost per non-forced decision) with its interval, by
    kind, trick and situation, the costliest decisions, into a resumable folder. docs/review.md explains the
    numbers. The options below are the one-command spelling, which still works: --deal D, --policy SPEC or
    --record FILE names the job.

    \b
    Example:
      reversis-sim review deal --rules parlett --seed 7 --match 0 --deal 3 --seat tuned --review-seat 0
      reversis-sim review player --policy avoid --field tuned --deals 12000 --seed 1 --out results/review_avoid
      reversis-sim review player --policy tuned --deals 120000 --seed 2 --scheduler local:2
      reversis-sim review record games/games.jsonl --deal 0
      reversis-sim review deal --seed 7 --deal 3 --seat tuned --format html --output deal3.html
      reversis-sim review --seed 7 --deal 3 --seat tuned   (the one-command spelling)
    """
    if ctx.invoked_subcommand is not None:
        _refuse_options_before_the_job(ctx)
        return
    if ascii_ and fmt != "text":
        raise click.UsageError("--ascii chooses the suits of the text review; add --format text")
    if policy is None:
        _refuse_many_deals_options(ctx, "--record FILE" if record_file is not None else "--deal D",
                                   file_format=fmt in FILE_FORMATS)
    elif fmt in FILE_FORMATS or output is not None:
        raise click.UsageError("--format html and svg, and --output, draw one deal (--deal D or --record FILE); a "
                               "review of a player over many deals prints text, json or csv")
    elif resume and force:
        raise click.UsageError("--resume keeps the review in --out and continues it, --force replaces it: give one "
                               "of the two")
    if record_file is not None:
        target = None if policy is not None else planned_output(
            fmt, output, force, "review_" + record_file_stem(record_file) + ("" if deal is None else f"_deal{deal}"))
        return records(ctx, record_file, deal, review_seats, worlds, rollout, luck_samples, fmt, ascii_,
                       policy is not None or scheduler is not None, target)
    rules = with_rule_overrides(rules, rule_overrides)
    rollout = rollout or default_rollout(rules)
    if (policy is None) == (deal is None):
        raise click.UsageError("give --deal D (review one deal) or --policy SPEC (review a player over many "
                               "deals), one of the two")
    if policy is not None:
        return player(ctx, rules, policy, field, n_deals, seed, out, resume, force, threads, worlds, rollout,
                      16 if luck_samples is None else luck_samples, fmt, quiet, figures, scheduler,
                      (predeal, where, seat_specs, review_seats))
    if scheduler is not None:
        raise click.UsageError("--scheduler reviews a player over many deals (--policy); one deal is reviewed here")
    one_deal(rules, seed, match, deal, seat_specs, review_seats, worlds, rollout, luck_samples, fmt, output, force,
             ascii_, predeal, where)


@review.command("deal", cls=Command)
@rules_option
@rule_option
@seed_option
@match_option
@click.option("--deal", type=int, required=True, help="The deal's number within the match (0-based).")
@seat_option
@review_seat_option
@worlds_option
@rollout_option
@luck_option(str(DEFAULT_LUCK_SAMPLES))
@format_option(ONE_DEAL_FORMATS, ONE_DEAL_FORMAT_HELP)
@output_option
@click.option("--force", is_flag=True, help="--format html or svg: replace the --output file.")
@ascii_option
@with_constraint_options
def review_deal(rules, rule_overrides, seed, match, deal, seat_specs, review_seats, worlds, rollout, luck_samples,
                fmt, output, force, ascii_, predeal, where):
    """One deal reviewed: every decision of the reviewed seats, each option valued from what the seat knew, the
    best, the loss with its standard error and its mark, the best knowing every card; per seat the fish lost and
    the luck of the hand dealt (docs/review.md).

    \b
    Example:
      reversis-sim review deal --rules parlett --seed 7 --match 0 --deal 3 --seat tuned --review-seat 0
    """
    if ascii_ and fmt != "text":
        raise click.UsageError("--ascii chooses the suits of the text review; add --format text")
    rules = with_rule_overrides(rules, rule_overrides)
    one_deal(rules, seed, match, deal, seat_specs, review_seats, worlds, rollout or default_rollout(rules),
             luck_samples, fmt, output, force, ascii_, predeal, where)


@review.command("player", cls=Command)
@rules_option
@rule_option
@seed_option
@click.option("--policy", required=True, callback=policy_spec, metavar="SPEC",
              help="The player reviewed, in seat 0 (the dealer rotates: it plays every position).")
@field_option
@deals_option
@out_option
@resume_option
@click.option("--force", is_flag=True, help="Replace the review folder --out.")
@threads_option
@worlds_option
@rollout_option
@luck_option("16")
@format_option(("text", "json", "csv"), PLAYER_FORMAT_HELP)
@quiet_option
@figures_option
@scheduler_option
@click.pass_context
def review_player(ctx, rules, rule_overrides, seed, policy, field, n_deals, out, resume, force, threads, worlds,
                  rollout, luck_samples, fmt, quiet, figures, scheduler):
    """A player over many deals, in seat 0 of a table of its --field, into a resumable folder: its error rate with
    its interval, by kind, trick and situation, the costliest decisions, the luck (docs/review.md).

    \b
    Example:
      reversis-sim review player --policy avoid --field tuned --deals 12000 --seed 1 --out results/review_avoid
    """
    if resume and force:
        raise click.UsageError("--resume keeps the review in --out and continues it, --force replaces it: give one "
                               "of the two")
    rules = with_rule_overrides(rules, rule_overrides)
    player(ctx, rules, policy, field, n_deals, seed, out, resume, force, threads, worlds,
           rollout or default_rollout(rules), 16 if luck_samples is None else luck_samples, fmt, quiet, figures,
           scheduler, ((), None, (), ()))


@review.command("record", cls=Command)
@click.argument("record_file", type=click.Path(path_type=Path), metavar="FILE")
@click.option("--deal", type=int, default=None, help="Its K-th record only (0-based).")
@review_seat_option
@worlds_option
@rollout_option
@format_option(ONE_DEAL_FORMATS, ONE_DEAL_FORMAT_HELP)
@output_option
@click.option("--force", is_flag=True, help="--format html or svg: replace the --output file.")
@ascii_option
@click.pass_context
def review_record(ctx, record_file, deal, review_seats, worlds, rollout, fmt, output, force, ascii_):
    """The deals kept in FILE (a games file of 'play --out', or what replay wrote) reviewed from their records:
    each refereed, then the person's seats (or --review-seat; every seat where bots played them all). No luck of
    the hand (it deals the hand again, which a person's record cannot).

    \b
    Example:
      reversis-sim review record games/games.jsonl --deal 0
    """
    if ascii_ and fmt != "text":
        raise click.UsageError("--ascii chooses the suits of the text review; add --format text")
    target = planned_output(fmt, output, force,
                            "review_" + record_file_stem(record_file) + ("" if deal is None else f"_deal{deal}"))
    records(ctx, record_file, deal, review_seats, worlds, rollout, None, fmt, ascii_, False, target)


def _refuse_options_before_the_job(ctx) -> None:
    """A job named after options of the one-command spelling (``review --seed 7 deal``): one sentence, exit 2."""
    from click.core import ParameterSource

    given = [p.opts[0] for p in ctx.command.params if ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE]
    if given:
        raise click.UsageError(f"{', '.join(given)} come{'s' if len(given) == 1 else ''} before the job "
                               f"'{ctx.invoked_subcommand}': give the options after it (reversis-sim review "
                               f"{ctx.invoked_subcommand} --help lists them)")


MANY_DEALS = ("field", "n_deals", "out", "resume", "force", "quiet", "figures", "threads")
"""The options of a review of a player over many deals (``--policy``), which a review of one deal or of kept deals
does not take."""


def _refuse_many_deals_options(ctx, what: str, file_format: bool = False) -> None:
    """One sentence, exit 2, for an option of a review over many deals given to a review of one deal or of a file
    (``--force`` replaces the file of ``--format html`` or ``svg``, ``file_format``)."""
    from click.core import ParameterSource

    given = [next(o for o in p.opts if o.startswith("--")) if p.name != "figures" else
             ("--figures" if ctx.params["figures"] else "--no-figures")
             for p in ctx.command.params
             if p.name in MANY_DEALS and ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE
             and not (file_format and p.name == "force")]
    if given:
        raise click.UsageError(f"{', '.join(given)} belong{'s' if len(given) == 1 else ''} to a review of a player "
                               f"over many deals (--policy), kept in a folder; {what} is reviewed and printed, not "
                               f"kept: leave {'it' if len(given) == 1 else 'them'} out")
