// Oops You Did It Again at the table: burying from the tablet (then the tap), and the duel
// helper: both minions' powers, their dueling cards, the winner.
import { h } from "./dom.js";
import { cardName } from "./api.js";

// A prompt while a bury from hand waits for its tap, and the duel panel when one is on.
export function oopsPrompts(state, colours, send) {
  const found = [];
  const armed = state.burying && state.burying.bury_next;
  if (armed) {
    found.push(
      h("section.prompt.bury-next",
        h("p.message", `${armed.player || "Someone"}: tap the card to bury face down at ${baseName(state, armed.zone)} (${armed.left} to go)`))
    );
  }
  if (state.duel && state.duel.status !== "stopped") found.push(duelPanel(state, colours, send));
  return found;
}

function baseName(state, zone) {
  const base = (state.bases || []).find((b) => b.zone === zone);
  return base ? cardName(base.card) : zone;
}

function duelPanel(state, colours, send) {
  const duel = state.duel;
  const open = duel.status === "open";
  const side = (who) =>
    h("div.duelist", { style: { borderColor: colours[who.controller] || "#888" }, dataset: { side: who.side } },
      h("span.who", `${who.controller || "?"}: ${who.card ? cardName(who.card) : "gone"}`),
      h("span.big", String(who.power)),
      h("span.tag-note", who.dueling_card ? `dueling card: ${cardName(who.dueling_card.card)}` : "no dueling card yet"));
  const [a, b] = [duel.challenger, duel.challenged];
  const leading = a.power === b.power ? "a tie: both sides get the effects" : `${(a.power > b.power ? a : b).controller} would win`;
  const won = [a, b].find((who) => who.tag === duel.winner);
  const result = duel.tie
    ? "A tie: both sides get the duel's effects"
    : won ? `${won.controller} won the duel with ${cardName(won.card)}` : "";
  return h(
    "section.prompt.duel-panel",
    h("p.message", open
      ? `Duel at ${baseName(state, duel.zone)}${duel.card ? ` (${cardName(duel.card)})` : ""}: tap dueling cards at the base, then resolve`
      : result),
    h("div.duel-sides", side(a), h("span.versus", "vs"), side(b)),
    open ? h("p.detail", `Now: ${leading}`) : null,
    open ? h("div.options", h("button.choice.award#resolve-duel", { onclick: (e) => send({ input: "resolve-duel" }, e.currentTarget) }, "Resolve the duel")) : null
  );
}

// Extra rows for a minion's correction sheet: start a duel with a minion of another player
// at the same base.
export function duelChoices(card, base, state, send, doing) {
  if (state.game === "munchkin-cthulhu" || (state.duel && state.duel.status === "open")) return [];
  const rivals = base.minions.filter((m) => m.tag !== card.tag && m.controller && m.controller !== card.controller);
  if (!rivals.length) return [];
  return [
    h("h3", "Duel"),
    h("div.options", rivals.map((rival) =>
      h("button.choice", { onclick: doing(send, { input: "duel", challenger: card.tag, challenged: rival.tag }) },
        `Duel ${cardName(rival.card)} (${rival.controller})`))),
  ];
}

// Rows for a base's sheet: bury a card from a player's hand here (their next tap at this base).
export function buryChoices(base, state, send, doing) {
  if (state.game === "munchkin-cthulhu") return [];
  return [
    h("h3", "Bury a card here (face down)"),
    h("div.options", state.players.map((p) =>
      h("button.choice.bury", { onclick: doing(send, { input: "bury", zone: base.zone, player: p.name, count: 1 }) },
        `${p.name} buries one`))),
  ];
}
