"""The deal page in a real browser: headless Chromium opens a reviewed deal's page and a match's page from disk,
the test steps through every trick with the keyboard as a person does and reads the rendered page back: the cards
shown at each step are the deal record's, the running fish its payments', the fish at the end the settlement's; a
decision chosen from the list of the costliest shows its options as the review valued them; the match's list
carries the pool from deal to deal. No error reaches the browser's console and nothing but the page is fetched.

Chromium is driven over its DevTools protocol on a pipe (tests/browser.py). CI installs Debian's ``chromium``
(.ci/run); elsewhere, without one, the test is skipped (with ``CI`` set it fails instead).
"""

from __future__ import annotations

import os

import pytest
from browser import Browser, find_chromium

from reversis_sim.engines import get_engine
from reversis_sim.game.diagram import SUIT_SYMBOLS, seat_order
from reversis_sim.plot.page import deal_page
from reversis_sim.policies import parse_seats
from reversis_sim.review import review_deal
from reversis_sim.review.settings import review_settings
from reversis_sim.rules import PRESETS

CHROMIUM = find_chromium()

STATE = """(() => {
  const text = (e) => e ? e.textContent : null;
  const shown = (e) => e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== "hidden";
  const hands = {};
  for (const seat of document.querySelectorAll("#felt .seat")) {
    hands[seat.dataset.seat] = [...seat.querySelectorAll(".hand .card")].filter(shown).map(text);
  }
  const fish = {};
  for (const seat of document.querySelectorAll("#felt .seat")) {
    fish[seat.dataset.seat] = text(seat.querySelector(".fish"));
  }
  return {
    step: text(document.getElementById("step-label")), hands, fish, pool: text(document.getElementById("pool")),
    trick: [...document.querySelectorAll("#trick .play")].filter(shown)
      .map((p) => [+p.dataset.seat, text(p.querySelector(".card"))]),
    winner: [...document.querySelectorAll("#trick .play.winner")].map((p) => +p.dataset.seat),
    subtitle: text(document.getElementById("subtitle")),
  };
})()"""

CHOSEN = """(() => {
  const d = document.querySelector(".decision.chosen");
  const r = d.getBoundingClientRect();
  return {
    visible: r.bottom > 0 && r.top < innerHeight, head: d.querySelector(".decision-head").textContent,
    options: [...d.querySelectorAll("tr[data-option]")].map((tr) => [
      tr.querySelector("td .card, td .option").textContent, tr.querySelector("td.value").textContent, tr.className]),
  };
})()"""


def card_name(text: str) -> str:
    """A card as the page shows it (``10♠``, ``J♥``) as the record writes it (``TS``, ``JH``)."""
    return ("T" if text.startswith("10") else text[0]) + "SHDC"[SUIT_SYMBOLS.index(text[-1])]


def running_fish(record: dict, trick: int | None) -> tuple[list[int], int]:
    """Each seat's fish and the pool once trick ``trick`` is played (None: at the settlement), from the payments."""
    fish, pool = [0] * len(record["seats"]), record["pool_before"]
    for p in record["payments"]:
        if trick is not None and not (p["reason"] == "ante" if p["trick"] is None else p["trick"] <= trick):
            continue
        for party, sign in ((p["from"], -1), (p["to"], 1)):
            if party == "pool":
                pool += sign * p["amount"]
            else:
                fish[party] += sign * p["amount"]
    return fish, pool


def signed(x) -> str:
    return f"{x:+d}" if x else "0"


@pytest.fixture(scope="module")
def chromium():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium to test the deal page in: .ci/run installs Debian's chromium")
        pytest.skip("no Chromium (apt-get install chromium; .ci/run installs it)")
    with Browser(CHROMIUM) as browser:
        yield browser


def test_a_person_steps_through_a_reviewed_deal_and_a_match_in_the_browser(chromium, tmp_path):
    rules = PRESETS["parlett"]
    seats = parse_seats(["tuned"])
    review = review_deal(rules, seats, seed=7, match=0, deal=3,
                         settings=review_settings(4, seats, [0, 1, 2, 3], 4, "tuned", 0))
    record = review["record"]
    page = tmp_path / "deal.html"
    page.write_text(deal_page([review]), encoding="utf-8")
    assert page.stat().st_size < 200_000
    b = chromium
    b.open(page.as_uri())

    def state() -> dict:
        s = b.evaluate(STATE)
        s["hands"] = {int(k): sorted(card_name(c) for c in v) for k, v in s["hands"].items()}
        s["fish"] = {int(k): v for k, v in s["fish"].items()}
        s["trick"] = [(seat, card_name(c)) for seat, c in s["trick"]]
        return s

    n = len(record["seats"])
    s = state()  # the deal: the hands as dealt
    assert s["step"] == "the deal" and s["hands"] == {k: sorted(record["dealt"][k]) for k in range(n)}
    b.press("ArrowRight")  # before the first lead: the hands after the exchange
    s = state()
    assert s["step"] == "before the first lead" and s["hands"] == {k: sorted(record["hands"][k]) for k in range(n)}
    held = [set(h) for h in record["hands"]]
    for t, tr in enumerate(record["tricks"], start=1):
        b.press("ArrowRight")
        s = state()
        order = seat_order(n, record["dealer"], False, tr["leader"])
        assert s["step"] == f"trick {t} of {len(record['tricks'])}"
        assert s["trick"] == list(zip(order, tr["cards"])) and s["winner"] == [tr["winner"]]
        for seat, card in zip(order, tr["cards"]):
            held[seat].discard(card)
        assert s["hands"] == {k: sorted(held[k]) for k in range(n)}
        fish, pool = running_fish(record, t)
        assert s["fish"] == {k: signed(fish[k]) for k in range(n)} and s["pool"] == str(pool)
    b.press("ArrowRight")  # the settlement: the fish the record settles
    s = state()
    assert s["step"] == "the settlement" and all(not h for h in s["hands"].values())
    assert s["fish"] == {k: signed(record["result"]["fish"][k]) for k in range(n)}
    assert s["pool"] == str(record["result"]["pool_after"])
    assert running_fish(record, None) == (record["result"]["fish"], record["result"]["pool_after"])
    b.press("ArrowRight")  # past the end: it stays
    assert state()["step"] == "the settlement"
    b.press("ArrowLeft")  # back: the last trick again
    last = record["tricks"][-1]
    assert state()["trick"] == list(zip(seat_order(n, record["dealer"], False, last["leader"]), last["cards"]))
    b.press("Home")
    assert state()["step"] == "the deal"

    # the costliest decision, chosen from its list with the mouse: its step shown, its options as reviewed
    costliest = max((d for d in review["decisions"] if d["loss"] > 0), key=lambda d: d["loss"])
    b.click("#costliest button")
    chosen = b.evaluate(CHOSEN)
    assert chosen["visible"] and chosen["head"].startswith(f"S{costliest['seat']} · {costliest['kind']}")
    expected = sorted(costliest["options"], key=lambda o: -o["value"])
    assert [card_name(o[0]) if o[0][-1] in SUIT_SYMBOLS else o[0] for o in chosen["options"]] == [
        o["card"] for o in expected]
    assert [o[1] for o in chosen["options"]] == [f"{o['value']:+.1f} ± {o['se']:.1f}".replace("+-", "-")
                                                 for o in expected]
    assert [("best" in o[2], "played" in o[2]) for o in chosen["options"]] == [
        (o["card"] == costliest["best"], o["card"] == costliest["played"]) for o in expected]
    s = state()
    if costliest["trick"]:
        tr = record["tricks"][costliest["trick"] - 1]
        assert s["step"].startswith(f"trick {costliest['trick']} ")
        assert s["trick"] == list(zip(seat_order(n, record["dealer"], False, tr["leader"]), tr["cards"]))
    else:
        assert s["step"] == "before the first lead"
    rates = b.evaluate("[...document.querySelectorAll('#seat-review tr[data-seat] .error-rate')]"
                       ".map(e => e.textContent)")
    assert rates == [f"{p['mean_loss']:.2f}" for p in review["seats"]]

    # a whole match: the list of its deals with the pool carried, PageDown to the next deal
    match = get_engine("numba").match_records(rules, seats, seed=7, match=0)
    whole = tmp_path / "match.html"
    whole.write_text(deal_page(match), encoding="utf-8")
    assert whole.stat().st_size < 1_000_000
    b.open(whole.as_uri())
    rows = b.evaluate("[...document.querySelectorAll('#deals tr[data-deal]')].map(r => "
                      "[...r.querySelectorAll('td')].map(td => td.textContent))")
    assert len(rows) == 12
    for row, rec in zip(rows, match):
        pool = f"{rec['pool_before']} → {rec['result']['pool_after']}"
        assert row[:3] == [str(rec["deal"]), f"S{rec['dealer']}", pool]
    assert all(a["result"]["pool_after"] == b_["pool_before"] for a, b_ in zip(match, match[1:]))
    running = [sum(rec["result"]["fish"][k] for rec in match) for k in range(n)]
    assert rows[-1][3 + n:] == [signed(x) for x in running]
    b.press("PageDown")
    s = state()
    assert s["subtitle"].startswith("deal 1 ·") and s["hands"] == {k: sorted(match[1]["dealt"][k]) for k in range(n)}

    assert b.errors() == []
    assert set(b.requests()) <= {page.as_uri(), whole.as_uri()}
