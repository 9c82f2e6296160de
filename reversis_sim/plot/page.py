"""A deal, a match or a review as one HTML page a person opens in a browser (``--format html`` of ``replay``,
``review`` and ``play --show``): the table from above with the hands by suit, the dealer, the pool, the talon and
the exchange; the play trick by trick, forward and back with the buttons and the arrow keys, each trick's winner
and what moved (fish, the Quinola, the reversis, the espagnolette) with the running fish; with a review, at each
decision its options valued ± their standard error, the best, the mark and the hindsight best, the seats' error
rates and luck, and the costliest decisions to jump to; a match (several deals) as a list of deals with the pool
carried from one to the next.

The page is self-contained: the deal records (RULES.md Appendix A) and the reviews (``review --format json``) are
embedded in it as strict JSON, drawn by the small script ``page.js`` with the style sheet ``page.css`` (package
data, inlined), the cards as text. Its content security policy lets it fetch nothing, so it works offline and can be
sent to another player as one file. Nothing is computed here beyond the words of what happened at each trick
(:func:`deal_facts`); the record stays the one truth.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from importlib import resources

from .. import cards as C
from ..game.diagram import REASON_WORDS, SUIT_SYMBOLS
from ..game.vocabulary import FATES, quinola_fate
from ..policies import display_name
from ..record import strict_json
from ..review.marks import MARK_NAMES, THRESHOLDS

ASSETS = ("page.css", "page.js")
"""The page's style sheet and script, package data of :mod:`reversis_sim.plot` (pyproject.toml's package-data)."""

POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
          "base-uri 'none'; form-action 'none'")
"""The page's content security policy: its own inline script and style, nothing fetched from anywhere."""


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def deal_facts(record: dict) -> dict:
    """What happened beyond the chips, in words, for the page: per trick (by its number as text) what became of the
    Quinola and of a reversis; at the end the Quinola's fate, the reversis, the espagnolette, the party, the fish,
    and where the rules have them the penalties (the ``modern`` family) or the scores (simple scoring)."""
    result, rp = record["result"], record["rules_params"]
    tricks: dict[str, list[str]] = {}
    fate, fate_trick = quinola_fate(tuple(C.parse(c) for c in tr["cards"]) for tr in record["tricks"])
    if fate_trick:
        tricks.setdefault(str(fate_trick), []).append(f"the Quinola (J{SUIT_SYMBOLS[1]}) is {FATES[fate]}")
    end = ["the Quinola never played (in the talon)" if not fate_trick else
           f"the Quinola {FATES[fate]} at trick {fate_trick}"]
    rev = result.get("reversis")
    if rev is not None:
        commit = int(rp.get("reversis_commit_after") or 0)
        if commit:
            tricks.setdefault(str(commit), []).append(f"S{rev['seat']} has won tricks 1-{commit}: committed to the "
                                                      f"reversis")
        broken = next((t for t, tr in enumerate(record["tricks"], start=1) if t > commit and
                       tr["winner"] != rev["seat"]), None)
        if broken is not None and not rev["made"]:
            tricks.setdefault(str(broken), []).append(f"S{record['tricks'][broken - 1]['winner']} takes a trick: "
                                                      f"the reversis is broken")
        end.append(f"the reversis of S{rev['seat']} " + ("made" if rev["made"] else f"broken by S{rev['breaker']}"))
    esp = result.get("espagnolette")
    if esp is not None:
        end.append(f"the espagnolette of S{esp['seat']} " + ("made" if esp["made"] else "failed"))
    if result.get("party_winner") is not None:
        end.append(f"the party won by S{result['party_winner']}")
    end.append("fish " + " · ".join(f"S{s} {v:+d}" for s, v in enumerate(result["fish"])))
    if "penalty" in result:  # the modern family's card points and surcharges
        end.append("penalty " + " · ".join(f"S{s} {v}" for s, v in enumerate(result["penalty"])))
    if "score" in result:  # simple scoring: card points, not fish
        end.append("score " + " · ".join(f"S{s} {v}" for s, v in enumerate(result["score"])) + " · running " +
                   " ".join(str(v) for v in result["score_after"]))
    return {"tricks": tricks, "end": end}


def _item(shown: dict) -> dict:
    """One deal of the page: a deal record, or a review (``review --format json``: the record and its review)."""
    if "decisions" in shown and "record" in shown:
        record = shown["record"]
        review = {k: v for k, v in shown.items() if k != "record"}
    else:
        record, review = shown, None
    return {"record": record, "review": review, "facts": deal_facts(record),
            "names": [display_name(s) for s in record["seats"]]}  # a person's seat, "human", stays so


def page_title(shown: Sequence[dict]) -> str:
    """The page's title: the rules, the seed, the match and the deal (or how many deals), and whether reviewed."""
    first = shown[0].get("record", shown[0])
    reviewed = " reviewed" if any("decisions" in x for x in shown) else ""
    where = f"deal {first['deal']}" if len(shown) == 1 else f"{len(shown)} deals"
    return f"Reversis · {first['rules']} · seed {first['run_seed']} · match {first['match']} · {where}{reviewed}"


def deal_page(shown: Sequence[dict], *, title: str | None = None) -> str:
    """The HTML page of the deals ``shown`` (each a deal record or a review of one deal, in the order of the match;
    one deal, or a match drawn as its list of deals): one self-contained document (module docstring)."""
    if not shown:
        raise ValueError("a page shows at least one deal")
    data = {"words": {"reasons": REASON_WORDS, "marks": MARK_NAMES, "thresholds": THRESHOLDS},
            "deals": [_item(x) for x in shown]}
    # strict JSON, in a script element: "<" written as its escape, so that no text of the data closes the element
    embedded = strict_json(data, separators=(",", ":"), ensure_ascii=False)
    embedded = embedded.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = html.escape(title or page_title(shown))
    css, js = (_asset(name) for name in ASSETS)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{css}</style>
</head>
<body>
<header><h1>{title}</h1><p class="sub" id="subtitle"></p>
<p class="keys">← → step through the deal (Home, End: its start and its settlement)</p></header>
<nav id="match"></nav>
<main><section id="play"><div id="table"></div><div id="controls"></div></section><aside id="side"></aside></main>
<noscript><p>This page draws the deal with its own inline script: allow JavaScript to see it.</p></noscript>
<script type="application/json" id="deal-data">{embedded}</script>
<script>
{js}</script>
</body>
</html>
"""
