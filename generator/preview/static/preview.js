// Shared by every page: the live connection, the problems banner, building elements, card frames.
"use strict";

const Preview = (() => {
  const handlers = { state: [], sides: [], resync: [] };
  let lastState = null;

  function on(name, handler) {
    handlers[name].push(handler);
  }

  function emit(name, data) {
    for (const handler of handlers[name]) handler(data);
  }

  function setStatus(kind, text) {
    const status = document.getElementById("status");
    if (!status) return;
    status.className = "status " + kind;
    status.textContent = text;
  }

  function showState(state) {
    lastState = state;
    const fonts = document.getElementById("fonts");
    if (fonts && state.fonts && fonts.dataset.version !== state.fonts) {
      if (fonts.dataset.version) fonts.href = "/fonts/fonts.css?v=" + encodeURIComponent(state.fonts); // a font was added or changed
      fonts.dataset.version = state.fonts;
    }
    showProblems(state.problems || [], state.count);
    if (state.waiting > 0) setStatus("busy", "drawing " + state.waiting + "\u2026");
    else setStatus("live", "live");
  }

  function connect() {
    const source = new EventSource("/events");
    source.addEventListener("state", (e) => {
      const state = JSON.parse(e.data);
      showState(state);
      emit("state", state);
    });
    source.addEventListener("sides", (e) => emit("sides", JSON.parse(e.data)));
    source.addEventListener("resync", () => emit("resync", {}));
    source.onopen = () => {
      setStatus("live", "live");
      emit("resync", {}); // after a reconnection the page may have missed changes
    };
    source.onerror = () => setStatus("offline", "reconnecting\u2026");
  }

  // The first problems (an event carries only the first few, with how many there are in all).
  function showProblems(problems, count) {
    const box = document.getElementById("problems");
    if (!box) return;
    const total = count === undefined ? problems.length : count;
    const shown = problems.slice(0, 12);
    box.hidden = total === 0;
    const list = box.querySelector("ul");
    list.replaceChildren(...shown.map((p) => el("li", {}, p)));
    if (total > shown.length) list.append(el("li", {}, "\u2026 and " + (total - shown.length) + " more"));
  }

  // An element with attributes (and properties for on*) and children (text is always text, never markup).
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const enc = encodeURIComponent;

  function sideURL(deck, kind, name, version, format) {
    return "/" + (kind === "face" ? "cards" : "backs") + "/" + enc(deck) + "/" + enc(name) + "." + (format || "svg") + "?v=" + enc(version || "");
  }

  function pageURL(deck, kind, name) {
    return "/" + (kind === "face" ? "card" : "back") + "/" + enc(deck) + "/" + enc(name);
  }

  async function getJSON(url) {
    const response = await fetch(url, { cache: "no-store" });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(url + ": " + response.status);
    return response.json();
  }

  // A card cut at its trim: a frame of the trim's shape; the image (trim plus bleed) placed inside it.
  function frame(geometry) {
    const g = geometry;
    const box = el("div", { class: "frame" });
    box.style.aspectRatio = g.trim_w + " / " + g.trim_h;
    box.style.borderRadius = (100 * g.radius / g.trim_w) + "% / " + (100 * g.radius / g.trim_h) + "%";
    return box;
  }

  // Card art is the side's SVG put into the page (in a shadow root of its own, so its ids stay its own),
  // where it is drawn with the fonts Aetherpress ships (fonts.css), as in print; an <img> could not load them.
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) {
        observer.unobserve(entry.target);
        mount(entry.target);
      }
    }
  }, { rootMargin: "800px" });

  async function mount(node) {
    const url = node.dataset.src;
    if (!url || node.dataset.shown === url) return;
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(response.status + " " + (await response.text()));
      const text = await response.text();
      if (node.dataset.src !== url) return; // a newer version was asked for meanwhile
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const svg = doc.documentElement;
      if (svg.localName !== "svg" || doc.getElementsByTagName("parsererror").length) throw new Error("not an SVG");
      const card = document.importNode(svg, true);
      quoteFamilies(card);
      card.setAttribute("width", "100%");
      card.setAttribute("height", "100%");
      const root = node.shadowRoot || node.attachShadow({ mode: "open" });
      root.replaceChildren(card);
      node.dataset.shown = url;
      node.classList.remove("broken");
    } catch (err) {
      node.classList.add("broken");
      node.title = String(err.message || err);
    }
  }

  // In CSS a family name such as Source Sans 3 must be quoted (a word may not start with a digit): a browser
  // ignores font-family="Source Sans 3" altogether, where the PDF draws it in that family. Quote each name.
  const GENERIC = new Set(["serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "inherit", "initial"]);
  function quoteFamilies(root) {
    for (const node of [root, ...root.querySelectorAll("[font-family]")]) {
      const value = node.getAttribute("font-family");
      if (!value) continue;
      const names = value.split(",").map((n) => n.trim()).filter((n) => n);
      node.setAttribute("font-family", names.map((n) => (/^["']/.test(n) || GENERIC.has(n) ? n : '"' + n.replace(/["\\]/g, "") + '"')).join(", "));
    }
  }

  // The art of a side (trim plus bleed, filling its parent): drawn now, or when scrolled near with ``lazy``.
  function art(node, url, lazy) {
    node = node || el("div", { class: "art" });
    if (node.dataset.src !== url) {
      node.dataset.src = url;
      if (lazy && !node.dataset.shown) observer.observe(node);
      else mount(node);
    }
    return node;
  }

  // Show ``side`` in a frame made by ``frame``: waiting, drawn (in draft or not), or not drawable.
  function fill(box, geometry, side, lazy) {
    const g = geometry;
    box.classList.remove("waiting", "failed", "draft");
    for (const old of box.querySelectorAll(".trouble")) old.remove();
    let node = box.querySelector(".art");
    if (!side.v || !side.image) {
      if (node) node.remove();
      box.classList.add(side.v ? "failed" : "waiting");
    } else {
      const fresh = !node;
      node = art(node, sideURL(side.deck, side.kind, side.name, side.v), lazy);
      if (fresh) {
        node.style.width = (100 * g.width / g.trim_w) + "%";
        node.style.height = (100 * g.height / g.trim_h) + "%";
        node.style.left = (-100 * g.bleed / g.trim_w) + "%";
        node.style.top = (-100 * g.bleed / g.trim_h) + "%";
        box.append(node);
      }
    }
    if (side.v && side.problems && side.problems.length) {
      if (side.draft) box.classList.add("draft");
      box.append(el("div", { class: "trouble", title: side.problems.join("\n") },
        el("strong", {}, side.draft ? "drawn in draft" : side.stale ? "cannot be drawn now: its last good drawing"
          : side.image ? "prints otherwise than shown" : "cannot be drawn"),
        side.problems[0]));
    }
  }

  function measure(g) {
    const n = (x) => (Math.round(x * 100) / 100).toString();
    return n(g.trim_w) + " \u00d7 " + n(g.trim_h) + " mm";
  }

  return { on, connect, el, sideURL, pageURL, getJSON, frame, fill, art, measure, showState, state: () => lastState };
})();
