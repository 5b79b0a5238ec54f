// A hand of chosen cards, fanned as a player holds them, at real size: do the corner indices still read?
"use strict";

(() => {
  const { el, frame, fill, getJSON } = Preview;
  const deck = decodeURIComponent(location.pathname.split("/")[2] || "");
  const fan = document.getElementById("fan");
  const felt = document.getElementById("felt");
  const picker = document.getElementById("picker");
  const spread = document.getElementById("spread");
  const reverse = document.getElementById("reverse");
  let info = null; // this deck from /api/state
  let faces = new Map(); // card id -> side
  let chosen = [];
  let zoom = 1;
  let structure = null;
  let first = true;
  let version = -1; // the server's version of the state last read
  let loading = false;
  let missed = []; // sides heard while the state was being read

  const wanted = new URLSearchParams(location.search).get("cards");

  function remember() {
    const query = chosen.length ? "?cards=" + chosen.map(encodeURIComponent).join(",") : "";
    history.replaceState(null, "", location.pathname + query);
  }

  // Where each card goes: turned about a point below the hand, as fingers hold a fan.
  function layout() {
    const g = info.geometry;
    const w = g.trim_w * zoom, h = g.trim_h * zoom;
    const pivot = { x: w / 2, y: h * 1.65 };
    const step = Number(spread.value);
    const n = chosen.length;
    const angles = chosen.map((_, i) => (i - (n - 1) / 2) * step);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const a of angles) {
      const r = (a * Math.PI) / 180;
      for (const [x, y] of [[0, 0], [w, 0], [0, h], [w, h]]) {
        const dx = x - pivot.x, dy = y - pivot.y;
        const px = pivot.x + dx * Math.cos(r) - dy * Math.sin(r);
        const py = pivot.y + dx * Math.sin(r) + dy * Math.cos(r);
        minX = Math.min(minX, px); maxX = Math.max(maxX, px);
        minY = Math.min(minY, py); maxY = Math.max(maxY, py);
      }
    }
    const margin = 12;
    fan.style.width = maxX - minX + "mm";
    fan.style.height = maxY - minY + "mm";
    felt.style.padding = margin + "mm";
    return { w, pivot, angles, dx: -minX, dy: -minY };
  }

  function drawFan() {
    if (!info) return;
    if (!chosen.length) {
      fan.style.width = fan.style.height = "";
      felt.style.padding = "20mm";
      fan.replaceChildren(el("p", { class: "empty" }, "Pick cards below to hold them."));
      return;
    }
    const { w, pivot, angles, dx, dy } = layout();
    const cards = chosen.map((id, i) => {
      const side = faces.get(id);
      const box = frame(info.geometry);
      fill(box, info.geometry, side, false);
      const held = el("div", { class: "held", "data-card": id, title: side.label + " (" + id + ")" }, box);
      held.style.width = w + "mm";
      held.style.transformOrigin = pivot.x + "mm " + pivot.y + "mm";
      held.style.transform = "translate(" + dx + "mm, " + dy + "mm) rotate(" + angles[i] + "deg)";
      held.style.zIndex = String(reverse.checked ? chosen.length - i : i + 1);
      return held;
    });
    fan.replaceChildren(...cards);
  }

  function drawPicker() {
    const tiles = [];
    for (const [id, side] of faces) {
      const box = frame(info.geometry);
      fill(box, info.geometry, side, true);
      const at = chosen.indexOf(id);
      const tile = el("a", { class: "tile" + (at >= 0 ? " chosen" : ""), href: "#", "data-card": id, title: side.label,
        onclick: (e) => {
          e.preventDefault();
          const i = chosen.indexOf(id);
          if (i >= 0) chosen.splice(i, 1);
          else chosen.push(id);
          remember();
          drawFan();
          drawPicker();
        } },
      at >= 0 ? el("span", { class: "order" }, String(at + 1)) : null,
      box, el("span", { class: "caption" }, el("span", { class: "id" }, id), el("span", { class: "name" }, side.label)));
      tiles.push(tile);
    }
    picker.replaceChildren(...tiles);
  }

  async function load() {
    loading = true;
    missed = [];
    let state;
    try {
      state = await getJSON("/api/state");
    } finally {
      loading = false;
    }
    structure = state.structure;
    version = state.version;
    Preview.showState(state);
    info = state.decks.find((d) => d.slug === deck) || null;
    if (!info) {
      fan.replaceChildren(el("p", { class: "empty", id: "gone" }, "This deck is not being previewed any more."));
      picker.replaceChildren();
      return;
    }
    faces = new Map(info.sides.filter((s) => s.kind === "face").map((s) => [s.name, s]));
    const link = document.getElementById("deck-link");
    link.textContent = info.title + (info.variant ? " (" + info.variant + ")" : "");
    link.href = "/#deck-" + encodeURIComponent(info.slug);
    document.getElementById("picker-title").textContent = info.title + ": click cards to add them to the hand or take them out";
    document.title = "Hand \u00b7 " + info.key + " \u00b7 Aetherpress preview";
    if (!first) chosen = chosen.filter((id) => faces.has(id));
    else chosen = wanted ? wanted.split(",").filter((id) => faces.has(id)) : []; // a hand starts empty unless the address names cards
    first = false;
    drawFan();
    drawPicker();
    for (const data of missed) if (data.version > version) update(data.sides);
    missed = [];
  }

  function update(sides) {
    let changed = false;
    for (const side of sides) {
      if (side.deck !== deck || side.kind !== "face" || !faces.has(side.name)) continue;
      faces.set(side.name, Object.assign({}, faces.get(side.name), side));
      changed = true;
    }
    if (changed) {
      drawFan();
      drawPicker();
    }
  }

  const zoomButtons = [...document.querySelectorAll("#zoom button")];
  for (const button of zoomButtons) {
    button.addEventListener("click", () => {
      zoom = Number(button.dataset.value);
      zoomButtons.forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
      drawFan();
    });
  }
  spread.addEventListener("input", drawFan);
  reverse.addEventListener("change", drawFan);
  document.getElementById("clear").addEventListener("click", () => {
    chosen = [];
    remember();
    drawFan();
    drawPicker();
  });
  Preview.on("sides", (data) => (loading ? missed.push(data) : update(data.sides)));
  Preview.on("state", (state) => {
    if (structure !== null && state.structure !== structure) load();
  });
  Preview.on("resync", () => load());
  Preview.connect();
  setTimeout(() => info === null && load(), 1500);
})();
