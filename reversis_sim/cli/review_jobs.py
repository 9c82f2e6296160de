"""The three jobs of ``reversis-sim review``, each called by its own spelling (``review deal``, ``review player``,
``review record``) and by the one-command spelling (``review --deal``, ``--policy``, ``--record``): one deal reviewed
and printed, a player over many deals into a resumable folder and its summary, the deals kept in a file reviewed from
their records. Parse is done; these call the library and print."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..review.settings import DEFAULT_LUCK_SAMPLES, ReviewError, check_worlds, default_rollout
from .compiling import compiling_notice
from .options import (
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
    seats_of,
)
from .pages import planned_output, write_shown


def one_deal(rules, seed, match, deal, seat_specs, review_seats, worlds, rollout, luck_samples, fmt, output, force,
             ascii_, predeal, where) -> None:
    """One deal reviewed and printed, or drawn into a file (``review deal``; ``rollout`` resolved already)."""
    from ..review.one_deal import review_deal, review_text
    from ..review.settings import review_settings

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


def records(ctx, path, index, review_seats, worlds, rollout, luck_samples, fmt, ascii_, many, target):
    """``review --record FILE``: the kept deals reviewed from their records (:mod:`reversis_sim.review.record`)."""
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
    from ..review.one_deal import review_text
    from ..review.record import review_record

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


def player(ctx, rules, policy, field, n_deals, seed, out, resume, force, threads, worlds, rollout,
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
    table = parse_seats([policy] + [field] * (rules.n_seats - 1), rules=rules)
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
    print_review(Path(out), fmt, figures)


def print_review(out: Path, fmt: str, figures: bool) -> None:
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
