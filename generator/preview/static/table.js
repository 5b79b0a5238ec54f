// The playtest table: a seeded deal to 2-6 seats, a draw pile, a shared row, the discard pile and the game's
// spells; cards drawn, passed, flipped and dragged; undo; and what each hand is worth, as the server counts it.
"use strict";

(() => {
  const { el } = Preview;
  const enc = encodeURIComponent;
  const slug = decodeURIComponent(location.pathname.split("/")[2] || "");
  const params = new URLSearchParams(location.search);
  const felt = document.getElementById("felt");
  const oddsPanel = document.getElementById("odds");
  const logList = document.getElementById("log");
  const actions = document.getElementById("actions");

  let info = null; // /api/table: the deck's cards and its games
  let byId = new Map(); // card id -> card of the deck
  const spellsById = new Map(); // spell id -> spell card
  let game = null; // the game played (one of info.games), or null
  let rules = null; // its deck (or setup)
  let state = null; // the table (see fresh())
  let undoable = []; // the table before each move
  let values = null; // the last answer of /api/hands
  let chosen = null; // the card picked (its uid)
  let asked = 0; // questions put to /api/hands; only the latest answer is shown
  const last = []; // per seat: the line last logged
  const cards = TableCards((uid) => {
    const id = state.cards[uid];
    const spell = uid.startsWith("s");
    const card = (spell ? spellsById.get(id) : byId.get(id)) || { name: id, back: "" };
    return { id, name: card.name, back: card.back, deck: spell ? game.spells.deck : slug };
  }, (node, uid) => {
    node.addEventListener("pointerdown", (e) => dragging.start(e, uid));
    node.addEventListener("dblclick", () => flip(uid));
  });
  const dragging = TableDrag({ node: cards.node, zoneList, whereIs, move, choose });
  const spells = TableSpells({ state: () => state, game: () => game, spells: spellsById, cards, remember, addLog, changed });
  const { showValues, showOdds } = TableOdds({ game: () => game, values: () => values, state: () => state,
    card: (id) => byId.get(id) || { name: id } }, oddsPanel);

  const isRows = () => game && game.kind === "rows";
  const cardOf = (uid) => state.cards[uid];

  // --- talking to the server ----------------------------------------------------------------

  async function ask(url) {
    const response = await fetch(url, { cache: "no-store" });
    if (response.ok) return { data: await response.json() };
    return { error: (await response.text()).trim() || response.status + " " + response.statusText };
  }

  function notice(text) {
    const box = document.getElementById("notice");
    if (box) box.textContent = text || "";
    if (box) box.hidden = !text;
  }

  // --- the table as data ------------------------------------------------------------------------

  function fresh(seed, seats) {
    return { seed, seats: Array.from({ length: seats }, (_, i) => ({ name: "Seat " + (i + 1), hand: [], row: [], hidden: false })),
      pile: [], shared: [], discard: [], aside: [], spellPile: [], spell: null, rule: "", up: {}, cards: {} };
  }

  // Each card dealt gets a name of its own for the life of the page (so a card's element, kept by ``cards``,
  // is never taken for another card's after a new deal or an undo).
  let serial = 0;
  function place(ids, prefix) {
    return ids.map((id) => {
      const uid = prefix + serial++;
      state.cards[uid] = id;
      return uid;
    });
  }

  function forgetUnused() {
    if (cards.size() < 800) return;
    cards.forget(new Set([state, ...undoable.map((t) => JSON.parse(t))].flatMap((t) => Object.keys(t.cards))));
  }

  function zoneList(zone) {
    const [kind, seat, part] = zone.split(":");
    if (kind === "seat") return state.seats[Number(seat)][part];
    return state[kind];
  }

  function whereIs(uid) {
    for (const zone of zones()) if (zoneList(zone).includes(uid)) return zone;
    return null;
  }

  function zones() {
    const out = ["pile", "shared", "discard"];
    state.seats.forEach((_, i) => out.push("seat:" + i + ":hand", "seat:" + i + ":row"));
    return out;
  }

  function zoneName(zone) {
    const [kind, seat, part] = zone.split(":");
    if (kind === "seat") return state.seats[Number(seat)].name + (part === "row" ? " (row)" : "");
    return { pile: "draw pile", shared: "shared row", discard: "discard pile" }[kind];
  }

  function remember() {
    undoable.push(JSON.stringify(state));
    if (undoable.length > 500) undoable.shift();
    document.getElementById("undo").disabled = false;
  }

  // One move: the table remembered for undo, the card moved, the move logged, the hands valued again.
  function move(uid, to, index, action) {
    const from = whereIs(uid);
    if (!from) return;
    remember();
    const list = zoneList(from);
    const at = list.indexOf(uid);
    list.splice(at, 1);
    const target = zoneList(to); // ``index``: the place among the cards there, this one taken out
    target.splice(index === undefined ? target.length : Math.max(0, Math.min(index, target.length)), 0, uid);
    if (to === "pile") delete state.up[uid];
    if (to === "discard") state.up[uid] = true;
    const [kind, seat] = from.split(":");
    logMove(action || "move", uid, from, to, kind === "seat" ? Number(seat) : null);
    changed();
  }

  function logMove(action, uid, from, to, seat) {
    const open = to === "discard" || to === "shared" || Boolean(state.up[uid]) || from === "discard";
    addLog({ action, seat: seat === null ? "" : state.seats[seat].name, card: cardOf(uid), from: zoneName(from), to: zoneName(to) }, !open);
  }

  // A line of the log: all of it in the CSV; on the page, a card that was face down and a hidden seat's
  // hand are not named (another player may be looking).
  function addLog(entry, secret) {
    const row = TableLog.add(Object.assign({ seed: state ? state.seed : "", spell: state && state.spell ? state.cards[state.spell] : "",
      rule: state ? state.rule : "" }, entry));
    const card = secret ? "a card face down" : (byId.get(row.card) || spellsById.get(row.card) || { name: row.card }).name;
    const text = [row.action, row.seat, card, row.from && row.to ? row.from + " \u2192 " + row.to : "", secret ? "" : row.category]
      .filter((x) => x).join(" \u00b7 ");
    logList.prepend(el("li", {}, text));
    while (logList.children.length > 60) logList.lastChild.remove();
  }

  // --- dealing ------------------------------------------------------------------------------------

  function seatCount() {
    const pressed = document.querySelector("#seats button[aria-pressed=true]");
    return pressed ? Number(pressed.dataset.value) : 2;
  }

  async function deal(seed) {
    const q = new URLSearchParams({ seed: String(seed), seats: String(seatCount()) });
    if (game) {
      q.set("game", game.id);
      q.set("rules", rules);
    }
    if (!isRows()) q.set("cards", document.getElementById("cards-each").value);
    const { data, error } = await ask("/api/deal/" + enc(slug) + "?" + q);
    if (error) {
      notice(error);
      return;
    }
    notice("");
    const rule = state && game && (game.modifiers || []).some((m) => m.id === state.rule) ? state.rule : ""; // a house rule stays
    if (state) remember();
    state = fresh(data.seed, data.hands.length);
    state.rule = rule;
    data.hands.forEach((ids, i) => (state.seats[i].hand = place(ids, "c")));
    state.pile = place(data.pile, "c");
    state.aside = place(data.aside, "c");
    state.spellPile = place(data.spells || [], "s");
    chosen = null;
    last.length = 0;
    forgetUnused();
    document.getElementById("seed").value = String(data.seed);
    const url = new URLSearchParams({ seed: String(data.seed), seats: String(data.hands.length) });
    if (game) url.set("game", game.id);
    if (rules) url.set("rules", rules);
    history.replaceState(null, "", location.pathname + "?" + url);
    addLog({ action: "deal", seat: data.hands.length + " seats", card: isRows() ? "one suit each" : data.hands[0].length + " cards each" });
    changed("deal");
  }

  function newSeed() {
    const words = new Uint32Array(1);
    crypto.getRandomValues(words);
    return words[0] % 1000000;
  }

  // --- what the hands are worth --------------------------------------------------------------------

  function changed(reason) {
    render();
    value(reason);
  }

  async function value(reason) {
    if (!game || !state) {
      showOdds();
      return;
    }
    const mine = ++asked;
    const q = new URLSearchParams({ game: game.id, rules });
    const spell = spells.active();
    if (spell) q.set("spell", spell);
    q.set("shared", state.shared.map(cardOf).join(","));
    for (const seat of state.seats) q.append("seat", (isRows() ? seat.row : seat.hand).map(cardOf).join(","));
    oddsPanel.classList.add("counting");
    const { data, error } = await ask("/api/hands/" + enc(slug) + "?" + q);
    if (mine !== asked) return; // the table changed meanwhile: a newer answer is on its way
    oddsPanel.classList.remove("counting");
    if (error) {
      notice(error);
      values = null;
    } else {
      notice("");
      values = data;
      logValues(reason === "deal");
    }
    showValues();
    showOdds();
  }

  function logValues(dealt) {
    values.seats.forEach((v, i) => {
      const line = v.line || v.needs;
      if (!dealt && last[i] === line) return;
      last[i] = line;
      const seat = state.seats[i];
      const entry = { action: dealt ? "dealt hand" : "hand", seat: seat.name, rules: rulesTitle(),
        cards: (isRows() ? seat.row : seat.hand).map(cardOf).join(" ") };
      if (v.needs) entry.category = "(" + v.needs + ")";
      else {
        entry.category = v.category;
        const c = (values.rules.categories || []).find((x) => x.name === v.category);
        if (c) entry["chance of the category"] = TableLog.ratio(c.fraction);
        if (v.at_least) entry["chance of it or better"] = TableLog.ratio(v.at_least);
        entry.beats = TableLog.ratio(v.beats);
        if (dealt) entry.table = values.rules.categories;
      }
      addLog(entry, seat.hidden);
    });
  }

  function rulesTitle() {
    if (!values) return "";
    const r = values.rules;
    return [r.title, r.deck, ...(r.modifiers || [])].filter((x) => x).join(" \u00b7 ");
  }

  // --- drawing the table ------------------------------------------------------------------------------

  function drawZone(zone, box, faceUp) {
    const list = zoneList(zone);
    box.replaceChildren(...list.map((uid) => {
      const node = cards.shown(uid, faceUp(uid));
      node.classList.toggle("up", Boolean(state.up[uid]));
      node.classList.toggle("chosen", uid === chosen);
      return node;
    }));
    if (!list.length) box.append(el("span", { class: "placeholder" }, box.dataset.empty || ""));
  }

  function seatBox(i) {
    const seat = state.seats[i];
    const name = el("input", { class: "seat-name", value: seat.name, "aria-label": "Name of seat " + (i + 1), maxlength: "24" });
    name.addEventListener("change", () => {
      seat.name = name.value.trim() || "Seat " + (i + 1);
      value();
    });
    const hide = el("button", { type: "button", class: "hide", "aria-pressed": String(seat.hidden),
      title: seat.hidden ? "Show this hand" : "Hide this hand while another player looks" }, seat.hidden ? "Show" : "Hide");
    hide.addEventListener("click", () => setHidden(i, !seat.hidden));
    const draw = el("button", { type: "button", class: "draw", title: "Draw the top card of the pile" }, "Draw");
    draw.addEventListener("click", () => state.pile.length && move(state.pile[0], "seat:" + i + ":hand", undefined, "draw"));
    const hand = el("div", { class: "zone hand", "data-zone": "seat:" + i + ":hand", "data-empty": "no cards" });
    const parts = [el("header", {}, name, el("span", { class: "count" }, seat.hand.length + (seat.hand.length === 1 ? " card" : " cards")), draw, hide), hand];
    const visible = (uid) => !seat.hidden || Boolean(state.up[uid]);
    drawZone("seat:" + i + ":hand", hand, visible);
    if (isRows()) {
      const row = el("div", { class: "zone row", "data-zone": "seat:" + i + ":row", "data-empty": "drag " + game.row + " cards here, left to right" });
      drawZone("seat:" + i + ":row", row, visible);
      parts.push(el("div", { class: "row-label" }, "Row"), row);
    }
    parts.push(el("p", { class: "value" }, ""));
    return el("section", { class: "seat" + (seat.hidden ? " is-hidden" : ""), "data-seat": String(i) }, ...parts);
  }

  function setHidden(i, hidden) {
    const hotseat = document.getElementById("hotseat").checked;
    state.seats.forEach((seat, j) => {
      if (j === i) seat.hidden = hidden;
      else if (hotseat && !hidden) seat.hidden = true; // one hand shown at a time
    });
    render();
    showValues();
    showOdds();
  }

  function middle() {
    const pile = el("div", { class: "zone pile", "data-zone": "pile" });
    const top = state.pile[0];
    if (top) {
      const node = cards.shown(top, false);
      node.classList.remove("up", "chosen");
      pile.append(node);
    }
    pile.append(el("span", { class: "pile-count" }, state.pile.length + " in the pile" + (state.aside.length ? ", " + state.aside.length + " set aside" : "")));
    const turn = el("button", { type: "button", id: "turn" }, isRows() ? "Turn a card" : "To the shared row");
    turn.addEventListener("click", () => {
      if (!state.pile.length) return;
      const uid = state.pile[0];
      state.up[uid] = true;
      move(uid, "shared", undefined, "turn");
    });
    const grid = values && values.rules && values.rules.shared === 9 ? " grid" : "";
    const shared = el("div", { class: "zone shared" + grid, "data-zone": "shared", "data-empty": isRows() ? "cards turned from the pile" : "shared cards" });
    drawZone("shared", shared, (uid) => Boolean(state.up[uid]));
    const discard = el("div", { class: "zone discard", "data-zone": "discard", "data-empty": "discard pile" });
    const topDiscard = state.discard[state.discard.length - 1];
    if (topDiscard) {
      const node = cards.shown(topDiscard, true);
      node.classList.toggle("chosen", topDiscard === chosen);
      discard.append(node);
    } else discard.append(el("span", { class: "placeholder" }, "discard pile"));
    const parts = [
      el("div", { class: "stack" }, el("h3", {}, "Draw pile"), pile, turn),
      el("div", { class: "stack wide" }, el("h3", {}, isRows() ? "Turned" : "Shared row"), shared),
      el("div", { class: "stack" }, el("h3", {}, "Discards \u00b7 " + state.discard.length), discard),
    ];
    if (game && game.spells) parts.push(spells.box());
    return el("div", { class: "middle" }, ...parts);
  }

  function render() {
    if (!state) return;
    const seats = state.seats.map((_, i) => seatBox(i));
    const half = Math.ceil(seats.length / 2);
    felt.replaceChildren(
      el("div", { class: "seats" }, ...seats.slice(0, half)),
      middle(),
      el("div", { class: "seats" }, ...seats.slice(half)));
    showValues();
    showChosen();
  }

  // --- choosing a card, and what can be done with it --------------------------------------------------

  function choose(uid) {
    chosen = chosen === uid ? null : uid;
    document.querySelectorAll(".card.chosen").forEach((n) => n.classList.remove("chosen"));
    if (chosen && cards.node(chosen)) cards.node(chosen).classList.add("chosen");
    showChosen();
  }

  function showChosen() {
    const zone = chosen && state ? whereIs(chosen) : null;
    actions.hidden = !zone;
    if (!zone) return;
    const card = byId.get(cardOf(chosen));
    document.getElementById("chosen-name").textContent = (card ? card.name : cardOf(chosen)) + " \u00b7 " + zoneName(zone);
  }

  function flip(uid) {
    if (!state || !whereIs(uid)) return;
    remember();
    if (state.up[uid]) delete state.up[uid];
    else state.up[uid] = true;
    addLog({ action: state.up[uid] ? "flip up" : "flip down", card: cardOf(uid), from: zoneName(whereIs(uid)) });
    changed();
  }

  function act(what) {
    const uid = chosen;
    const zone = uid && whereIs(uid);
    if (!zone) return;
    const [kind, seat] = zone.split(":");
    if (what === "flip") flip(uid);
    else if (what === "discard") move(uid, "discard", undefined, "discard");
    else if (what === "shared") move(uid, "shared", undefined, "to the shared row");
    else if (what === "pile") move(uid, "pile", 0, "back on the pile");
    else if (what === "pass" && kind === "seat") move(uid, "seat:" + ((Number(seat) + 1) % state.seats.length) + ":hand", undefined, "pass");
    if (what !== "flip" && what !== "pass") chosen = null;
    showChosen();
  }

  // --- loading --------------------------------------------------------------------------------------

  function setUpControls() {
    const gameSelect = document.getElementById("game");
    gameSelect.replaceChildren(...info.games.map((g) => el("option", { value: g.id }, g.title)), el("option", { value: "" }, "no game (cards only)"));
    const wanted = params.get("game");
    game = info.games.find((g) => g.id === wanted) || (wanted === "" ? null : info.games[0]) || null;
    gameSelect.value = game ? game.id : "";
    gameSelect.addEventListener("change", () => {
      game = info.games.find((g) => g.id === gameSelect.value) || null;
      setRules();
      deal(Number(document.getElementById("seed").value) || 0);
    });
    setRules(params.get("rules"));
    const seats = document.getElementById("seats");
    const wantedSeats = Number(params.get("seats")) || 4;
    seats.replaceChildren(...[2, 3, 4, 5, 6].map((n) => el("button", { type: "button", "data-value": String(n), "aria-pressed": String(n === wantedSeats) }, String(n))));
    seats.addEventListener("click", (e) => {
      const button = e.target.closest("button");
      if (!button) return;
      seats.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
      deal(Number(document.getElementById("seed").value) || 0);
    });
  }

  function setRules(wanted) {
    const select = document.getElementById("rules");
    const options = game ? game.rules : [];
    select.replaceChildren(...options.map((r) => el("option", { value: r.id }, r.title)));
    select.hidden = options.length < 2;
    rules = options.length ? (options.find((r) => r.id === wanted) || options[0]).id : null;
    select.value = rules || "";
    select.onchange = () => {
      rules = select.value;
      setRules(rules);
      changed();
    };
    const rule = document.getElementById("rule");
    const houseRules = (game && !game.spells && game.modifiers) || [];
    rule.replaceChildren(el("option", { value: "" }, "no house rule"), ...houseRules.map((m) => el("option", { value: m.id, title: m.description }, m.title)));
    rule.hidden = !houseRules.length;
    rule.value = state ? state.rule : "";
    rule.onchange = () => {
      if (!state) return;
      remember();
      state.rule = rule.value;
      addLog({ action: "house rule", card: rule.value || "none" });
      changed();
    };
    const each = document.getElementById("cards-each");
    const chosenRules = options.find((r) => r.id === rules);
    if (chosenRules && chosenRules.hand_size) each.value = String(chosenRules.hand_size);
    each.closest(".group").hidden = isRows();
  }

  async function load() {
    await cards.load();
    const { data, error } = await ask("/api/table/" + enc(slug));
    if (error) {
      felt.replaceChildren(el("p", { class: "empty", id: "gone" }, error));
      return;
    }
    info = data;
    byId = new Map(info.cards.map((c) => [c.id, c]));
    const link = document.getElementById("deck-link");
    link.textContent = info.title;
    link.href = "/deck/" + enc(slug);
    setUpControls();
    for (const g of info.games) if (g.spells) for (const s of g.spells.cards) spellsById.set(s.id, s);
    document.getElementById("here").textContent = (game ? game.title : info.title) + ": the table";
    document.title = "Table \u00b7 " + (game ? game.title : info.key) + " \u00b7 Aetherpress preview";
    if (info.problem) notice(info.problem);
    const seed = params.get("seed");
    await deal(seed !== null && /^\d+$/.test(seed) ? Number(seed) : newSeed());
  }

  // --- the controls ---------------------------------------------------------------------------------

  document.getElementById("deal").addEventListener("click", () => {
    const text = document.getElementById("seed").value.trim();
    if (!/^\d+$/.test(text)) {
      notice("The seed is a whole number (0 or more): type one, or press New shuffle.");
      return;
    }
    deal(Number(text));
  });
  document.getElementById("seed").addEventListener("keydown", (e) => e.key === "Enter" && document.getElementById("deal").click());
  document.getElementById("reshuffle").addEventListener("click", () => deal(newSeed()));
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("download").addEventListener("click", () => TableLog.download("table-" + slug + "-seed-" + (state ? state.seed : "") + ".csv"));
  actions.addEventListener("click", (e) => e.target.dataset.act && act(e.target.dataset.act));
  const size = document.getElementById("size");
  const setSize = () => document.documentElement.style.setProperty("--card-w", size.value + "px");
  size.value = localStorage.getItem("aetherpress-table-card") || size.value;
  setSize();
  size.addEventListener("input", () => {
    setSize();
    localStorage.setItem("aetherpress-table-card", size.value);
  });

  function undo() {
    if (!undoable.length) return;
    state = JSON.parse(undoable.pop());
    chosen = null;
    document.getElementById("undo").disabled = !undoable.length;
    document.getElementById("rule").value = state.rule || "";
    document.getElementById("seed").value = String(state.seed);
    document.querySelectorAll("#seats button").forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.value) === state.seats.length)));
    addLog({ action: "undo" });
    changed();
  }

  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if ((e.ctrlKey || e.metaKey) && e.key === "z") {
      e.preventDefault();
      undo();
    } else if (e.key === "Escape") choose(null);
    else if (chosen && { f: "flip", d: "discard", p: "pass", r: "shared" }[e.key]) act({ f: "flip", d: "discard", p: "pass", r: "shared" }[e.key]);
  });

  Preview.on("sides", (data) => cards.update(data.sides));
  Preview.on("resync", () => info && cards.load());
  Preview.connect();
  load();
})();
