"""``reversis-sim review``: why a player loses fish, decision by decision (one deal, or a player over many deals).
Parse, call the library, print."""

from __future__ import annotations

import sys
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
    ReviewError,
    check_worlds,
    default_rollout,
)
from .compiling import compiling_notice
from .options import (
    command,
    continue_command,
    deals_from,
    exit_interrupted,
    fail,
    folder_errors,
    interruptible,
    json_text,
    kept_records,
    matches_of,
    on_cluster,
    policy_spec,
    rule_option,
    rules_option,
    scheduler_option,
    seat_option,
    seats_of,
    seed_option,
    threads_option,
    with_constraint_options,
    with_rule_overrides,
)
from .pages import FILE_FORMATS, output_option, planned_output, record_file_stem, write_shown


@command("review")
@rules_option
@rule_option
@seed_option
@click.option("--match", type=click.IntRange(0, MAX_MATCHES - 1), default=0, show_default=True, help="Match number.")
@click.option("--deal", type=int, default=None, help="One deal: its number within the match (0-based).")
@seat_option
@click.option("--review-seat", "review_seats", type=int, multiple=True, metavar="K",
              help="One deal: a seat to review (repeat for several; default: every seat).")
@click.option("--policy", default=None, callback=policy_spec, metavar="SPEC",
              help="Many deals: the player reviewed, in seat 0 (the dealer rotates: it plays every position).")
@click.option("--field", default=None, callback=policy_spec, metavar="SPEC",
              help="Many deals: the policy of the other seats (default: the player itself).")
@click.option("--deals", "n_deals", type=click.IntRange(1, MAX_DEALS), default=12_000, show_default=True,
              help="Many deals: how many (whole matches).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Many deals: the review folder (default: results/review_<policy>_seed<S>_<N>deals).")
@click.option("--resume", is_flag=True, help="Many deals: continue an interrupted review in --out.")
@click.option("--force", is_flag=True, help="Many deals: replace the review folder --out; --format html or svg: "
                                            "replace the --output file.")
@threads_option
@click.option("--worlds", type=int, default=DEFAULT_WORLDS, show_default=True,
              help=f"Worlds each decision is played out in ({MIN_WORLDS} to {MAX_WORLDS}), the same for every "
                   "option: half choose the best option, the others measure the values and the loss's standard "
                   "error.")
@click.option("--rollout", default=None, callback=policy_spec, metavar="SPEC",
              help=f"The heuristic that plays the rest of the deal in every seat of the reviewer's rollouts (default: "
                   f"{DEFAULT_ROLLOUT}; under the modern family's rules {FAMILY_DEFAULTS['penalty']}, under serbian "
                   f"{FAMILY_DEFAULTS['bank']}: each family's strongest preset).")
@click.option("--luck-samples", type=int, default=None,
              help=f"Deals dealt again, each reviewed hand kept and freely, for the luck of the hand (0: none; "
                   f"default {DEFAULT_LUCK_SAMPLES} for one deal, 16 for many).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv", *FILE_FORMATS]), default="text",
              show_default=True, help="text or json; many deals also csv (the error rates by kind, trick and "
                                      "situation); one deal or --record also html: a page to open in a browser (the "
                                      "table, the tricks, each decision's options, the costliest decisions), or svg: "
                                      "the diagram with the marks, as a picture.")
@output_option
@click.option("--ascii", "ascii_", is_flag=True, help="One deal, --format text: suits as S H D C, no Unicode.")
@click.option("--quiet", is_flag=True, help="Many deals: no progress bar.")
@click.option("--figures/--no-figures", default=True, show_default=True,
              help="Many deals: draw the loss by trick and kind into OUT/figures/.")
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
    """Why a player loses fish. One deal (--deal): every decision of the reviewed seats (the exchange: keep or which
    card to discard; the declaration; each card), each option valued in fish from what the seat knew at that moment
    (worlds consistent with its information, the same worlds for every option), the best, the loss with its
    standard error and a mark (?! ? ??), the best knowing every card (hindsight); per seat the fish lost and the
    luck of the hand dealt. Many deals (--policy): the player's error rate (fish lost per non-forced decision) with
    its interval, by kind, trick and situation, the costliest decisions, into a resumable folder. docs/review.md
    explains the numbers.

    \b
    Example:
      reversis-sim review --rules parlett --seed 7 --match 0 --deal 3 --seat tuned --review-seat 0
      reversis-sim review --policy avoid --field tuned --deals 12000 --seed 1 --out results/review_avoid
      reversis-sim review --policy tuned --deals 120000 --seed 2 --scheduler local:2
      reversis-sim review --record games/games.jsonl --deal 0
      reversis-sim review --seed 7 --deal 3 --seat tuned --format html --output deal3.html
    """
    from ..review.settings import review_settings

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
        return _review_records(ctx, record_file, deal, review_seats, worlds, rollout, luck_samples, fmt, ascii_,
                               policy is not None or scheduler is not None, target)
    rules = with_rule_overrides(rules, rule_overrides)
    rollout = rollout or default_rollout(rules)
    if (policy is None) == (deal is None):
        raise click.UsageError("give --deal D (review one deal) or --policy SPEC (review a player over many "
                               "deals), one of the two")
    if policy is not None:
        return _review_player(ctx, rules, policy, field, n_deals, seed, out, resume, force, threads, worlds,
                              rollout, 16 if luck_samples is None else luck_samples, fmt, quiet, figures,
                              scheduler, (predeal, where, seat_specs, review_seats))
    if scheduler is not None:
        raise click.UsageError("--scheduler reviews a player over many deals (--policy); one deal is reviewed here")
    from ..review.one_deal import review_deal, review_text

    if fmt == "csv":
        raise click.UsageError("--format csv is the table of a review over many deals (--policy); one deal prints "
                               "text or json")
    seats = seats_of(rules, seat_specs)
    if not 0 <= deal < rules.match_deals:
        raise click.BadParameter(f"deal {deal} is out of range: a {rules.name} match has {rules.match_deals} deals "
                                 f"(0..{rules.match_deals - 1})", param_hint="'--deal'")
    target = planned_output(fmt, output, force, f"review_{rules.name}_seed{seed}_match{match}_deal{deal}")
    try:
        settings = review_settings(rules.n_seats, seats, review_seats, worlds, rollout,
                                   DEFAULT_LUCK_SAMPLES if luck_samples is None else luck_samples)
    except ReviewError as e:
        raise click.UsageError(str(e)) from None
    deals = deals_from(rules, predeal, where, quiet=True)
    with compiling_notice():
        try:
            result = interruptible(review_deal, rules, seats, seed=seed, match=match, deal=deal, settings=settings,
                                   deals=deals)
        except ValueError as e:  # a parlett_simple match that ended before this deal, a rule set the engine refuses
            fail(e)
    if target is not None:
        return write_shown(target, fmt, [result])
    click.echo(json_text(result, indent=None) if fmt == "json" else review_text(result, ascii=ascii_))


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


def _review_records(ctx, path, index, review_seats, worlds, rollout, luck_samples, fmt, ascii_, many, target):
    """``review --record FILE``: the kept deals reviewed from their records (:mod:`reversis_sim.play.verdict`)."""
    if many:
        raise click.UsageError("--record reviews the deals kept in a file; --policy and --scheduler review a player "
                               "over deals dealt anew: give one or the other")
    if luck_samples:
        raise click.UsageError("--luck-samples deals the hand again by the seat's policy; a kept deal's record "
                               "cannot (a person is not a policy): leave it out with --record")
    if fmt == "csv":
        raise click.UsageError("--format csv is the table of a review over many deals (--policy); --record prints "
                               "text or json")
    try:
        check_worlds(worlds)
    except ReviewError as e:
        raise click.UsageError(str(e)) from None
    records = kept_records(ctx, path, index)
    from ..play.records import people, rules_of
    from ..play.verdict import review_record
    from ..review.one_deal import review_text

    reviews = []
    with compiling_notice():
        for record in records:
            n = len(record["seats"])
            bad = [s for s in review_seats if not 0 <= s < n]
            if bad:
                raise click.BadParameter(f"seat {bad[0]} is out of range: the deal has seats 0..{n - 1}",
                                         param_hint="'--review-seat'")
            seats = sorted(set(review_seats)) or people(record)
            reviews.append(interruptible(review_record, record, seats, worlds=worlds,
                                         rollout=rollout or default_rollout(rules_of(record))))
    if target is not None:
        write_shown(target, fmt, reviews)
    elif fmt == "json":
        click.echo("\n".join(json_text(r, indent=None) for r in reviews))
    else:
        click.echo("\n\n".join(review_text(r, ascii=ascii_) for r in reviews))


def _review_player(ctx, rules, policy, field, n_deals, seed, out, resume, force, threads, worlds, rollout,
                   luck_samples, fmt, quiet, figures, scheduler, one_deal_only):
    """``review --policy``: the player over many deals into a folder, then its summary."""
    from ..policies import parse_seats
    from ..review.batch import PlayerReview
    from ..review.settings import review_settings

    predeal, where, seat_specs, review_seats = one_deal_only
    if predeal or where or seat_specs or review_seats:
        raise click.UsageError("--seat, --review-seat, --predeal and --where belong to one deal (--deal); a "
                               "review of a player seats it in seat 0 and its --field elsewhere")
    field = field or policy
    table = parse_seats([policy] + [field] * (rules.n_seats - 1), rules.n_seats)
    try:
        settings = review_settings(rules.n_seats, table, [0], worlds, rollout, luck_samples)
    except ReviewError as e:
        raise click.UsageError(str(e)) from None
    n_matches = matches_of(rules, n_deals)
    out = out or f"results/review_{policy.split(':')[0]}_seed{seed}_{n_matches * rules.match_deals}deals"
    job = PlayerReview(rules, policy, field, n_matches, seed, settings)
    show = not quiet and sys.stderr.isatty()
    from ..record import RunError
    from ..review.batch import check_folder, damaged_chunks, run_review

    try:  # bad input, refused before anything is compiled or written
        check_folder(Path(out), job, resume=resume, force=force)
        bad = damaged_chunks(Path(out), job) if resume else {}
        if bad:
            first = next(iter(bad.values()))[0]
            click.echo(f"{len(bad)} reviewed chunk{'s' if len(bad) > 1 else ''} of {out} "
                       f"{'are' if len(bad) > 1 else 'is'} damaged or missing ({first}); "
                       f"{'they are' if len(bad) > 1 else 'it is'} reviewed again", err=True)
    except RunError as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:
        raise click.UsageError(f"cannot read {out}: {e.strerror or e}") from None

    try:
        with folder_errors(out, "what was reviewed before it is kept"), on_cluster(scheduler) as cluster, \
                compiling_notice(quiet):
            with click.progressbar(length=job.n_chunks, label="chunks", file=sys.stderr, hidden=not show,
                                   show_pos=True, show_eta=True) as bar:
                last = [0]

                def progress(done: int, total: int) -> None:
                    bar.update(done - last[0])
                    last[0] = done

                interruptible(run_review, job, Path(out), resume=resume, force=force, threads=threads,
                              progress=progress, cluster=cluster)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the chunks reviewed are saved in {out}; continue with:\n  "
                   f"{continue_command(ctx, out=out)}", err=True)
        exit_interrupted()
    except click.ClickException as e:  # a cluster lost mid-review, a full disk: the chunks written are kept
        if (Path(out) / "manifest.json").exists():
            e.message += f"; the chunks reviewed are kept: continue with {continue_command(ctx, out=out)}"
        raise
    except ValueError as e:
        fail(e)
    _print_review(Path(out), fmt, figures)


def _print_review(out: Path, fmt: str, figures: bool) -> None:
    from ..review.batch import read_review
    from ..review.summary import summarize_review, summary_rows, summary_text

    summary = summarize_review(*read_review(out))
    if fmt == "json":
        click.echo(json_text(summary))
    elif fmt == "csv":
        click.echo(summary_rows(summary).write_csv(), nl=False)
    else:
        click.echo(summary_text(summary))
    if figures:
        from ..plot.review_figures import write_review_figure

        path, = write_review_figure(out, summary)
        if fmt == "text":
            click.echo(f"figure: {path}")
