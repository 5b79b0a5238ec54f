// The table's log: every deal and move, and what each hand was worth, downloadable as CSV.
"use strict";

const TableLog = (() => {
  const entries = [];
  const COLUMNS = ["n", "time", "seed", "action", "seat", "card", "from", "to", "spell", "rule", "rules", "category",
    "chance of the category", "chance of it or better", "beats", "cards", "dealt", "expected"];

  function add(entry) {
    const row = Object.assign({ n: entries.length + 1, time: new Date().toISOString() }, entry);
    entries.push(row);
    return row;
  }

  // "a/b" of a fraction [a, b] from the server, and its value as a decimal with up to 12 figures
  function ratio(pair) {
    return pair ? Number((pair[0] / pair[1]).toPrecision(12)) : "";
  }

  function cell(value) {
    if (value === undefined || value === null) return "";
    const text = String(value);
    const guarded = /^[=+\-@\t\r]/.test(text) ? "'" + text : text; // a spreadsheet never reads a cell as a formula
    return /[",\n\r]/.test(guarded) ? '"' + guarded.replace(/"/g, '""') + '"' : guarded;
  }

  // Hands valued right after a deal, by rules and category: how often each came up against how often the
  // exact odds say it would (the sum, over those hands, of the category's chance under their rules).
  function summary() {
    const seen = new Map(); // rules -> category -> { dealt, expected, chance }
    for (const e of entries) {
      if (e.action !== "dealt hand" || !e.table) continue;
      if (!seen.has(e.rules)) seen.set(e.rules, new Map());
      const byCategory = seen.get(e.rules);
      for (const c of e.table) {
        if (!byCategory.has(c.name)) byCategory.set(c.name, { dealt: 0, expected: 0, chance: ratio(c.fraction) });
        byCategory.get(c.name).expected += c.fraction[0] / c.fraction[1];
      }
      if (byCategory.has(e.category)) byCategory.get(e.category).dealt += 1;
    }
    const rows = [];
    for (const [rules, byCategory] of seen) {
      for (const [name, s] of byCategory) {
        rows.push({ action: "summary", rules, category: name, "chance of the category": s.chance,
          dealt: s.dealt, expected: Number(s.expected.toFixed(3)) });
      }
    }
    return rows;
  }

  function csv() {
    const lines = [COLUMNS.join(",")];
    for (const e of [...entries, ...summary()]) lines.push(COLUMNS.map((c) => cell(e[c])).join(","));
    return lines.join("\r\n") + "\r\n";
  }

  function download(name) {
    const blob = new Blob([csv()], { type: "text/csv;charset=utf-8" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }

  return { add, entries, csv, download, ratio };
})();
