// Dragging cards on the table with the mouse or a finger: between the seats, the piles and the shared row.
// A press without a move chooses the card instead.
"use strict";

// ``table``: { node(uid), zoneList(zone), whereIs(uid), move(uid, to, index, action), choose(uid) }
const TableDrag = (table) => {
  let drag = null;

  function start(e, uid) {
    if (e.button !== 0) return;
    drag = { uid, x: e.clientX, y: e.clientY, moving: false, node: table.node(uid) };
    e.preventDefault();
    window.addEventListener("pointermove", dragMove);
    window.addEventListener("pointerup", dragEnd, { once: true });
  }

  function dragMove(e) {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < 5) return;
    if (!drag.moving) {
      drag.moving = true;
      drag.node.classList.add("dragging");
    }
    drag.node.style.transform = "translate(" + dx + "px, " + dy + "px)";
    const zone = zoneAt(e.clientX, e.clientY);
    document.querySelectorAll(".zone.target").forEach((z) => z !== zone && z.classList.remove("target"));
    if (zone) zone.classList.add("target");
  }

  function zoneAt(x, y) {
    drag.node.style.pointerEvents = "none";
    const under = document.elementFromPoint(x, y);
    drag.node.style.pointerEvents = "";
    const zone = under && under.closest(".zone, .seat, .stack");
    if (!zone) return null;
    if (zone.classList.contains("zone")) return zone;
    return zone.querySelector(".zone.hand, .zone"); // dropped on a seat or a pile's box: its first zone
  }

  function dragEnd(e) {
    window.removeEventListener("pointermove", dragMove);
    const d = drag;
    drag = null;
    if (!d) return;
    d.node.classList.remove("dragging");
    d.node.style.transform = "";
    document.querySelectorAll(".zone.target").forEach((z) => z.classList.remove("target"));
    if (!d.moving) {
      table.choose(d.uid);
      return;
    }
    drag = d; // for zoneAt
    const zone = zoneAt(e.clientX, e.clientY);
    drag = null;
    if (!zone) return;
    const to = zone.dataset.zone;
    const index = to === "pile" ? 0 : to === "discard" ? undefined : dropIndex(zone, e.clientX, e.clientY, d.uid);
    table.move(d.uid, to, index, to === table.whereIs(d.uid) ? "reorder" : to === "discard" ? "discard" : "move");
  }

  // Where in a zone a card dropped at (x, y) goes: before the first card it lies before (reading the zone
  // line by line), counted among the zone's cards without it.
  function dropIndex(zone, x, y, uid) {
    const others = table.zoneList(zone.dataset.zone).filter((u) => u !== uid);
    for (const node of zone.querySelectorAll(":scope > .card")) {
      if (node.dataset.uid === uid) continue;
      const r = node.getBoundingClientRect();
      if (y < r.top || (y <= r.bottom && x < r.left + r.width / 2)) return others.indexOf(node.dataset.uid);
    }
    return undefined;
  }

  return { start };
};
