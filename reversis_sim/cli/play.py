"""``reversis-sim play``: a person plays a deal or a match against the bots at the terminal, then sees the
decisions reviewed; ``--summary`` says what the kept games say. Parse, call the library (:mod:`reversis_sim.play`),
print."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import click

from ..keys import MAX_SEED
from ..review.settings import DEFAULT_ROLLOUT, FAMILY_DEFAULTS, MAX_WORLDS, MIN_WORLDS, default_rollout
from .options import command, fail, json_text, rule_option, rules_option, seats_of, with_rule_overrides
from .pages import FILE_FORMATS, output_option, planned_output, write_shown

DEFAULT_BOT = DEFAULT_ROLLOUT
"""The bots under the parlett family's rules; another family's are its own strongest preset (default_rollout)."""


@command("play")
@rules_option
@rule_option
@click.option("--seat", "seat_specs", multiple=True, metavar="SPEC",
              help=f"The bots: one spec for every seat, or one per seat (the person's seat's is ignored) "
                   f"(default: {DEFAULT_BOT}; under the modern family's rules {FAMILY_DEFAULTS['penalty']}, under "
                   f"serbian {FAMILY_DEFAULTS['bank']}; 'search' for the strongest).")
@click.option("--you", type=click.IntRange(0, 4), default=1, show_default=True,
              help="Your seat (0 deals the first deal; the eldest, who leads, sits at 1).")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="The deals' seed (default: a new one, printed, so that the deals can be dealt again).")
@click.option("--match", type=click.IntRange(0), default=0, show_default=True, help="The match number.")
@click.option("--deals", "n_deals", type=click.IntRange(1), default=None,
              help="Deals to play (default: a whole match, the pool carried from deal to deal).")
@click.option("--speed", type=click.FloatRange(0, 60), default=0.8, show_default=True,
              help="Seconds each bot's card stays before the next (0: at once).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep every finished deal's record in DIR/games.jsonl (appended; replay, refereeing and "
                   "review read it).")
@click.option("--worlds", type=click.IntRange(MIN_WORLDS, MAX_WORLDS), default=16, show_default=True,
              help="Worlds each decision is played out in by the review after each deal (and by --summary and "
                   "--show, which review the kept deals again: give them the same number to see the same losses); "
                   "half choose the best option, the others measure the loss and its standard error.")
@click.option("--no-review", is_flag=True, help="Skip the review and the duplicate deal after each deal.")
@click.option("--summary", is_flag=True, help="Play nothing: summarize the person's deals kept in --out DIR (the "
                                              "error rate beside the bot ladder, fish against tuned's).")
@click.option("--show", type=click.IntRange(0), default=None, metavar="K",
              help="Play nothing: show the K-th deal kept in --out DIR (0 the first): its diagram with your decisions "
                   "reviewed (--format json: the review with the record).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", *FILE_FORMATS]), default="text",
              show_default=True, help="With --summary or --show: text, or JSON; with --show also html, a page to "
                                      "open in a browser (the deal trick by trick, your decisions reviewed), or svg, "
                                      "the diagram with the marks as a picture, into --output.")
@output_option
@click.option("--force", is_flag=True, help="With --show and --format html or svg: replace the --output file.")
@click.option("--ascii", "ascii_", is_flag=True, help="Suits as S H D C, no Unicode.")
def play(rules, rule_overrides, seat_specs, you, seed, match, n_deals, speed, out, worlds, no_review, summary, show,
         fmt, output, force, ascii_):
    """Play Reversis against the bots: your hand by suit, the talon exchange, the declaration where the rules
    allow one, then trick by trick. Type a card to play it (JH, QS, 10S where the deck has tens), '?' for your
    legal cards, 'hint' for the card to play and the value of each option (at the talon: the search player's
    exchange). After each deal: your decisions reviewed (the best option, your loss, the marks), the same cards
    with tuned in your seat, and the running fish. 'quit', Ctrl-C or Ctrl-D stops, keeping the finished deals.

    \b
    Example:
      reversis-sim play --deals 1 --seed 7 --out games
      reversis-sim play --summary --out games
      reversis-sim play --show 0 --out games
      reversis-sim play --show 0 --out games --format html
    """
    if summary or show is not None:
        _reading_only(summary, show)
        if summary and (fmt in FILE_FORMATS or output is not None or force):
            raise click.UsageError("--format html and svg, --output and --force draw one kept deal (--show K); "
                                   "--summary prints text or json")
        _kept(out, worlds, fmt, ascii_, show, (output, force))
        return
    if fmt != "text":
        raise click.UsageError(f"--format {fmt} is for --summary and --show; a game is played as text")
    if output is not None or force:
        raise click.UsageError("--output and --force write the file of --show K --format html or svg; a game keeps "
                               "its deals in --out DIR")
    rules = with_rule_overrides(rules, rule_overrides)
    if you >= rules.n_seats:
        raise click.BadParameter(f"seat {you} is out of range: {rules.name} has seats 0..{rules.n_seats - 1}",
                                 param_hint="'--you'")
    bot = default_rollout(rules)
    seats = seats_of(rules, seat_specs or (bot,))
    if n_deals is not None and n_deals > rules.match_deals:
        raise click.BadParameter(f"a {rules.name} match has {rules.match_deals} deals; play 1 to {rules.match_deals}"
                                 f" (another match: --match)", param_hint="'--deals'")
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    from ..play.human import Screen
    from ..play.loop import Hint, Reviewing, SessionEnd, hint_search, run
    from ..play.session import Game
    from .compiling import compiling_notice

    game = Game(rules, seats, you, seed, match, n_deals or rules.match_deals)
    screen = Screen(say=click.echo, ask=_ask, ascii=ascii_, speed=speed)
    click.echo(f"reversis-sim play: {rules.name}, seed {seed}, match {match}, {game.n_deals} deal"
               f"{'s' if game.n_deals > 1 else ''}; you are S{you}. Type a card (JH, QS), '?' for your legal cards, "
               "'hint' for advice; 'quit' (or Ctrl-C, Ctrl-D) stops, and the finished deals are kept.")
    try:
        run(game, screen, out, None if no_review else Reviewing(worlds=worlds, rollout=bot),
            Hint(screen, rollout=bot, search=hint_search(rules), working=compiling_notice), working=compiling_notice)
    except SessionEnd as e:
        sys.exit(e.code)
    except (OSError, ValueError) as e:
        fail(e)


GAME_OPTIONS = ("rules", "rule_overrides", "seat_specs", "you", "seed", "match", "n_deals", "speed", "no_review")
"""The options of a game to play, which ``--summary`` and ``--show`` (they play nothing) do not take."""


def _reading_only(summary: bool, show: int | None) -> None:
    """``--summary`` and ``--show`` each read the kept games, one at a time, playing nothing: one sentence, exit 2,
    for both, or for an option of a game given beside them."""
    from click.core import ParameterSource

    if summary and show is not None:
        raise click.UsageError("--summary sums up every kept deal and --show K draws one: give one of the two")
    ctx = click.get_current_context()
    given = [next(o for o in p.opts if o.startswith("--")) for p in ctx.command.params
             if p.name in GAME_OPTIONS and ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE]
    if given:
        what = "--summary" if summary else "--show"
        one = len(given) == 1
        raise click.UsageError(f"{', '.join(given)} set{'s' if one else ''} a game to play; {what} plays nothing (it "
                               f"reads the deals kept in --out): leave {'it' if one else 'them'} out")


def _ask(prompt: str) -> str:
    """One line typed at the terminal (the end of input raises EOFError)."""
    return input(prompt)


def _kept(out: Path | None, worlds: int, fmt: str, ascii_: bool, show: int | None, file=(None, False)) -> None:
    """--summary, or --show K: what the games kept in ``out`` say (``file``: ``--output`` and ``--force``)."""
    if out is None:
        raise click.UsageError(f"{'--summary' if show is None else '--show'} reads the games kept in --out DIR; give "
                               "it")
    from ..play.records import RecordFileError, read_games, refereed, rules_of
    from ..play.session import GAMES, human_seat

    if not out.exists():
        raise click.BadParameter(f"{out} does not exist: play with --out {out} first", param_hint="'--out'")
    try:
        records = read_games(out)
    except RecordFileError as e:
        raise click.BadParameter(str(e), param_hint="'--out'") from None
    if show is not None:
        if show >= len(records):
            raise click.BadParameter(f"{out / GAMES} keeps {len(records)} deal{'s' if len(records) != 1 else ''}: "
                                     f"show 0 to {len(records) - 1}" if records else f"{out / GAMES} keeps no deal yet",
                                     param_hint="'--show'")
        from ..review.one_deal import review_text
        from ..review.record import review_record

        target = planned_output(fmt, *file, str(out / f"deal{show}"))
        try:  # a kept deal is shown as its cards settle it, as replay --record shows it: refereed
            record = refereed(records[show], f"{out / GAMES}, deal {show}")
        except RecordFileError as e:
            raise click.BadParameter(str(e), param_hint="'--show'") from None
        you = human_seat(record)
        seats = [you] if you is not None else list(range(len(record["seats"])))
        review = review_record(record, seats, worlds=worlds, rollout=default_rollout(rules_of(record)))
        if target is not None:
            return write_shown(target, fmt, [review])
        click.echo(json_text(review, indent=1) if fmt == "json" else review_text(review, ascii=ascii_))
        return
    from ..play.summary import summarize_games, summary_text

    summary = summarize_games(records, worlds=worlds)
    click.echo(json_text(summary, indent=1) if fmt == "json" else summary_text(summary, ascii=ascii_))
