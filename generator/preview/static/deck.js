// A deck's statistics: cards by suit, rank, group and field (a histogram for numbers), how full each card's
// texts are in their boxes (the text fitting's own measure, the fullest first), and its games' odds.
"use strict";

(() => {
  const { el, getJSON } = Preview;
  const enc = encodeURIComponent;
  const slug = decodeURIComponent(location.pathname.split("/")[2] || "");
  const main = document.getElementById("stats");
  const SHOWN = 15; // texts listed before "show all"
  let stats = null;
  let texts = null;
  let showAll = false;

  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
  const cardsText = (n) => plural(n, "card", "cards");

  function panel(title, ...children) {
    return el("section", { class: "panel" }, el("h2", {}, title), ...children);
  }

  function countBars(rows, total, colours) {
    return Charts.bars(rows.map((r) => ({
      label: r.label, value: r.count, colour: colours ? r.colour : "",
      text: r.count + " \u00b7 " + Math.round((100 * r.count) / Math.max(1, total)) + " %",
    })), { width: 400 });
  }

  function suitsPanel() {
    const rows = stats.suits.map((s) => ({ label: s.name, count: s.count, colour: s.colour }));
    const notes = stats.suits.some((s) => !s.id && s.name === "every suit") ? el("p", { class: "note" }, "A card of every suit counts in each suit too.") : null;
    return panel("Suits", countBars(rows, stats.printed, true), notes);
  }

  function ranksPanel() {
    return panel("Ranks", Charts.columns(stats.ranks.map((r) => ({ label: r.label || r.name, value: r.count })), { width: 400 }),
      el("p", { class: "note" }, stats.ranks.map((r) => (r.label || r.id) + " " + r.name).join(" \u00b7 ")));
  }

  // Where a mean falls along the columns of a histogram (0: the middle of the first column).
  function meanPlace(bars, mean) {
    for (let i = 0; i < bars.length - 1; i++) {
      const a = (bars[i][0] + bars[i][1]) / 2, b = (bars[i + 1][0] + bars[i + 1][1]) / 2;
      if (mean <= b) return i + (mean - a) / (b - a || 1);
    }
    return bars.length - 1;
  }

  function fieldPanel(f) {
    const head = "Field \u00b7 " + f.name;
    const given = cardsText(f.cards) + " with it" + (f.missing ? ", " + f.missing + " without" : "");
    if (f.bars) {
      const number = (x) => String(Math.round(x * 100) / 100);
      const cols = f.bars.map(([a, b, n]) => ({ label: a === b ? number(a) : number(a) + "\u2013" + number(b), value: n }));
      const mean = number(f.mean);
      return panel(head, Charts.columns(cols, { width: 400, mean: meanPlace(f.bars, f.mean), meanText: "mean " + mean }),
        el("p", { class: "note" }, given + " \u00b7 from " + number(f.lowest) + " to " + number(f.highest) + ", mean " + mean));
    }
    if (f.length) {
      return panel(head, el("p", {}, given), el("p", { class: "note" },
        "Length in characters: shortest " + f.length.shortest + ", median " + f.length.median + ", longest " + f.length.longest +
        ". How full each text's box is: see below."));
    }
    const rows = (f.values || []).map(([value, n]) => ({ label: String(value), count: n }));
    return panel(head, rows.length ? countBars(rows, stats.printed) : el("p", { class: "note" }, "No card has a value."), el("p", { class: "note" }, given));
  }

  function gamePanel(g) {
    if (g.kind === "rows") {
      const parts = g.setups.map((s) => [el("h3", {}, s.title),
        Charts.bars(s.points.map(([p, share]) => ({ label: plural(p, "point", "points"), value: share, text: (100 * share).toFixed(2) + " %" }))),
        el("p", { class: "note" }, "The chance of each score, over every row laid and every way the draws fall. The best row: " + s.best +
          " (" + s.best_expected.toFixed(2) + " points expected).")]);
      return el("section", { class: "panel wide game-odds", "data-game": g.id }, el("h2", {}, g.title + " \u00b7 the odds of a row"), ...parts.flat());
    }
    const chart = Charts.bars(g.categories.map((c) => ({ label: c.name, value: c.probability, text: c.chance + " \u00b7 " + c.one_in })),
      { log: true, width: 620 });
    return el("section", { class: "panel wide game-odds", "data-game": g.id },
      el("h2", {}, g.title + " \u00b7 the odds of each hand"),
      el("p", { class: "note" }, g.ranking + " \u00b7 " + g.deck + " \u00b7 " + (g.exact ? "all " + g.total.toLocaleString("en") + " hands, counted exactly" : "simulated")),
      chart, el("p", { class: "note" }, "Bars on a logarithmic scale, best hand first: a bar twice as long is far more than twice as likely."));
  }

  function roomPanel() {
    const box = el("section", { class: "panel wide", id: "room" }, el("h2", {}, "Texts in their boxes, the fullest first"));
    if (texts === null) {
      box.append(el("p", { class: "note" }, "Measuring each card's texts\u2026"));
      return box;
    }
    if (!texts.length) {
      box.append(el("p", { class: "note" }, "No card lays out a text with fit()."));
      return box;
    }
    const shown = showAll ? texts : texts.slice(0, SHOWN);
    const rows = shown.map((t) => {
      const over = t.room < 0;
      const cls = over ? "over" : t.full >= 0.85 ? "tight" : "";
      const meter = el("div", { class: "meter", title: Math.round(100 * t.full) + " % of what the box takes at " + t.smallest + " mm" }, el("i"));
      meter.firstChild.style.width = Math.min(100, 100 * t.full) + "%";
      return el("tr", { class: cls, "data-card": t.card, "data-field": t.field },
        el("td", {}, el("a", { href: "/card/" + enc(slug) + "/" + enc(t.card), title: t.card }, t.name)),
        el("td", {}, t.field),
        el("td", { class: "num" }, t.length),
        el("td", { class: "num" }, over ? "cut " + -t.room : t.room >= 4096 ? "4,096 or more" : String(t.room)),
        el("td", {}, meter),
        el("td", { class: "num" }, t.size + " mm (" + t.smallest + " at least)"));
    });
    box.append(el("table", { class: "room" },
      el("thead", {}, el("tr", {}, ...["Card", "Text", "Characters", "Room left", "How full", "Type size"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)));
    if (texts.length > SHOWN) {
      const more = el("button", { type: "button", class: "room-more" }, showAll ? "Show the fullest " + SHOWN : "Show all " + texts.length + " texts");
      more.addEventListener("click", () => {
        showAll = !showAll;
        draw();
      });
      box.append(more);
    }
    box.append(el("p", { class: "note" }, "Room left: how many more characters (of the text's own letters) fit at the smallest size the template allows, " +
      "as the text fitting measures it; a text that does not fit says how many to cut."));
    return box;
  }

  function draw() {
    if (!stats) return;
    const s = stats;
    const parts = [];
    if (s.suits.some((x) => x.id)) parts.push(suitsPanel());
    if (s.ranks.some((x) => x.id)) parts.push(ranksPanel());
    if (s.groups.length > 1) parts.push(panel("Groups", countBars(s.groups.map(([g, n]) => ({ label: g, count: n })), s.printed)));
    for (const f of s.fields) parts.push(fieldPanel(f));
    const games = s.games.map(gamePanel);
    if (s.problem) games.push(el("section", { class: "panel wide" }, el("h2", {}, "Games"), el("p", { class: "problem" }, s.problem)));
    main.replaceChildren(
      el("div", { class: "stats-head" }, el("h1", {}, s.title), el("code", {}, s.key),
        el("span", { class: "meta" }, cardsText(s.printed) + " printed from " + plural(s.faces, "face", "faces")),
        el("div", { class: "links" },
          el("a", { href: "/#deck-" + enc(slug) }, "The cards"),
          el("a", { href: "/hand/" + enc(slug) }, "Hold a hand"),
          el("a", { href: "/table/" + enc(slug), id: "table-link" }, "Play at the table"))),
      el("div", { class: "stats-grid" }, ...games, ...parts, roomPanel()));
    document.title = s.title + " \u00b7 statistics \u00b7 Aetherpress preview";
    const link = document.getElementById("deck-link");
    link.textContent = s.title;
    link.href = "/#deck-" + enc(slug);
  }

  async function measure() {
    const response = await fetch("/api/textroom/" + enc(slug), { cache: "no-store" });
    if (response.ok) texts = (await response.json()).texts;
    else if (response.status === 503) return setTimeout(measure, 1000);
    else texts = [];
    draw();
  }

  async function load() {
    const response = await fetch("/api/stats/" + enc(slug), { cache: "no-store" });
    if (!response.ok) {
      main.replaceChildren(el("p", { class: "empty", id: "gone" }, (await response.text()).trim()));
      return;
    }
    stats = await response.json();
    draw();
    measure();
  }

  let structure = null;
  Preview.on("state", (state) => {
    if (structure !== null && state.structure !== structure) load();
    structure = state.structure;
  });
  Preview.on("sides", () => stats && measure());
  Preview.on("resync", () => getJSON("/api/state").then((state) => Preview.showState(state)));
  Preview.connect();
  load();
})();
