// What the table needs from people now, as a tray rather than a wall: the prompt due now on
// top, how many others wait (tap to see them), and every pending treasure deal as a compact
// strip saying who picks. Each is answerable with one tap.
import { h, plural } from "./dom.js";
import { cardName, zoneLabel } from "./api.js";
import { oopsPrompts } from "./oops.js";

// The tray's parts: [the prompt due now, the "N more" switch, the others if shown, deals].
export function promptTray(payload, send, enrolTag, shown) {
  const items = dueNow(payload, send, enrolTag);
  const strip = dealStrip(payload.state, send);
  const [now, ...later] = items;
  if (now) now.classList.add("now");
  const more = later.length
    ? h("button.quiet.more-prompts#more-prompts",
        { "aria-expanded": shown.open ? "true" : "false",
          onclick: () => { shown.open = !shown.open; shown.redraw(); } },
        shown.open ? "Show only the first" : `${later.length} more waiting`)
    : null;
  return [now || null, more, shown.open ? later : null, strip];
}

// Everything waiting, the one due now first: the game's end, a base being scored, a duel on,
// the tap the tracker waits for, the physical truth to fix (it changes the counts), the
// newest question, the monsters to place, the bases ready to score.
function dueNow(payload, send, enrolTag) {
  const { state } = payload;
  if (state.winners.length) return [gameOver(state)];
  const bases = state.bases || [];
  const scoring = bases.find((b) => b.scoring);
  const found = scoring ? [scoringNow(scoring, send)] : [];
  found.push(...oopsPrompts(state, payload.colours, send));
  if (state.pending) {
    found.push(h("section.prompt.info",
      h("p.message", `Tap the minion that ${cardName(state.pending.card)} goes on (at ${baseName(state, state.pending.zone)})`)));
  }
  const waiting = (p) => p.moment && p.moment.turn === null && p.moment.card === null && p.moment.base === null;
  const asked = [...state.prompts].reverse();
  for (const prompt of [...asked.filter(waiting), ...asked.filter((p) => !waiting(p))]) {
    found.push(trackerPrompt(prompt, send, enrolTag));
  }
  for (const base of bases.filter((b) => b.monsters_to_place > 0)) {
    found.push(h("section.prompt.monsters", { dataset: { zone: base.zone } },
      h("p.message", `${cardName(base.card)} needs its monsters: draw ${plural(base.monsters_to_place, "monster")} and tap ${base.monsters_to_place === 1 ? "it" : "them"} on this base`)));
  }
  const ready = bases.filter((b) => b.ready && !b.scoring);
  if (!scoring && ready.length) found.push(readyToScore(ready, state.current_player, send));
  return found;
}

const baseName = (state, zone) => {
  const base = (state.bases || []).find((b) => b.zone === zone);
  return base ? cardName(base.card) : zoneLabel(zone);
};

function gameOver(state) {
  const score = (p) => (p.level !== undefined ? p.level : p.final_vp);
  const unit = state.game === "munchkin-cthulhu" ? "Level" : "VP";
  const ranked = [...state.players].sort((a, b) => score(b) - score(a));
  return h(
    "section.prompt.game-over",
    h("h2", `${state.winners.join(" and ")} won!`),
    h("ol.final", ranked.map((p) => h("li", h("span", p.name), h("span.num", `${score(p)} ${unit}`))))
  );
}

// more answers than fit a row or two: they go in one row to swipe through
const MANY = 4;

function trackerPrompt(prompt, send, enrolTag) {
  const buttons = prompt.options.map((option, index) =>
    h(
      "button" + (option.line.input === "dismiss" ? ".quiet" : ".choice"),
      { onclick: (event) => send({ input: "answer", prompt: prompt.id, option: index }, event.currentTarget) },
      option.label
    )
  );
  if (prompt.kind === "unknown-tag" && prompt.tag) {
    buttons.unshift(h("button.choice", { onclick: () => enrolTag(prompt) }, "Enrol this tag"));
  }
  return h(
    `section.prompt.${prompt.kind}`,
    { dataset: { prompt: prompt.id } },
    h("p.message", prompt.message),
    prompt.left && prompt.left > 1 ? h("p.detail", `${prompt.left} more to choose`) : null,
    buttons.length > MANY ? h("p.detail.swipe", `${buttons.length} choices: swipe along the row for more`) : null,
    h("div.options" + (buttons.length > MANY ? ".many" : ""), { role: "group", "aria-label": "Choices" }, buttons)
  );
}

function scoringNow(base, send) {
  const { ranking, treasures } = base.preview;
  return h(
    "section.prompt.scoring",
    h("p.message", `${cardName(base.card)} is scoring. Play before-scoring specials, then award.`),
    h("p.detail", ranking.length ? ranking.map((r) => `${r.player} ${r.vp} VP`).join(" · ") : "Nobody places."),
    treasures.count ? h("p.detail", `${plural(treasures.count, "treasure")} to deal after`) : null,
    h("div.options", h("button.choice.award", { onclick: (e) => send({ input: "award" }, e.currentTarget) }, "Award"))
  );
}

function readyToScore(ready, player, send) {
  const message =
    ready.length === 1
      ? `${cardName(ready[0].card)} is ready to score`
      : `${ready.length} bases are ready: ${player} chooses which scores first`;
  return h(
    "section.prompt.ready",
    h("p.message", message),
    h("div.options",
      ready.map((base) =>
        h("button.choice", { onclick: (e) => send({ input: "score", zone: base.zone }, e.currentTarget) },
          `Score ${cardName(base.card)}`)))
  );
}

// Every pending deal in one strip, oldest first: what it is for, who picks now, and the
// buttons to say a treasure was taken (any deal, not only the oldest: a draft need not wait
// behind a monster's draw).
function dealStrip(state, send) {
  const deals = state.deals || [];
  if (!deals.length) return null;
  return h("section.deals", { "aria-label": "Treasures to deal" },
    h("span.deals-title", deals.length === 1 ? "Treasure to deal" : `${deals.length} treasure deals`),
    deals.map((deal, index) => dealChip(deal, index, send)));
}

function dealChip(deal, index, send) {
  const what = cardName(deal.card);
  const dealt = (all) => (e) => send({ input: "dealt", deal: index, ...(all ? { all: true } : {}) }, e.currentTarget);
  if (deal.kind === "draw") {
    return h("div.deal.draw", { dataset: { deal: index } },
      h("span.deal-what", `${deal.next} draws ${deal.count} for ${what}`),
      h("button.choice", { onclick: dealt(true) }, "Drawn"));
  }
  return h("div.deal.draft", { dataset: { deal: index } },
    h("span.deal-what", `${what}:`),
    h("ol.draft", deal.order.map((who, i) =>
      h(i < deal.taken ? "li.done" : i === deal.taken ? "li.now" : "li", who))),
    h("button.choice", { onclick: dealt(false) }, `${deal.next} took one`),
    h("button.quiet", { onclick: dealt(true) }, "All dealt"));
}
