// The game's spells on the table (Founder's Flip's Aetherial deck): a pile shuffled with the deal, one spell
// in play at a time, turned from the pile or cast by name; a spell that is one of the game's modifiers changes
// what the hands are worth (the server counts its odds), the others are shown with their text.
"use strict";

// ``table``: { state(), game(), spells (id -> spell card), cards, remember(), addLog(entry), changed() }
const TableSpells = (table) => {
  const { el } = Preview;

  // Put a spell in play: the top of the pile, or the one named by ``uid``; the spell in play goes under the pile.
  function turn(uid) {
    const state = table.state();
    if (!state || !state.spellPile.length) return;
    const at = uid ? state.spellPile.indexOf(uid) : 0;
    if (at < 0) return;
    table.remember();
    const turned = state.spellPile.splice(at, 1)[0];
    if (state.spell) state.spellPile.push(state.spell);
    state.spell = turned;
    table.addLog({ action: "spell", card: state.cards[state.spell] });
    table.changed();
  }

  function end() {
    const state = table.state();
    if (!state || !state.spell) return;
    table.remember();
    table.addLog({ action: "spell ends", card: state.cards[state.spell] });
    state.spellPile.push(state.spell);
    state.spell = null;
    table.changed();
  }

  // The modifier in force: the spell in play if it is one, or the house rule chosen (a game without spells).
  function active() {
    const state = table.state(), game = table.game();
    if (state && state.rule && game && !game.spells) return state.rule;
    if (!state || !state.spell || !game || !game.spells) return null;
    const card = table.spells.get(state.cards[state.spell]);
    return card && card.modifier ? card.id : null;
  }

  function box() {
    const state = table.state();
    const out = el("div", { class: "stack spells" }, el("h3", {}, "Spell"));
    if (state.spell) {
      const node = table.cards.shown(state.spell, true);
      const card = table.spells.get(state.cards[state.spell]);
      out.append(el("div", { class: "spell-now", id: "spell-now", "data-card": card.id }, node,
        el("div", { class: "spell-text" }, el("strong", {}, card.name), el("p", {}, card.text || ""),
          el("p", { class: "muted" }, card.modifier ? "Its odds are shown." : "It does not change what a hand is worth."))));
    } else {
      out.append(el("p", { class: "muted" }, state.spellPile.length + " spells, shuffled with the deal"));
    }
    const turnButton = el("button", { type: "button", id: "turn-spell" }, "Turn a spell");
    turnButton.disabled = !state.spellPile.length;
    turnButton.addEventListener("click", () => turn());
    const endButton = el("button", { type: "button", id: "end-spell" }, "Spell ends");
    endButton.disabled = !state.spell;
    endButton.addEventListener("click", end);
    const cast = el("select", { id: "cast", "aria-label": "Cast a chosen spell" }, el("option", { value: "" }, "or cast\u2026"),
      ...state.spellPile.map((uid) => el("option", { value: uid }, table.spells.get(state.cards[uid]).name)));
    cast.addEventListener("change", () => cast.value && turn(cast.value));
    out.append(el("div", { class: "buttons" }, turnButton, endButton), cast);
    return out;
  }

  return { turn, end, active, box };
};
