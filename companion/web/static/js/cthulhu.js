// The Munchkin Cthulhu screen: every player's Level big, their class and gear (and what does
// not count, and why), and during a fight both sides' strengths on a Kill-O-Meter with
// one-tap help, resolve, run away (with the die roll) and Level +/-.
import { h, fill, $, plural } from "./dom.js";
import { cardName, cards } from "./api.js";

export function cthulhuBoard(payload, send, openSheet) {
  const { state } = payload;
  return [
    state.combat ? combatPanel(payload, send) : null,
    state.running ? runningPanel(state, send) : null,
    !state.combat && state.last_combat ? lastCombat(state.last_combat) : null,
    state.looting ? lootingPanel(state.looting) : null,
    h("section.mc-players", state.players.map((p) => playerCard(p, payload, send, openSheet))),
  ];
}

function combatPanel(payload, send) {
  const { state, colours } = payload;
  const fight = state.combat;
  const ours = fight.players_strength;
  const theirs = fight.monsters_strength;
  const share = ours + theirs > 0 ? ours / (ours + theirs) : 0.5;
  const verdict = fight.winning
    ? `Winning by ${fight.margin}`
    : `Losing: needs +${1 - fight.margin} to win`;
  const side = [fight.fighter, fight.helper].filter(Boolean).join(" + ");
  const helpers = state.players.map((p) => p.name).filter((n) => n !== fight.fighter && n !== fight.helper);
  return h(
    "section.combat" + (fight.winning ? ".winning" : ".losing"),
    { "aria-label": "Combat" },
    h("header", h("h2", "Combat"), h("span.verdict", verdict)),
    h(
      "div.meter",
      h("div.meter-side.players", h("span.who", side), h("span.big", { dataset: { strength: ours } }, String(ours))),
      h("div.bar", { role: "meter", "aria-label": `Strength: players ${ours}, monsters ${theirs}`,
        "aria-valuemin": 0, "aria-valuenow": ours, "aria-valuemax": ours + theirs },
        h("div.ours", { style: { width: `${Math.round(share * 100)}%`, background: colours[fight.fighter] } })),
      h("div.meter-side.monsters", h("span.big", { dataset: { strength: theirs } }, String(theirs)), h("span.who", "monsters"))
    ),
    h(
      "ul.foes",
      fight.monsters.map((m) =>
        h("li",
          h("span.card-name", cardName(m.card)),
          h("span.tag-note", `Level ${m.level ?? "?"} · ${m.treasures === null || m.treasures === undefined ? "? treasures" : plural(m.treasures, "treasure")}` +
            (m.wandering ? " · wandering" : "") +
            ([...m.enhancers, ...(m.one_shots || [])].length
              ? ` · ${[...m.enhancers, ...(m.one_shots || [])].map((e) => cardName(e.card)).join(", ")}` : "")),
          m.not_computed.length ? h("span.hint", `by hand: ${m.not_computed.join("; ")}`) : null,
          h("span.card-power", String(m.strength)))
      ),
      fight.one_shots.map((o) =>
        h("li.one-shot", h("span.card-name", cardName(o.card)), h("span.tag-note", "for the players"), h("span.card-power", `+${o.bonus}`))),
      (fight.effects || []).map((e) =>
        h("li.fight-wide", h("span.card-name", cardName(e.card)), h("span.tag-note", "on the whole fight")))
    ),
    h("div.sides",
      contributions("Players", fight.players_side || []),
      contributions("Monsters", fight.monsters_side || [])),
    modifiers(send),
    h(
      "div.options",
      fight.helper ? null : helpers.map((name) =>
        h("button.choice", { onclick: (e) => send({ input: "help", player: name }, e.currentTarget), style: { borderColor: colours[name] } }, `${name} helps`)),
      h("button.choice.award#resolve", { onclick: (e) => send({ input: "resolve" }, e.currentTarget) },
        fight.winning ? "Resolve: kill it" : "Resolve: run away")
    )
  );
}

// Each side's total, contribution by contribution: the card and why ("Level" has no card).
function contributions(title, parts) {
  return h("section.side", { "aria-label": `${title}' side` },
    h("h3", title),
    h("ul.parts", parts.map((p) =>
      h("li.part", { dataset: { amount: p.amount } },
        h("span.card-name", p.card ? cardName(p.card) : "—"),
        h("span.tag-note", ` ${p.why}`),
        h("span.card-power", p.amount >= 0 ? `+${p.amount}` : String(p.amount))))));
}

// A labelled +/- on either side for what the table cannot see (one tap, with the label typed
// once): as a level counter would.
function modifiers(send) {
  const label = h("input.search#modifier-label", { type: "text", placeholder: "What for? (by hand)",
    "aria-label": "What the modifier is for", autocomplete: "off" });
  const button = (side, delta, text) =>
    h(`button.choice.modifier`, { dataset: { side, delta },
      onclick: (e) => send({ input: "modifier", side, delta, label: label.value.trim() || "by hand" }, e.currentTarget) },
      text);
  return h("div.modifiers",
    label,
    h("div.options",
      button("players", 1, "Players +1"), button("players", -1, "Players −1"),
      button("monsters", 1, "Monsters +1"), button("monsters", -1, "Monsters −1")));
}

function runningPanel(state, send) {
  const { running } = state;
  return h(
    "section.prompt.running",
    h("p.message", `${running.players.join(" and ")} must run away: roll a die`),
    (running.bad_stuff || []).map((bad) =>
      h("p.bad-stuff", h("strong", `Bad Stuff of ${cardName(bad.card)}: `), bad.text)),
    running.players.map((name) =>
      h("div.roll", { dataset: { player: name } },
        h("span", `${name} escapes on ${running.needs[name]} or more` +
          ((running.rolls || []).filter((r) => r.player === name).length > 1
            ? ` (first: ${cardName((running.rolls || []).find((r) => r.player === name).card)})` : "") + ":"),
        h("div.options", [1, 2, 3, 4, 5, 6].map((roll) =>
          h("button.choice.die", { onclick: (e) => send({ input: "run-away", player: name, roll }, e.currentTarget) }, String(roll))),
          h("button.quiet.died", { onclick: (e) => send({ input: "die", player: name }, e.currentTarget) }, `${name} died`)))
    )
  );
}

// A dead player's items, taken one each from the highest Level down: tap it at your seat.
function lootingPanel(looting) {
  return h("section.prompt.looting",
    h("p.message", `Looting ${looting.dead}: ${looting.next} takes one card next ` +
      `(order: ${looting.order.join(", ")}); tap it at your seat`),
    h("ul.gear", looting.cards.map((c) => h("li", h("span.card-name", cardName(c.card))))));
}

function lastCombat(last) {
  const text = last.won
    ? `${last.fighter} won the fight: +${plural(last.levels, "Level")}, draw ${plural(last.treasures, "treasure")}`
    : `${last.fighter} lost the fight`;
  return h("section.prompt.deal.last-combat", h("p.message", text));
}

function playerCard(player, payload, send, openSheet) {
  const { state, colours } = payload;
  const current = player.name === state.current_player;
  const classes = player.classes.map(cardName).join(" + ") || "no class";
  return h(
    "article.mc-player" + (current ? ".current" : ""),
    { style: { borderColor: colours[player.name] }, dataset: { player: player.name } },
    h("header", h("span.swatch", { style: { background: colours[player.name] } }), h("h2", player.name),
      h("span.tag-note", [player.sex, classes].filter(Boolean).join(" · "))),
    h(
      "div.level-line",
      h("button.choice.level-down", { "aria-label": `${player.name} Level down`, disabled: player.level <= 1,
        onclick: (e) => send({ input: "level", player: player.name, delta: -1 }, e.currentTarget) }, "−"),
      h("span.level", { dataset: { level: player.level } }, String(player.level)),
      h("button.choice.level-up", { "aria-label": `${player.name} Level up`,
        title: player.level >= 9 ? "Level 10 comes only from killing a monster" : null,
        onclick: (e) => send({ input: "level", player: player.name, delta: 1 }, e.currentTarget) }, "+")
    ),
    h("p.strength", "Strength ", h("strong", String(player.strength)),
      h("span.tag-note", ` = Level ${player.level} + gear ${player.gear}` +
        (player.class_bonus ? ` + Cultists ${player.class_bonus}` : "") +
        (player.kept.length ? ` + ${player.kept.map((k) => cardName(k.card)).join(", ")}` : ""))),
    h("ul.gear", player.items.map((item) =>
      h("li" + (item.in_use ? ".in-use" : ".carried"),
        h("span.card-name", cardName(item.card)),
        item.in_use ? null : h("span.tag-note", ` carried: ${item.why_not}`),
        h("span.card-power", item.bonus === null ? "?" : `+${item.bonus}`)))),
    player.items.length
      ? h("button.quiet.sell", { onclick: () => openSheet(player) }, "Sell items")
      : null
  );
}

// The sell sheet: tick items, see the gold, sell for Levels (one per full 1,000).
export function sellSheet(player, send, open, close) {
  let facts = null;
  const total = h("p.detail");
  const boxes = player.items.map((item) => h("input", { type: "checkbox", value: item.tag, "aria-label": cardName(item.card) }));
  const button = h("button.choice#sell-now", { disabled: true }, "Sell");
  function update() {
    const chosen = player.items.filter((_, i) => boxes[i].checked);
    const gold = chosen.reduce((sum, item) => sum + ((facts && facts.get(item.card)?.gold) || 0), 0);
    const levels = Math.floor(gold / 1000);
    fill(total, `${gold} gold: +${plural(levels, "Level")} (never to Level 10, no change given)`);
    button.disabled = chosen.length === 0;
    fill(button, `Sell for ${plural(levels, "Level")}`);
  }
  boxes.forEach((box) => box.addEventListener("change", update));
  button.addEventListener("click", async (e) => {
    const tags = boxes.filter((b) => b.checked).map((b) => b.value);
    if (await send({ input: "sell", player: player.name, tags }, e.currentTarget)) close();
  });
  open(`${player.name} sells`,
    h("ul.gear.sell-list", player.items.map((item, i) => h("li", h("label", boxes[i], " ", cardName(item.card))))),
    total, h("div.options", button));
  cards().then((map) => { facts = map; update(); });
}
