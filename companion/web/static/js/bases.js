// One panel per base: the counted total against the breakpoint, each player's power, the
// cards on it, and what it would give if it scored now.
import { h } from "./dom.js";
import { cardName, cards } from "./api.js";

export function basePanels(payload, onCard, onBase) {
  const { state, colours } = payload;
  if (!state.bases.length) {
    return [h("p.empty", "No base in play yet: tap a base card on a base zone.")];
  }
  return state.bases.map((base) => basePanel(base, colours, onCard, onBase));
}

function basePanel(base, colours, onCard, onBase) {
  const share = base.breakpoint > 0 ? Math.min(1, base.total / base.breakpoint) : 1;
  const monsterPart = base.breakpoint - base.printed_breakpoint;
  const status = base.scoring ? "scoring" : base.ready ? "ready" : "";
  return h(
    `article.base${status ? "." + status : ""}`,
    { dataset: { zone: base.zone }, "aria-label": cardName(base.card) },
    h(
      "header",
      h("button.base-name", { onclick: () => onBase(base) }, cardName(base.card)),
      h("span.zone", base.zone),
      status ? h(`span.badge.${status}`, status === "scoring" ? "Scoring" : "Ready to score") : null
    ),
    h(
      "div.total-line",
      h("span.total", { dataset: { total: base.total } }, String(base.total)),
      h("span.of", " / ", h("span.breakpoint", String(base.breakpoint))),
      monsterPart
        ? h("span.bp-detail", `printed ${base.printed_breakpoint} + monsters ${monsterPart}`)
        : null
    ),
    h(
      "div.progress",
      { role: "progressbar", "aria-valuemin": 0, "aria-valuemax": base.breakpoint, "aria-valuenow": base.total },
      h("div.fill", { style: { width: `${Math.round(share * 100)}%` } })
    ),
    h(
      "ul.powers",
      Object.entries(base.power).map(([player, power]) =>
        h("li.power", { style: { borderColor: colours[player] || "#888" } },
          h("span.who", player), h("span.num", String(power)))
      )
    ),
    base.monsters_to_place > 0
      ? h("p.hint", `Tap ${base.monsters_to_place} more monster(s) on this base`)
      : null,
    h("ul.cards", [
      ...base.minions.map((m) => cardItem(m, colours, onCard, base)),
      ...base.monsters.map((m) => cardItem(m, colours, onCard, base, true)),
      ...base.actions.map((a) => actionItem(a, colours)),
    ]),
    buriedLine(base, colours),
    preview(base)
  );
}

function cardItem(minion, colours, onCard, base, monster = false) {
  const who = minion.controller;
  const facts = cardFacts(minion.card);
  return h(
    "li",
    h(
      "button.card" + (minion.counted === false ? ".not-counted" : "") + (monster ? ".monster" : ""),
      {
        onclick: () => onCard(minion, base),
        style: { borderLeftColor: who ? colours[who] || "#888" : "#555" },
        dataset: { tag: minion.tag },
      },
      h("span.card-name", cardName(minion.card)),
      monster ? h("span.tag-note", `monster${facts && facts.treasures ? ` · ${facts.treasures} treasure` : ""}${who ? " · " + who : ""}`) : null,
      minion.counters ? h("span.counter-badge", `+${minion.counters}`) : null,
      minion.actions.length ? h("span.tag-note", minion.actions.map((a) => cardName(a.card)).join(", ")) : null,
      h("span.card-power", String(minion.power))
    )
  );
}

function actionItem(action, colours) {
  return h(
    "li.action",
    { style: { borderLeftColor: colours[action.controller] || "#555" } },
    h("span.card-name", cardName(action.card)),
    h("span.tag-note", "action")
  );
}

function buriedLine(base, colours) {
  if (!base.buried.length) return null;
  const counts = { ...(base.buried_count || {}) };
  if (!base.buried_count) for (const card of base.buried) counts[card.controller] = (counts[card.controller] || 0) + 1;
  return h(
    "p.buried",
    "Buried face down: ",
    Object.entries(counts).map(([who, n]) =>
      h("span.chip", { style: { borderColor: colours[who] || "#888" }, dataset: { player: who } }, `${who} ${n}`)
    )
  );
}

function preview(base) {
  const { ranking, treasures } = base.preview;
  if (!ranking.length) return h("p.preview", "If it scored now: nobody would place");
  const places = ranking.map((r) => `${r.player} ${r.vp}`);
  const tied = new Set(ranking.map((r) => r.place)).size < ranking.length;
  return h(
    "p.preview",
    "If it scored now: ",
    h("strong", places.join(" · ")),
    tied ? h("span.tie", " (tie)") : null,
    treasures.count ? ` · ${treasures.count} treasure(s): ${treasures.order.join(", ")}` : null
  );
}

let facts = null;
cards().then((map) => (facts = map));
const cardFacts = (id) => (facts ? facts.get(id) : null);
