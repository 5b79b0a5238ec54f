// The gallery: every face and back of the decks, grouped by deck and variant, kept up to date.
"use strict";

(() => {
  const { el, frame, fill, pageURL, getJSON, measure } = Preview;
  const main = document.getElementById("gallery");
  const tiles = new Map(); // "deck|kind|name" -> { link, box, geometry, side }
  let structure = null;
  let version = -1; // the server's version of the state last read
  let loading = null;
  let again = false;
  let missed = []; // sides heard while the state was being read

  const keyOf = (side) => side.deck + "|" + side.kind + "|" + side.name;

  function load() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      try {
        do {
          again = false;
          missed = [];
          const state = await getJSON("/api/state");
          structure = state.structure;
          version = state.version;
          document.getElementById("project").textContent = state.project;
          document.title = state.project + " \u00b7 Aetherpress preview";
          render(state);
          Preview.showState(state);
          applyFilter();
        } while (again);
      } finally {
        loading = null;
      }
      for (const data of missed) if (data.version > version) update(data.sides);
      missed = [];
    })();
    return loading;
  }

  function render(state) {
    tiles.clear();
    if (!state.decks.length) {
      const text = state.problems.length ? "No deck could be read yet: see the problems above." : "This project has no decks yet.";
      main.replaceChildren(el("p", { class: "empty" }, text));
      return;
    }
    const groups = new Map();
    for (const deck of state.decks) {
      if (!groups.has(deck.id)) groups.set(deck.id, []);
      groups.get(deck.id).push(deck);
    }
    const sections = [];
    for (const [id, decks] of groups) {
      const languages = [...new Set(decks.map((d) => d.language))];
      const head = el("h2", {}, decks[0].title, el("code", {}, id));
      const section = el("section", { class: "deck", "data-deck": id }, head);
      for (const deck of decks) section.append(variant(deck));
      if (languages.length > 1) head.append(languageSwitch(section, id, languages));
      sections.push(section);
    }
    main.replaceChildren(...sections);
    for (const section of sections) showLanguage(section, chosenLanguage(section));
  }

  // A deck published in several languages shows one edition at a time; the switch in its heading chooses which.
  function languageSwitch(section, id, languages) {
    const buttons = languages.map((code) => el("button", {
      type: "button", "data-value": code, title: "show the " + code + " edition", "aria-pressed": "false",
    }, code));
    const group = el("span", { class: "segmented languages", role: "group", "aria-label": "Edition" }, ...buttons);
    group.addEventListener("click", (e) => {
      const button = e.target.closest("button");
      if (!button) return;
      localStorage.setItem("aetherpress-lang-" + id, button.dataset.value);
      if (location.hash) history.replaceState(null, "", location.pathname + location.search); // the choice, not the link, holds now
      showLanguage(section, button.dataset.value);
    });
    return group;
  }

  function chosenLanguage(section) {
    const wanted = decodeURIComponent(location.hash.replace(/^#deck-/, ""));
    const target = wanted && section.querySelector("[id='deck-" + CSS.escape(wanted) + "']");
    if (target) return target.dataset.language; // a link to one edition shows that edition
    return localStorage.getItem("aetherpress-lang-" + section.dataset.deck) || "";
  }

  function showLanguage(section, code) {
    const variants = [...section.querySelectorAll(".variant")];
    const known = variants.some((v) => v.dataset.language === code);
    const shown = known ? code : (variants[0] && variants[0].dataset.language);
    for (const v of variants) v.hidden = v.dataset.language !== shown;
    for (const b of section.querySelectorAll(".languages button")) b.setAttribute("aria-pressed", String(b.dataset.value === shown));
  }

  function variant(deck) {
    const g = deck.geometry;
    const grid = el("div", { class: "grid" });
    for (const side of deck.sides) grid.append(tile(deck, side));
    const faces = deck.sides.filter((s) => s.kind === "face").length;
    const backs = deck.sides.length - faces;
    const meta = deck.cards + " cards \u00b7 " + faces + " faces, " + backs + (backs === 1 ? " back" : " backs") +
      " \u00b7 " + deck.size + " " + measure(g) + ", bleed " + g.bleed + " mm";
    return el("div", { class: "variant", id: "deck-" + deck.slug, "data-language": deck.language },
      el("div", { class: "variant-head" },
        el("h3", {}, deck.variant || (deck.key.split("@")[0] === deck.id ? "The deck" : deck.title)),
        el("code", {}, deck.key),
        Object.keys(deck.editions).length > 1 ? el("span", { class: "language", title: "the language of this edition" }, deck.language) : null,
        el("span", { class: "meta" }, meta),
        el("span", { class: "deck-links" },
          el("a", { class: "hand-link", href: "/deck/" + encodeURIComponent(deck.slug) }, "Statistics"),
          el("a", { class: "hand-link", href: "/hand/" + encodeURIComponent(deck.slug) }, "Hold a hand"),
          el("a", { class: "hand-link table-link", href: "/table/" + encodeURIComponent(deck.slug) }, "Play at the table \u2192"))),
      grid);
  }

  function tile(deck, side) {
    const box = frame(deck.geometry);
    const link = el("a", {
      class: "tile " + side.kind,
      href: pageURL(side.deck, side.kind, side.name),
      title: side.kind === "face" ? side.label + " (" + side.name + ")" : side.label,
      "data-side": keyOf(side),
      "data-search": (side.name + " " + side.label).toLowerCase(),
    }, box, el("span", { class: "caption" },
      el("span", { class: "id" }, side.name),
      el("span", { class: "name" }, side.kind === "face" ? side.label : "\u00a0")));
    fill(box, deck.geometry, side, true);
    tiles.set(keyOf(side), { link, box, geometry: deck.geometry, side });
    return link;
  }

  function update(sides) {
    for (const side of sides) {
      const known = tiles.get(keyOf(side));
      if (!known || known.side.v === side.v) continue;
      known.side = Object.assign({}, known.side, side);
      fill(known.box, known.geometry, known.side, true);
      known.link.classList.remove("flash");
      void known.link.offsetWidth; // restart the highlight
      known.link.classList.add("flash");
    }
  }

  function applyFilter() {
    const q = document.getElementById("filter").value.trim().toLowerCase();
    for (const { link } of tiles.values()) link.hidden = q !== "" && !link.dataset.search.includes(q);
  }

  const size = document.getElementById("size");
  const setSize = () => document.documentElement.style.setProperty("--tile-w", size.value + "px");
  size.value = localStorage.getItem("aetherpress-tile") || size.value;
  setSize();
  size.addEventListener("input", () => {
    setSize();
    localStorage.setItem("aetherpress-tile", size.value);
  });
  document.getElementById("filter").addEventListener("input", applyFilter);

  Preview.on("sides", (data) => (loading ? missed.push(data) : update(data.sides)));
  Preview.on("state", (state) => {
    if (structure !== null && state.structure !== structure) load();
  });
  Preview.on("resync", () => load()); // on connecting, and again after any reconnection
  Preview.connect();
  setTimeout(() => structure === null && load(), 1500); // no live connection: show the decks anyway
})();
