// Small SVG charts for the deck's page: bars across (counts, odds) and columns up (a histogram).
// Every label is text, never markup; sizes are in CSS pixels.
"use strict";

const Charts = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  function node(tag, attrs, text) {
    const n = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = String(text);
    return n;
  }

  // How long a text is in the chart's type, roughly (for the width of the label column).
  function textWidth(text, size) {
    return String(text).length * size * 0.62;
  }

  // Bars across, one row each: { label, value, text (shown after the bar), colour }.  ``log``: bar lengths on a
  // logarithmic scale (odds from one in millions to one in two), from ``floor`` up to the largest value.
  function bars(rows, options) {
    const o = Object.assign({ width: 560, row: 22, size: 12.5, log: false, title: "" }, options || {});
    const label = Math.min(o.width * 0.45, Math.max(40, ...rows.map((r) => textWidth(r.label, o.size))) + 14);
    const note = Math.min(o.width * 0.35, Math.max(30, ...rows.map((r) => textWidth(r.text || "", o.size - 1))) + 8);
    const track = Math.max(60, o.width - label - note);
    const values = rows.map((r) => r.value).filter((v) => v > 0);
    const top = Math.max(...values, 0) || 1;
    const floor = o.log ? Math.min(...values, top) / 2 : 0;
    const scale = (v) => {
      if (!(v > 0)) return 0;
      if (!o.log) return (track * v) / top;
      return Math.max(2, (track * Math.log(v / floor)) / Math.log(top / floor));
    };
    const height = rows.length * o.row + 4;
    const svg = node("svg", { class: "chart bars", width: o.width, height, viewBox: "0 0 " + o.width + " " + height, role: "img" });
    if (o.title) svg.append(node("title", {}, o.title));
    rows.forEach((r, i) => {
      const y = i * o.row + 2;
      const g = node("g", { class: "bar-row", "data-label": r.label });
      g.append(node("text", { x: label - 8, y: y + o.row * 0.68, "text-anchor": "end", "font-size": o.size, class: "label" }, r.label));
      g.append(node("rect", { x: label, y: y + 3, width: track, height: o.row - 6, rx: 3, class: "track" }));
      const w = scale(r.value);
      g.append(node("rect", { x: label, y: y + 3, width: w, height: o.row - 6, rx: 3, class: "fill", fill: r.colour || "" }));
      g.append(node("text", { x: label + track + 6, y: y + o.row * 0.68, "font-size": o.size - 1, class: "value" }, r.text || ""));
      svg.append(g);
    });
    return svg;
  }

  // Columns up: { label, value } each, with the value over its column and the label under it; ``mean``
  // (a position along the columns, 0 the middle of the first) is drawn as a dashed line.
  function columns(cols, options) {
    const o = Object.assign({ width: 560, height: 170, size: 11.5, mean: null, meanText: "" }, options || {});
    const n = Math.max(1, cols.length);
    const step = Math.min(56, (o.width - 20) / n);
    const width = Math.max(o.width * 0.4, step * n + 20);
    const base = o.height - 22;
    const top = Math.max(...cols.map((c) => c.value), 1);
    const svg = node("svg", { class: "chart columns", width, height: o.height, viewBox: "0 0 " + width + " " + o.height, role: "img" });
    cols.forEach((c, i) => {
      const x = 10 + i * step;
      const h = ((base - (o.mean !== null ? 34 : 18)) * c.value) / top;
      const g = node("g", { class: "column", "data-label": c.label });
      g.append(node("rect", { x: x + step * 0.12, y: base - h, width: step * 0.76, height: h, rx: 2, class: "fill" }));
      if (c.value) g.append(node("text", { x: x + step / 2, y: base - h - 4, "text-anchor": "middle", "font-size": o.size, class: "value" }, c.value));
      g.append(node("text", { x: x + step / 2, y: base + 15, "text-anchor": "middle", "font-size": o.size, class: "label" }, c.label));
      svg.append(g);
    });
    svg.append(node("line", { x1: 6, x2: 10 + n * step + 4, y1: base, y2: base, class: "axis" }));
    if (o.mean !== null) {
      const x = 10 + (o.mean + 0.5) * step;
      svg.append(node("line", { x1: x, x2: x, y1: 18, y2: base, class: "mean" }));
      const right = x > width * 0.7; // the label on the side with room for it
      svg.append(node("text", { x: right ? x - 4 : x + 4, y: 12, "text-anchor": right ? "end" : "start", "font-size": o.size, class: "mean-text" }, o.meanText));
    }
    return svg;
  }

  return { bars, columns };
})();
