// The deal page (reversis_sim/plot/page.py): it reads the deal records and reviews embedded in the page and draws
// them. Nothing is fetched. A step of a deal is the deal, the table before the first lead (the exchange, the
// declaration), each trick, then the settlement; the arrow keys and the buttons move between them.
"use strict";
(() => {
  const DATA = JSON.parse(document.getElementById("deal-data").textContent);
  const WORDS = DATA.words;
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const state = { deal: 0, step: 0, chosen: null };

  function h(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(3)) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  }
  const colour = (suit) => (suit === "H" || suit === "D" ? "red" : "black");
  const seatName = (s) => (s === "pool" ? "pool" : "S" + s);
  const signed = (x) => (x === null ? "\u2014" : (x > 0 ? "+" : "") + x);
  const fixed = (x, digits = 1) => (x === null ? "\u2014" : x.toFixed(digits));
  const signedFixed = (x) => (x === null ? "\u2014" : (x > 0 ? "+" : "") + x.toFixed(1));
  const isCard = (name) => typeof name === "string" && name.length === 2 && SUITS.includes(name[1]);

  function card(name) {
    const cls = ["card", colour(name[1])];
    if (name === "JH") cls.push("quinola");
    else if (name[0] === "A") cls.push("ace");
    return h("span", { class: cls.join(" ") }, (name[0] === "T" ? "10" : name[0]) + SYMBOL[name[1]]);
  }
  const option = (name) => (isCard(name) ? card(name) : h("span", { class: "option" }, name));

  function seatOrder(n, dealer, sitsOut, first) {
    const out = [];
    for (let k = 0; k < n; k++) {
      const s = (first + k) % n;
      if (!(sitsOut && s === dealer)) out.push(s);
    }
    return out;
  }

  function model(item) {
    const r = item.record, rp = r.rules_params, n = rp.n_seats;
    const sitsOut = !!rp.dealer_sits_out;
    const tricks = r.tricks.map((t, i) => ({
      number: i + 1, leader: t.leader, winner: t.winner,
      plays: seatOrder(n, r.dealer, sitsOut, t.leader).map((s, k) => ({ seat: s, card: t.cards[k], position: k })),
    }));
    const steps = [{ kind: "dealt", label: "the deal" }, { kind: "lead", label: "before the first lead" }];
    for (const t of tricks) steps.push({ kind: "trick", trick: t, label: "trick " + t.number + " of " + tricks.length });
    steps.push({ kind: "end", label: "the settlement" });
    const decisions = item.review ? item.review.decisions.map((d, i) => ({ ...d, index: i, step: d.trick + 1 })) : [];
    const names = item.names || r.seats;  // each seat's policy as a person knows it: a preset by its name
    return { item, record: r, n, sitsOut, tricks, steps, decisions, names, facts: item.facts,
      ranks: rp.ranks || "AKQJ98765432" };
  }
  const models = DATA.deals.map(model);

  function handsAt(m, step) {
    const st = m.steps[step];
    if (st.kind === "dealt") return m.record.dealt;
    const upto = st.kind === "lead" ? 0 : st.kind === "end" ? m.tricks.length : st.trick.number;
    const gone = new Set();
    for (const t of m.tricks.slice(0, upto)) for (const p of t.plays) gone.add(p.card);
    return m.record.hands.map((hand) => hand.filter((c) => !gone.has(c)));
  }

  function paidBy(m, step) {
    // the payments made by the end of a step: the antes from the deal on, each trick's, the settlement's at the end
    const st = m.steps[step];
    return m.record.payments.filter((p) => {
      if (st.kind === "end") return true;
      if (p.trick === null) return p.reason === "ante";
      return st.kind === "trick" && p.trick <= st.trick.number;
    });
  }

  function running(m, step) {
    const fish = new Array(m.n).fill(0);
    let pool = m.record.pool_before;
    for (const p of paidBy(m, step)) {
      if (p.from === "pool") pool -= p.amount; else fish[p.from] -= p.amount;
      if (p.to === "pool") pool += p.amount; else fish[p.to] += p.amount;
    }
    const won = new Array(m.n).fill(0);
    const st = m.steps[step];
    const upto = st.kind === "end" ? m.tricks.length : st.kind === "trick" ? st.trick.number : 0;
    for (const t of m.tricks.slice(0, upto)) won[t.winner] += 1;
    return { fish, pool, won };
  }

  const moveText = (p) => `${WORDS.reasons[p.reason] || p.reason} ${seatName(p.from)}\u2192${seatName(p.to)} ${p.amount}`;

  function handBox(m, hand) {
    const order = {};
    [...m.ranks].forEach((r, i) => { order[r] = i; });
    return h("div", { class: "hand" }, SUITS.map((suit) => {
      const cards = hand.filter((c) => c[1] === suit).sort((a, b) => order[a[0]] - order[b[0]]);
      return h("div", { class: "suit-row" }, h("span", { class: "suit " + colour(suit) }, SYMBOL[suit]),
        cards.length ? cards.map(card) : h("span", { class: "void" }, "\u2014"));
    }));
  }

  function seatBox(m, s, hand, run, st) {
    const r = m.record, policy = r.seats[s];
    const out = m.sitsOut && s === r.dealer;
    const winner = st.kind === "trick" && st.trick.winner === s;
    return h("div", { class: "seat" + (winner ? " winner" : ""), "data-seat": s, style: `grid-area: p${s}` },
      h("div", { class: "seat-head" }, h("b", {}, "S" + s),
        h("span", { class: "policy", title: policy }, policy === "human" ? "you" : m.names[s].split(":")[0]),
        s === r.dealer ? h("span", { class: "badge" }, "dealer") : null,
        st.kind === "trick" && st.trick.leader === s ? h("span", { class: "badge lead" }, "leads") : null),
      out ? h("div", { class: "sits-out" }, "sits out (deals)") : handBox(m, hand),
      h("div", { class: "seat-foot" }, "fish ", h("span", { class: "fish" }, signed(run.fish[s])),
        " \u00b7 tricks ", h("span", { class: "won" }, String(run.won[s]))));
  }

  function markOf(m, trick, position) {
    const d = m.decisions.find((x) => x.trick === trick && x.position === position && x.mark);
    return d ? d.mark : null;
  }

  function middle(m, st, run) {
    const r = m.record, lines = [];
    const pool = h("div", { class: "line" }, "pool ", h("span", { id: "pool" }, String(run.pool)));
    if (st.kind === "dealt") {
      lines.push(h("div", { class: "line" }, `S${r.dealer} deals`), pool);
      const offered = r.talon_offered.map((c, s) => [s, c]).filter(([, c]) => c !== null);
      if (offered.length) {
        lines.push(h("div", { class: "exchange" }, "face down before each seat:",
          offered.map(([s, c]) => h("div", {}, `S${s} `, card(c)))));
      }
    } else if (st.kind === "lead") {
      lines.push(pool);
      if (r.exchanges.length) {
        lines.push(h("div", { class: "exchange" }, r.exchanges.map((e) => {
          const got = r.talon_offered[e.seat];
          const decision = m.decisions.find((d) => d.trick === 0 && d.seat === e.seat && d.kind === "exchange");
          const mark = decision ? decision.mark : null;
          const what = e.discard === null ? ["keeps its hand, looks at ", card(got)]
            : e.took && got !== null ? ["discards ", card(e.discard), ", takes ", card(got)] : ["discards ", card(e.discard)];
          return h("div", {}, `S${e.seat} `, what, mark ? h("span", { class: "mark" }, " " + mark) : null);
        })));
        lines.push(h("div", { class: "line" }, "talon ", r.talon.map(card)));
      } else {
        lines.push(h("div", { class: "line" }, "no talon, no exchange"));
      }
      lines.push(h("div", { class: "line" }, r.espagnolette === null ? "no declaration"
        : `S${r.espagnolette.seat} declares the espagnolette` + (r.espagnolette.goal ? `, goal ${r.espagnolette.goal.replace("_", " ")}` : "")));
    } else if (st.kind === "trick") {
      const t = st.trick;
      lines.push(h("div", { class: `trick seats-${m.n}`, id: "trick" }, t.plays.map((p) => {
        const mark = markOf(m, t.number, p.position);
        return h("div", { class: "play" + (p.seat === t.winner ? " winner" : ""), "data-seat": p.seat, style: `grid-area: p${p.seat}` },
          card(p.card), mark ? h("span", { class: "mark" }, mark) : null,
          h("span", { class: "who" }, `S${p.seat}` + (p.position === 0 ? " leads" : "")));
      })));
      lines.push(h("div", { class: "line", id: "winner" }, `S${t.winner} wins the trick`), pool);
      const moved = r.payments.filter((p) => p.trick === t.number).map(moveText);
      const notes = (m.facts.tricks[String(t.number)] || []).concat(moved);
      if (notes.length) lines.push(h("div", { class: "moves", id: "moved" }, notes.map((x) => h("div", {}, x))));
    } else {
      lines.push(h("div", { class: "line" }, "pool ", h("span", { id: "pool" }, String(run.pool)),
        ` (${r.pool_before} before the deal)`));
      const settle = r.payments.filter((p) => p.trick === null && p.reason !== "ante").map(moveText);
      lines.push(h("div", { class: "moves", id: "moved" }, m.facts.end.concat(settle).map((x) => h("div", {}, x))));
    }
    return h("div", { class: "mid" }, lines);
  }

  function renderTable(m) {
    const st = m.steps[state.step], run = running(m, state.step), hands = handsAt(m, state.step);
    const seats = [];
    for (let s = 0; s < m.n; s++) seats.push(seatBox(m, s, hands[s] || [], run, st));
    return h("div", { class: `felt seats-${m.n}`, id: "felt", "data-step": st.kind }, seats, middle(m, st, run));
  }

  function renderControls(m) {
    const marked = new Set(m.decisions.filter((d) => d.mark).map((d) => d.step));
    const short = (st, i) => (st.kind === "dealt" ? "deal" : st.kind === "lead" ? "lead" : st.kind === "end" ? "end" : String(i - 1));
    return [
      h("button", { onclick: () => go(0), title: "the deal (Home)" }, "\u00ab"),
      h("button", { onclick: () => go(state.step - 1), title: "back (\u2190)", id: "back" }, "\u25c0"),
      h("button", { onclick: () => go(state.step + 1), title: "forward (\u2192)", id: "forward" }, "\u25b6"),
      h("button", { onclick: () => go(m.steps.length - 1), title: "the settlement (End)" }, "\u00bb"),
      h("span", { id: "step-label" }, m.steps[state.step].label),
      h("span", { class: "steps" }, m.steps.map((st, i) => h("button", {
        class: [i === state.step ? "now" : "", marked.has(i) ? "marked" : ""].join(" ").trim() || null,
        onclick: () => go(i), title: st.label,
      }, short(st, i)))),
    ];
  }

  function decisionBlock(d) {
    const options = d.options.slice().sort((a, b) => (b.value ?? -1e9) - (a.value ?? -1e9));
    return h("div", { class: "decision" + (state.chosen === d.index ? " chosen" : ""), id: "decision-" + d.index, "data-decision": d.index },
      h("div", { class: "decision-head" }, `S${d.seat} \u00b7 ${d.kind}` + (d.trick ? ` \u00b7 trick ${d.trick}` : ""),
        d.mark ? h("span", { class: "mark" }, ` ${d.mark} ${WORDS.marks[d.mark]}`) : null),
      h("div", {}, "played ", option(d.played), ` ${signedFixed(d.value_played)} \u00b7 best `, option(d.best),
        ` ${signedFixed(d.value_best)}`),
      h("div", {}, `loss ${fixed(d.loss)} \u00b1 ${fixed(d.loss_se)} fish \u00b7 hindsight best `, option(d.hindsight_best),
        ` (loss ${fixed(d.hindsight_loss, 0)})`),
      h("table", { class: "options" },
        h("tr", {}, h("th", {}, "option"), h("th", { class: "num" }, "value \u00b1 se"), h("th", { class: "num" }, "hindsight")),
        options.map((o) => h("tr", {
          class: [o.card === d.best ? "best" : "", o.card === d.played ? "played" : ""].join(" ").trim() || null,
          "data-option": o.card,
        }, h("td", {}, option(o.card), o.card === d.played ? h("small", {}, " played") : null,
          o.card === d.best ? h("small", {}, " best") : null),
        h("td", { class: "num value" }, `${signedFixed(o.value)} \u00b1 ${fixed(o.se)}`),
        h("td", { class: "num" }, signedFixed(o.hindsight))))));
  }

  function decisionName(d) {
    const where = d.trick ? `trick ${d.trick}` : d.kind;
    return [`${where} \u00b7 S${d.seat} played `, option(d.played), ", best ", option(d.best),
      ` \u00b7 lost ${fixed(d.loss)} \u00b1 ${fixed(d.loss_se)}`, d.mark ? h("span", { class: "mark" }, " " + d.mark) : null];
  }

  function renderReview(m) {
    const review = m.item.review;
    if (!review) return [];
    const s = review.review;
    const out = [h("h2", {}, "Review"),
      h("p", { class: "note" }, `Each option played out in ${s.worlds} worlds consistent with what the seat knew, by ` +
        `${s.rollout_name} in every seat; values in fish \u00b1 one standard error. Marks where the loss exceeds twice ` +
        "its standard error and " + Object.entries(WORDS.thresholds).map(([k, v]) => `${v} (${k} ${WORDS.marks[k]})`).join(", ") + " fish.")];
    out.push(h("table", { id: "seat-review" },
      h("tr", {}, ["seat", "decisions", "lost", "error rate", "marks", "fish", "luck", "luck-adjusted"].map((x, i) =>
        h("th", { class: i ? "num" : null }, x))),
      review.seats.map((p) => h("tr", { "data-seat": p.seat }, h("td", {}, "S" + p.seat),
        h("td", { class: "num" }, `${p.non_forced} of ${p.decisions}`), h("td", { class: "num" }, fixed(p.total_loss)),
        h("td", { class: "num error-rate" }, fixed(p.mean_loss, 2)),
        h("td", { class: "num" }, Object.entries(p.marks).filter(([, n]) => n).map(([k, n]) => `${n}${k}`).join(" ") || "\u2014"),
        h("td", { class: "num" }, signed(p.fish)), h("td", { class: "num" }, signedFixed(p.luck)),
        h("td", { class: "num" }, signedFixed(p.luck_adjusted))))));
    out.push(h("p", { class: "note" }, "error rate: fish lost per decision that was not forced; luck: what the hand " +
      "dealt was worth against the average hand (\u2014 where the deal cannot be dealt again)."));
    const costly = m.decisions.filter((d) => d.loss > 0).sort((a, b) => b.loss - a.loss).slice(0, 10);
    out.push(h("h2", {}, "The costliest decisions"));
    out.push(costly.length ? h("ol", { class: "costliest", id: "costliest" }, costly.map((d) => h("li", {},
      h("button", { "data-decision": d.index, onclick: () => choose(d) }, decisionName(d)))))
      : h("p", { class: "note" }, "no decision lost fish"));
    const here = m.decisions.filter((d) => d.step === state.step);
    out.push(h("h2", {}, "Decisions: " + m.steps[state.step].label));
    out.push(here.length ? h("div", { id: "decisions" }, here.map(decisionBlock))
      : h("p", { class: "note" }, m.steps[state.step].kind === "trick" || m.steps[state.step].kind === "lead"
        ? "no reviewed decision with more than one distinct option" : "none at this step"));
    return out;
  }

  function renderMatch() {
    if (models.length < 2) return [];
    const n = Math.max(...models.map((m) => m.n));
    const total = new Array(n).fill(0);
    const rows = models.map((m, i) => {
      const r = m.record;
      r.result.fish.forEach((f, s) => { total[s] += f; });
      return h("tr", { class: "deal-row" + (i === state.deal ? " now" : ""), "data-deal": i, onclick: () => openDeal(i) },
        h("td", {}, String(r.deal)), h("td", {}, "S" + r.dealer),
        h("td", { class: "num" }, `${r.pool_before} \u2192 ${r.result.pool_after}`),
        r.result.fish.map((f) => h("td", { class: "num" }, signed(f))),
        total.map((f) => h("td", { class: "num running" }, signed(f))));
    });
    const seats = [...Array(n).keys()];
    return [h("h2", {}, `The match: ${models.length} deals, the pool carried from deal to deal`),
      h("table", { id: "deals" },
        h("tr", {}, h("th", {}, "deal"), h("th", {}, "dealer"), h("th", { class: "num" }, "pool"),
          seats.map((s) => h("th", { class: "num" }, `S${s}`)), seats.map((s) => h("th", { class: "num" }, `S${s} running`))),
        rows),
      h("p", { class: "keys" }, h("button", { onclick: () => openDeal(state.deal - 1) }, "previous deal"), " ",
        h("button", { onclick: () => openDeal(state.deal + 1) }, "next deal"), " PageUp / PageDown")];
  }

  function render() {
    const m = models[state.deal], r = m.record;
    const seats = new Set(m.names).size === 1 ? `every seat ${m.names[0]}` : m.names.map((p, s) => `S${s} ${p}`).join(", ");
    document.getElementById("subtitle").textContent = `${models.length > 1 ? "deal " + r.deal + " \u00b7 " : ""}dealer ` +
      `S${r.dealer} \u00b7 pool before ${r.pool_before} \u00b7 ${seats}`;
    document.getElementById("match").replaceChildren(...renderMatch());
    document.getElementById("table").replaceChildren(renderTable(m));
    document.getElementById("controls").replaceChildren(...renderControls(m));
    document.getElementById("side").replaceChildren(...renderReview(m));
    document.body.dataset.deal = String(state.deal);
    document.body.dataset.step = String(state.step);
  }

  function go(step) {
    const m = models[state.deal];
    const next = Math.max(0, Math.min(m.steps.length - 1, step));
    if (next !== state.step) state.chosen = null;
    state.step = next;
    render();
  }
  function openDeal(i) {
    if (i < 0 || i >= models.length || i === state.deal) return;
    state.deal = i;
    state.step = 0;
    state.chosen = null;
    render();
  }
  function choose(d) {
    state.step = d.step;
    state.chosen = d.index;
    render();
    document.getElementById("decision-" + d.index).scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowRight: () => go(state.step + 1), ArrowLeft: () => go(state.step - 1), Home: () => go(0),
      End: () => go(models[state.deal].steps.length - 1), PageDown: () => openDeal(state.deal + 1),
      PageUp: () => openDeal(state.deal - 1) };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
  render();
})();
