// What a screen reader hears without looking: score changes, a base becoming ready and the
// winner, said through one polite live region (#announce) as the table's state changes.
import { $ } from "./dom.js";
import { cardName } from "./api.js";

let before = null;

const scoreOf = (state, player) => (state.game === "munchkin-cthulhu" ? `Level ${player.level}` : `${player.vp} VP`);

// The changes from the state shown before to this one, in words.
export function changes(previous, state) {
  if (!previous || previous.game_id !== state.game_id) return [];
  const said = [];
  const was = new Map(previous.players.map((p) => [p.name, scoreOf(previous, p)]));
  for (const player of state.players) {
    const now = scoreOf(state, player);
    if (was.has(player.name) && was.get(player.name) !== now) said.push(`${player.name}: ${now}`);
  }
  const readyBefore = new Set((previous.bases || []).filter((b) => b.ready).map((b) => b.card));
  for (const base of state.bases || []) {
    if (base.ready && !readyBefore.has(base.card)) said.push(`${cardName(base.card)} is ready to score`);
  }
  if (state.winners.length && !previous.winners.length) said.push(`Game over: ${state.winners.join(" and ")} won`);
  return said;
}

// Say what changed since the last state (nothing on the first one: that is just the page).
export function announce(state, gameId) {
  const region = $("#announce");
  const current = { ...state, game_id: gameId };
  const said = region ? changes(before, current) : [];
  before = current;
  if (said.length) region.textContent = said.join(". ") + ".";
}
