// What the table shows of the server's answer: the line under each seat's hand (its category and chances,
// or what it lacks) and the odds panel beside the felt (every category, and the seats holding each).
"use strict";

// ``table``: { game(), values(), state(), card(id) } read afresh at each call; ``oddsPanel``: where the odds go
const TableOdds = (table, oddsPanel) => {
  const { el } = Preview;

  function showValues() {
    const game = table.game(), values = table.values(), state = table.state();
    document.querySelectorAll(".seat").forEach((box) => {
      const i = Number(box.dataset.seat);
      const line = box.querySelector(".value");
      const v = values && values.seats[i];
      line.className = "value";
      line.removeAttribute("data-at-least");
      line.removeAttribute("data-category");
      if (!game) line.textContent = "";
      else if (state.seats[i].hidden) {
        line.textContent = "hand hidden";
        line.classList.add("hidden-hand");
      } else if (!v) line.textContent = "\u2026";
      else if (v.needs) {
        line.textContent = v.needs;
        line.classList.add("needs");
      } else {
        line.textContent = v.line;
        line.dataset.category = v.category;
        if (v.at_least) line.dataset.atLeast = v.at_least.join("/");
        if (v.points !== undefined) line.append(el("span", { class: "now" }, " \u00b7 now " + v.points + " point" + (v.points === 1 ? "" : "s")));
        if (v.reading && [...v.reading].sort().join() !== [...v.cards].sort().join()) { // a wild card read as another
          line.append(el("span", { class: "reading" }, " \u00b7 counts as " + v.reading.map((id) => table.card(id).name).join(", ")));
        }
        line.classList.add(v.exact ? "exact" : "simulated");
      }
    });
  }

  function showOdds() {
    const game = table.game(), values = table.values(), state = table.state();
    const parts = [];
    if (!game) {
      parts.push(el("h2", {}, "No game"), el("p", { class: "muted" }, "No game is played with this deck: the table deals and moves cards, without odds."));
    } else if (!values) {
      parts.push(el("h2", {}, game.title), el("p", { class: "muted" }, "Counting the odds\u2026"));
    } else {
      const r = values.rules;
      parts.push(el("h2", {}, game.title), el("p", { class: "rules" }, [r.title, r.deck].filter((x) => x).join(" \u00b7 ")));
      if (r.modifiers && r.modifiers.length) parts.push(el("p", { class: "spell-in-force" }, "Under " + r.modifiers.join(", ")));
      parts.push(el("p", { class: "muted" }, "Odds of " + r.counted + "."));
      if (r.categories) {
        const held = new Map();
        values.seats.forEach((v, i) => {
          if (v.category && !state.seats[i].hidden) held.set(v.category, [...(held.get(v.category) || []), i + 1]);
        });
        parts.push(el("table", { class: "odds-table", id: "odds-table" },
          el("thead", {}, el("tr", {}, el("th", {}, "Hand (seats holding it)"), el("th", {}, "Chance"), el("th", {}, ""))),
          el("tbody", {}, ...r.categories.map((c) => el("tr", { class: held.has(c.name) ? "held" : "", "data-category": c.name },
            el("td", {}, c.name, ...(held.get(c.name) || []).map((n) => el("span", { class: "chip", title: state.seats[n - 1].name }, String(n)))),
            el("td", { class: "num" }, c.chance), el("td", { class: "num muted" }, c.one_in))))));
      } else {
        parts.push(el("p", { class: "muted" }, "Each row: its kind (left to right, ranks that score alike together), its expected points over every way the draws fall, and how often it beats a row laid at random."));
        const held = new Set(values.seats.filter((v, i) => v.category && !state.seats[i].hidden).map((v) => v.category));
        parts.push(el("h3", {}, "The best rows"), el("table", { class: "odds-table", id: "odds-table" },
          el("thead", {}, el("tr", {}, el("th", {}, "Row"), el("th", {}, "Points"), el("th", {}, "Beats"))),
          el("tbody", {}, ...r.best.map((b) => el("tr", { class: held.has(b.kind) ? "held" : "" },
            el("td", {}, b.kind), el("td", { class: "num" }, b.expected), el("td", { class: "num" }, b.beats))))));
      }
    }
    oddsPanel.replaceChildren(...parts);
  }

  return { showValues, showOdds };
};
