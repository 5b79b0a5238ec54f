// The cards on the table as elements: each dealt card's element is made once and kept, with its face and its
// back each drawn the first time it is shown (the drawn sides the gallery shows), and drawn again when the
// preview tells of a new version.
"use strict";

// ``describe(uid)``: { id, name, back, deck } of a dealt card; ``listen(node, uid)``: wires its pointer events
const TableCards = (describe, listen) => {
  const { el, frame, fill, getJSON } = Preview;
  const nodes = new Map(); // uid -> the card's element
  let sides = new Map(); // "deck|kind|name" -> side, from /api/state
  const geometries = new Map(); // deck slug -> geometry

  const sideOf = (deck, kind, name) => sides.get(deck + "|" + kind + "|" + name);

  function node(uid) {
    let card = nodes.get(uid);
    if (!card) {
      const d = describe(uid);
      card = el("div", { class: "card" + (uid.startsWith("s") ? " spell-card" : ""), "data-uid": uid, "data-card": d.id, tabindex: "0", title: d.name });
      card.face = { box: null, deck: d.deck, name: d.id };
      card.back = { box: null, deck: d.deck, name: d.back };
      listen(card, uid);
      nodes.set(uid, card);
    }
    return card;
  }

  // The card's element showing its face or its back.
  function shown(uid, faceUp) {
    const card = node(uid);
    const which = faceUp ? card.face : card.back;
    const other = faceUp ? card.back : card.face;
    if (!which.box) {
      const geometry = geometries.get(which.deck);
      const side = geometry && sideOf(which.deck, faceUp ? "face" : "back", which.name);
      which.box = geometry ? frame(geometry) : el("div", { class: "frame text-only" }, which.name);
      if (side) fill(which.box, geometry, side, false);
      else if (faceUp && geometry) which.box.append(el("span", { class: "text-only" }, which.name));
      card.append(which.box);
    }
    which.box.hidden = false;
    if (other.box) other.box.hidden = true;
    card.classList.toggle("down", !faceUp);
    return card;
  }

  // Forget the elements of cards no longer dealt (``keep``: the uids still in play or in the undo history).
  function forget(keep) {
    for (const uid of [...nodes.keys()]) if (!keep.has(uid)) nodes.delete(uid);
  }

  async function load() {
    const snapshot = await getJSON("/api/state");
    Preview.showState(snapshot);
    sides = new Map();
    for (const deck of snapshot.decks) {
      geometries.set(deck.slug, deck.geometry);
      for (const side of deck.sides) sides.set(deck.slug + "|" + side.kind + "|" + side.name, side);
    }
  }

  function update(changed) {
    for (const side of changed) sides.set(side.deck + "|" + side.kind + "|" + side.name, side);
    for (const card of nodes.values()) {
      for (const part of [card.face, card.back]) {
        const side = part.box && sideOf(part.deck, part === card.face ? "face" : "back", part.name);
        if (side && geometries.get(part.deck) && part.box.classList.contains("frame")) fill(part.box, geometries.get(part.deck), side, false);
      }
    }
  }

  return { node: (uid) => nodes.get(uid), shown, forget, load, update, size: () => nodes.size };
};
