// What the table needs from people now, each answerable with one tap: the game's end,
// the tracker's questions, a base scoring, bases ready to score, treasures to deal.
import { h } from "./dom.js";
import { cardName } from "./api.js";
import { oopsPrompts } from "./oops.js";

export function promptCards(payload, send, enrolTag) {
  const { state } = payload;
  const found = [];
  if (state.winners.length) found.push(gameOver(state));
  for (const prompt of state.prompts) found.push(trackerPrompt(prompt, send, enrolTag));
  if (state.pending) {
    found.push(
      h("section.prompt.info", h("p.message", `Tap the minion that ${cardName(state.pending.card)} goes on (at ${state.pending.zone})`))
    );
  }
  for (const base of (state.bases || []).filter((b) => b.monsters_to_place > 0)) {
    found.push(
      h("section.prompt.monsters", { dataset: { zone: base.zone } },
        h("p.message", `${cardName(base.card)} needs its monsters: draw ${base.monsters_to_place} and tap them on ${base.zone}`))
    );
  }
  const bases = state.bases || [];
  const scoring = bases.find((b) => b.scoring);
  if (scoring) found.push(scoringNow(scoring, send));
  else if (!state.winners.length) {
    const ready = bases.filter((b) => b.ready);
    if (ready.length) found.push(readyToScore(ready, state.current_player, send));
  }
  if (state.deals && state.deals.length) found.push(deal(state.deals[0], state.deals.length, send));
  found.push(...oopsPrompts(state, payload.colours, send));
  return found;
}

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
    prompt.left ? h("p.detail", `${prompt.left} more to choose`) : null,
    h("div.options", buttons)
  );
}

function scoringNow(base, send) {
  const { ranking, treasures } = base.preview;
  return h(
    "section.prompt.scoring",
    h("p.message", `${cardName(base.card)} is scoring. Play before-scoring specials, then award.`),
    h("p.detail", ranking.length ? ranking.map((r) => `${r.player} ${r.vp} VP`).join(" · ") : "Nobody places."),
    treasures.count ? h("p.detail", `${treasures.count} treasure(s) to deal after`) : null,
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
    h(
      "div.options",
      ready.map((base) =>
        h("button.choice", { onclick: (e) => send({ input: "score", zone: base.zone }, e.currentTarget) },
          `Score ${cardName(base.card)}`)
      )
    )
  );
}

function deal(current, open, send) {
  const more = open > 1 ? ` (${open - 1} more deal(s) after this)` : "";
  if (current.kind === "draw") {
    return h(
      "section.prompt.deal",
      h("p.message", `${current.next} draws ${current.count} treasure(s) for destroying ${cardName(current.card)}${more}`),
      h("div.options", h("button.choice", { onclick: (e) => send({ input: "dealt", all: true }, e.currentTarget) }, "Done"))
    );
  }
  return h(
    "section.prompt.deal",
    h("p.message", `Reveal ${current.count} treasure(s) from ${cardName(current.card)}: ${current.next} picks now${more}`),
    h(
      "ol.draft",
      current.order.map((who, i) =>
        h(i < current.taken ? "li.done" : i === current.taken ? "li.now" : "li", who)
      )
    ),
    h(
      "div.options",
      h("button.choice", { onclick: (e) => send({ input: "dealt" }, e.currentTarget) }, `${current.next} took one`),
      h("button.quiet", { onclick: (e) => send({ input: "dealt", all: true }, e.currentTarget) }, "All dealt")
    )
  );
}
