// One card at real size (CSS millimetres) with its print guides, its data row and where it is defined.
"use strict";

(() => {
  const { el, sideURL, pageURL, getJSON, measure } = Preview;
  const [, page, deck, name] = location.pathname.split("/").map(decodeURIComponent);
  const kind = page === "back" ? "back" : "face";
  const real = document.getElementById("real");
  const panel = document.getElementById("panel");
  const settings = JSON.parse(localStorage.getItem("aetherpress-card") || "{}");
  const options = Object.assign({ trim: true, bleed: true, safe: true, view: "svg", zoom: "1" }, settings);
  let detail = null;
  const SVG = "http://www.w3.org/2000/svg";

  function save() {
    localStorage.setItem("aetherpress-card", JSON.stringify(options));
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    return node;
  }

  function rounded(x, y, w, h, r) {
    r = Math.max(0, Math.min(r, w / 2, h / 2));
    return "M" + (x + r) + " " + y + "H" + (x + w - r) + (r ? "A" + r + " " + r + " 0 0 1 " + (x + w) + " " + (y + r) : "") +
      "V" + (y + h - r) + (r ? "A" + r + " " + r + " 0 0 1 " + (x + w - r) + " " + (y + h) : "") +
      "H" + (x + r) + (r ? "A" + r + " " + r + " 0 0 1 " + x + " " + (y + h - r) : "") +
      "V" + (y + r) + (r ? "A" + r + " " + r + " 0 0 1 " + (x + r) + " " + y : "") + "Z";
  }

  function guides(g) {
    const svg = svgEl("svg", { viewBox: "0 0 " + g.width + " " + g.height, "aria-hidden": "true", id: "guides" });
    const b = g.bleed, tw = g.trim_w, th = g.trim_h, s = g.safe;
    const common = { fill: "none", "vector-effect": "non-scaling-stroke", "stroke-width": 1.5 };
    if (options.bleed && b > 0) {
      svg.append(svgEl("path", { id: "guide-bleed-area", d: "M0 0H" + g.width + "V" + g.height + "H0Z" + rounded(b, b, tw, th, g.radius),
        "fill-rule": "evenodd", fill: "#e0077d", "fill-opacity": 0.16 }));
      svg.append(svgEl("rect", Object.assign({ x: 0, y: 0, width: g.width, height: g.height, stroke: "#e0077d", "stroke-dasharray": "2 3" }, common)));
    }
    if (options.trim) svg.append(svgEl("path", Object.assign({ id: "guide-trim-line", d: rounded(b, b, tw, th, g.radius), stroke: "#e0077d" }, common)));
    if (options.safe && s > 0) {
      svg.append(svgEl("rect", Object.assign({ id: "guide-safe-line", x: b + s, y: b + s, width: tw - 2 * s, height: th - 2 * s,
        stroke: "#0a8fd0", "stroke-dasharray": "6 4" }, common)));
    }
    return svg;
  }

  function drawCard() {
    if (!detail) return;
    const g = detail.deck.geometry;
    const side = detail.side;
    const z = Number(options.zoom);
    real.style.width = g.width * z + "mm";
    real.style.height = g.height * z + "mm";
    real.classList.toggle("cut", !options.bleed);
    const children = [];
    if (side.image) {
      const clip = options.bleed ? "none" : "inset(" + g.bleed * z + "mm round " + g.radius * z + "mm)";
      if (options.view === "png") {
        const img = el("img", { alt: side.label, id: "card-image", draggable: "false" });
        img.style.clipPath = clip;
        const loading = el("span", { class: "loading" }, "drawing at 300 dpi\u2026");
        img.addEventListener("load", () => {
          loading.hidden = true;
          img.dataset.shown = img.src;
        });
        img.src = sideURL(deck, kind, name, side.v, "png");
        children.push(img, guides(g), loading);
      } else {
        const node = Preview.art(null, sideURL(deck, kind, name, side.v), false);
        node.id = "card-art";
        node.style.clipPath = clip;
        children.push(node, guides(g));
      }
    } else {
      const trouble = el("div", { class: "cannot", id: "cannot" }, el("strong", {}, "This " + (kind === "face" ? "card" : "back") +
        " cannot be drawn"), side.problems[0] || "");
      trouble.style.inset = (100 * g.bleed / g.height) + "% " + (100 * g.bleed / g.width) + "%";
      children.push(trouble, guides(g));
    }
    real.replaceChildren(...children);
    document.getElementById("measure").textContent = measure(g) + " trim \u00b7 " +
      (Math.round(g.width * 100) / 100) + " \u00d7 " + (Math.round(g.height * 100) / 100) + " mm with " + g.bleed + " mm bleed \u00b7 safe zone " +
      g.safe + " mm inside the trim" + (z === 1 ? " \u00b7 real size on a screen of 96 CSS pixels per inch" : " \u00b7 shown " + z + "\u00d7");
  }

  function cell(value) {
    if (value === null || value === undefined || value === "") return el("td", { class: "none" }, "\u2014");
    return el("td", {}, typeof value === "object" ? JSON.stringify(value) : String(value));
  }

  function row(label, value) {
    return [el("dt", {}, label), el("dd", {}, value)];
  }

  function drawPanel() {
    const d = detail;
    const side = d.side;
    document.getElementById("here").textContent = side.label;
    document.title = side.label + " \u00b7 " + d.deck.key + " \u00b7 Aetherpress preview";
    const deckLink = document.getElementById("deck-link");
    deckLink.textContent = d.deck.title + (d.deck.variant ? " (" + d.deck.variant + ")" : "");
    deckLink.href = "/#deck-" + encodeURIComponent(d.deck.slug);
    for (const which of ["previous", "next"]) {
      const link = document.getElementById(which);
      const target = d[which];
      link.replaceWith(target
        ? el("a", { id: which, href: pageURL(deck, kind, target), title: target }, which === "previous" ? "\u2190 previous" : "next \u2192")
        : el("span", { id: which }, which === "previous" ? "\u2190 previous" : "next \u2192"));
    }
    const editions = Object.entries(d.deck.editions || {});
    const languages = editions.length > 1
      ? el("span", { class: "segmented languages", role: "group", "aria-label": "Edition" }, ...editions.map(([code, slug]) =>
        el("a", { href: pageURL(slug, kind, name), "aria-pressed": String(slug === deck), title: "this card in the " + code + " edition" }, code)))
      : null;
    const facts = el("dl", {},
      ...row("Defined at", el("code", { id: "origin" }, d.origin)),
      ...row("Template", el("code", {}, d.template)),
      ...(d.back ? row("Back", el("a", { href: pageURL(deck, "back", d.back) }, d.back)) : []),
      ...row("Deck", el("code", {}, d.deck.key)),
      ...(languages ? row("Edition", languages) : []),
      ...row("Content key", el("code", { title: d.key }, d.key.slice(0, 16))));
    const table = el("table", { id: "data" }, ...d.data.map(([field, value]) =>
      el("tr", {}, el("td", {}, field), cell(value))));
    const findings = el("ul", { class: "findings", id: "findings" });
    if (d.findings.length) findings.append(...d.findings.map((f) => el("li", {}, f)));
    else findings.append(el("li", { class: "ok" }, "Nothing to report: drawn without problems."));
    const links = el("div", { class: "links" },
      el("a", { href: sideURL(deck, kind, name, side.v, "svg"), target: "_blank", rel: "noopener" }, "Open the SVG"),
      el("a", { href: sideURL(deck, kind, name, side.v, "png"), target: "_blank", rel: "noopener" }, "Open the 300 dpi PNG"),
      kind === "face" ? el("a", { href: "/hand/" + encodeURIComponent(deck) + "?cards=" + encodeURIComponent(name) }, "Hold it in a hand") : null);
    panel.replaceChildren(
      el("h1", {}, side.label),
      el("div", { class: "ident" }, (kind === "face" ? "card " : "back ") + name),
      el("h2", {}, "Where it comes from"), facts,
      el("h2", {}, kind === "face" ? "Card data" : "Back"), table,
      el("h2", {}, "Problems and findings"), findings,
      links);
  }

  async function load() {
    const found = await getJSON("/api/side/" + [deck, kind, name].map(encodeURIComponent).join("/"));
    if (!found) {
      detail = null;
      real.replaceChildren();
      panel.replaceChildren(el("p", { class: "gone", id: "gone" }, "This " + (kind === "face" ? "card" : "back") +
        " is not in the deck any more. ", el("a", { href: "/" }, "Back to the gallery")));
      return;
    }
    const before = detail;
    detail = found;
    if (!before || before.side.v !== found.side.v || JSON.stringify(before.deck.geometry) !== JSON.stringify(found.deck.geometry)) drawCard();
    drawPanel();
  }

  function bindToggle(id, key) {
    const box = document.getElementById(id);
    box.checked = options[key];
    box.addEventListener("change", () => {
      options[key] = box.checked;
      save();
      drawCard();
    });
  }

  function bindSegmented(id, key) {
    const group = document.getElementById(id);
    const buttons = [...group.querySelectorAll("button")];
    const show = () => buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.value === options[key])));
    show();
    for (const button of buttons) {
      button.addEventListener("click", () => {
        options[key] = button.dataset.value;
        save();
        show();
        drawCard();
      });
    }
  }

  bindToggle("guide-trim", "trim");
  bindToggle("guide-bleed", "bleed");
  bindToggle("guide-safe", "safe");
  bindSegmented("view", "view");
  bindSegmented("zoom", "zoom");
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "checkbox") return;
    const keys = { t: "guide-trim", b: "guide-bleed", s: "guide-safe" };
    if (keys[e.key]) document.getElementById(keys[e.key]).click();
    else if (e.key === "ArrowLeft" && detail && detail.previous) location.href = pageURL(deck, kind, detail.previous);
    else if (e.key === "ArrowRight" && detail && detail.next) location.href = pageURL(deck, kind, detail.next);
  });

  Preview.on("sides", (data) => {
    if (data.sides.some((s) => s.deck === deck && s.kind === kind && s.name === name)) load();
  });
  let structure = null;
  Preview.on("state", (state) => {
    if (structure !== null && state.structure !== structure) load();
    structure = state.structure;
  });
  Preview.on("resync", () => load());
  Preview.connect();
  setTimeout(() => detail === null && load(), 1500);
})();
