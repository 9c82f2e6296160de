"""What a person sees of a ``simulate`` run: the progress bar while it plays, then the report, the summary and the
figures. The run itself is the library's (:func:`reversis_sim.simulate.run`); it reports to one object, its watch,
and this is the command line's. Plain Python at import, so that ``--help`` loads no engine."""

from __future__ import annotations

import contextlib
import math
import sys
import textwrap
import time

import click

from ..policies import display_name
from .options import conditional_on, folder_errors, json_text, summary_estimator_line


class ShownRun:
    """What a person sees of a run, as the run's watch (:class:`reversis_sim.simulate.RunWatch`: the run keeps its
    ``stage`` and ``n_deals`` here and calls ``opened``, ``added`` and ``finished``): the progress bar with the deals
    a second and the time left, then the report, the summary and the figures, while the folder's lock is still held
    (no ``--force`` run replaces the parts under the summary). Plain Python, so that ``--help`` loads no engine."""

    def __init__(self, out: str, fmt: str, quiet: bool, figures: bool, constraints) -> None:
        self.out, self.fmt, self.quiet, self.figures, self.constraints = out, fmt, quiet, figures, constraints
        self.stage, self.n_deals, self.paths = "before", 0, []
        self.bars = self.bar = None
        self.started = time.perf_counter()

    def start(self, bars: contextlib.ExitStack, n_deals: int) -> None:
        """Show the bar (closed with ``bars``), once the engine is loaded or compiled."""
        self.bars = bars
        self.bar = bars.enter_context(click.progressbar(
            length=n_deals, label="deals", file=sys.stderr, hidden=self.quiet or not sys.stderr.isatty(),
            show_pos=True, show_eta=True, item_show_func=lambda rate: rate))
        self.started = time.perf_counter()

    def opened(self) -> None:
        pass

    def added(self, n_deals: int) -> None:
        rate = self.n_deals / max(time.perf_counter() - self.started, 1e-9)
        self.bar.update(n_deals, f"{rate:,.0f} deals/s")

    def finished(self, report) -> None:
        self.bars.close()
        out = self.out
        if report.repaired:
            click.echo(f"rebuilt the lost manifest of {out} from its part files", err=True)
        if not self.quiet and report.n_chunks_run == 0 and report.n_chunks_total:  # a resume of a whole run
            chunks = f"{report.n_chunks_total} chunk" + ("s" if report.n_chunks_total != 1 else "")
            click.echo(f"{out} was already complete ({chunks}): nothing simulated, its summary again", err=True)
        elif not self.quiet:
            click.echo(f"wrote {report.n_deals_run:,} deals ({report.n_chunks_run} of {report.n_chunks_total} "
                       f"chunks) to {out}", err=True)
            where = self.constraints is not None and self.constraints.where is not None
            if where and report.n_shuffles:
                click.echo(f"--where accepted {report.n_deals_run:,} of {report.n_shuffles:,} shuffles "
                           f"({report.n_deals_run / report.n_shuffles:.2%})", err=True)
        with folder_errors(out, f"the run itself is complete: fix that and draw the figures with 'reversis-sim plot "
                                f"{out}'"):
            print_summary(out, self.fmt)
            if self.figures:
                from ..plot import write_figures

                self.paths.extend(write_figures(out, formats=("png",)))


def print_summary(out, fmt) -> None:
    """The summary of a run folder (:func:`reversis_sim.analysis.summarize_run`), as text or JSON."""
    from ..analysis import summarize_run
    from ..record import read_manifest

    summary = summarize_run(out)
    deals = read_manifest(out).get("deals")  # a constrained run's --predeal and --where: every number is among them
    if fmt == "json":  # an interval refused (too few matches) is null, and n_needed says how many are needed
        click.echo(json_text({**summary, "conditional_on": deals} if deals else summary))
        return
    text = summary_text(summary)
    if deals:
        first, _, rest = text.partition("\n")
        text = f"{first}\n{conditional_on(deals)}: every mean, rate and interval below is among those deals\n{rest}"
    click.echo(text)


def summary_text(summary: dict) -> str:
    """A run's summary as text, every word about the rules taken from the rule set it played
    (:mod:`reversis_sim.game.words`): the stake's name, what each fate of the J♥ moves, the reversis and the
    espagnolette as those rules have them, and the pool share only where a match can end with chips in the pool."""
    from ..analysis.intervals import too_few
    from ..game.words import espagnolette_words, fate_meanings, not_played, pool_name, reversis_words
    from ..rules import Rules

    rules = Rules.from_params(summary["rules"], summary["rules_params"])
    pool = pool_name(rules)
    seats = summary["seats"]
    shared = summary["pool_left_per_match"] > 0  # chips left in the pool: the zero-sum view differs from the raw
    lines = [f"{summary['rules_label']}: {summary['n_deals']:,} deals in {summary['n_matches']:,} matches, "
             f"seed {summary['seed']}"]
    share_head = f"with {pool} share"
    names = {row["seat"]: display_name(row["policy"]) for row in seats}  # tuned, not its spec
    wide = max([24, *map(len, names.values())])
    lines.append(f"{'seat':>4}  {'policy':<{wide}} {'fish/deal':>10}  {'95% CI':>19}" +
                 (f"   {share_head:>15}  {'95% CI':>19}" if shared else ""))

    def bounds(low, high) -> str:
        if not (math.isfinite(low) and math.isfinite(high)):
            return f"{'(too few matches)':>20}"
        return f"[{low:>8.3f}, {high:>8.3f}]"

    for row in seats:
        lines.append(f"{row['seat']:>4}  {names[row['seat']]:<{wide}} {row['mean']:>10.3f}  "
                     f"{bounds(row['ci_low'], row['ci_high'])}" +
                     (f"   {row['zero_sum_mean']:>15.3f}  {bounds(row['zero_sum_ci_low'], row['zero_sum_ci_high'])}"
                      if shared else ""))
    deals_per = round(summary["n_deals"] / summary["n_matches"]) if summary["n_matches"] else None
    needed = max((row.get("n_needed", 0) for row in seats), default=0)
    share = max((row.get("zero_sum_n_needed", 0) for row in seats), default=0) if shared else 0
    for what, n in (("fish per deal", needed), (share_head, share)):
        if n:  # the pool's skew: docs/statistics.md §9
            lines.append(f"({what}: {too_few(n, deals_per)}; docs/statistics.md §9)")
    how = summary_estimator_line(summary, pool)
    if how:
        lines.append(how)
    if rules.scoring == "simple":
        note = (f"{rules.name} scores card points, not fish (simple scoring, F4.3): no fish change hands, so every "
                f"fish figure is 0")
    elif shared:
        total = sum(row["mean"] for row in seats)
        negative = ", every one of them negative" if all(row["mean"] < 0 for row in seats) else ""
        note = (f"fish per deal: what a seat won minus what it paid. The {pool} keeps "
                f"{summary['pool_left_per_match']:,.1f} fish per match on average at the end, fish no seat holds: "
                f"the raw means add up to {total:,.3f} per deal{negative}; '{share_head}' gives each seat an equal "
                f"share of it, so the seats add up to 0, docs/RULES.md A34")
    else:
        taken = " (the deal winner takes it)" if rules.winner_takes_pool else ""
        note = (f"fish per deal: what a seat won minus what it paid. Under {rules.name} the {pool} is empty when a "
                f"match ends{taken}, so the seats' means add up to 0 and there is no {pool} share to give")
    lines.append(textwrap.fill(f"({note})", width=100))
    meanings = fate_meanings(rules)
    lines.append("Quinola (J♥) fate, share of the deals:")
    for fate, rate in summary["quinola_fate"].items():
        lines.append(textwrap.fill(f"  {fate:<7} {rate:6.1%}  {meanings.get(fate, '')}", width=100,
                                   subsequent_indent=" " * 18))
    reversis, espagnolette = reversis_words(rules), espagnolette_words(rules)
    lines.append(not_played("Reversis", rules) if reversis is None else
                 f"Reversis (winning every trick): committed {summary['reversis_committed']:,} times ({reversis}), "
                 f"made {summary['reversis_made']:,}")
    lines.append(not_played("Espagnolette", rules) if espagnolette is None else
                 f"Espagnolette ({espagnolette}): declared {summary['espagnolette_declared']:,}, made "
                 f"{summary['espagnolette_made']:,}")
    return "\n".join(lines)
