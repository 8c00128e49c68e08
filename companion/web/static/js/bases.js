// One panel per base: the counted total against the breakpoint (and how much more it needs
// when that is within reach), each player's power, the cards on it with their players'
// initials, and what it would give if it scored now.
import { h, plural } from "./dom.js";
import { cardName, cards, zoneLabel } from "./api.js";

// "within reach": this many power or less, or a fifth of the breakpoint on big bases
const REACH_POWER = 3;
const REACH_SHARE = 0.2;

export function basePanels(payload, onCard, onBase, onScore) {
  const { state, colours } = payload;
  if (!state.bases.length && !(payload.zones || []).some((zone) => zone.startsWith("base-"))) {
    return [h("p.empty", "No base in play yet: tap a base card on a base zone.")];
  }
  const marks = initials(state.players.map((p) => p.name));
  const scoring = state.bases.some((b) => b.scoring) || state.winners.length > 0;
  const seen = { colours, marks, scoring };
  // every base zone in table order: one that lost its base (it scored) asks for the next
  const zones = (payload.zones || []).filter((zone) => zone.startsWith("base-"));
  const lying = new Map(state.bases.map((base) => [base.zone, base]));
  const order = zones.length ? zones : [...lying.keys()];
  return [
    ...order.map((zone) => lying.has(zone) ? basePanel(lying.get(zone), seen, onCard, onBase, onScore) : emptyZone(zone)),
    ...state.bases.filter((base) => !order.includes(base.zone)).map((base) => basePanel(base, seen, onCard, onBase, onScore)),
  ];
}

function emptyZone(zone) {
  const label = zoneLabel(zone);
  return h("section.base.empty-zone", { dataset: { zone }, "aria-label": `${label}: no base` },
    h("header", h("h3.base-name", `${label[0].toUpperCase()}${label.slice(1)} is empty`)),
    h("p.hint", "Deal the next base from the base deck, face up, and tap it here."));
}

// Each player's shortest name start that no other player's name shares ("A", or "An" and
// "Ab" for Ann and Abe): shown next to their cards, so colour is never the only sign.
export function initials(names) {
  const marks = {};
  for (const name of names) {
    let length = 1;
    const clash = (n) => names.some((o) => o !== name && o.slice(0, n).toLowerCase() === name.slice(0, n).toLowerCase());
    while (length < name.length && clash(length)) length += 1;
    marks[name] = name.slice(0, length);
  }
  return marks;
}

export function needsMore(base) {
  const gap = base.breakpoint - base.total;
  if (base.ready || gap <= 0) return null;
  return gap <= Math.max(REACH_POWER, Math.floor(base.breakpoint * REACH_SHARE)) ? gap : null;
}

function basePanel(base, seen, onCard, onBase, onScore) {
  const { colours } = seen;
  const share = base.breakpoint > 0 ? Math.min(1, base.total / base.breakpoint) : 1;
  const monsterPart = base.breakpoint - base.printed_breakpoint;
  const close = needsMore(base);
  const status = base.scoring ? "scoring" : base.ready ? "ready" : close ? "close" : "";
  const badge = {
    scoring: "Scoring",
    ready: "Ready to score",
    close: `Needs ${close} more`,
  }[status];
  return h(
    `article.base${status ? "." + status : ""}`,
    { dataset: { zone: base.zone }, "aria-label": cardName(base.card) },
    h(
      "header",
      h("button.base-name", { onclick: () => onBase(base) }, cardName(base.card)),
      h("span.zone", zoneLabel(base.zone)),
      badge ? h(`span.badge.${status}`, badge) : null,
      status === "ready" && !seen.scoring
        ? h("button.choice.score-now", { onclick: (e) => onScore(base, e.currentTarget) }, "Score it")
        : null
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
      { role: "progressbar", "aria-valuemin": 0, "aria-valuemax": base.breakpoint, "aria-valuenow": base.total,
        "aria-label": `${cardName(base.card)}: ${base.total} of ${base.breakpoint} power` },
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
      ? h("p.hint", `Tap ${plural(base.monsters_to_place, "more monster", "more monsters")} on this base`)
      : null,
    h("ul.cards", [
      ...base.minions.map((m) => cardItem(m, seen, onCard, base)),
      ...base.monsters.map((m) => cardItem(m, seen, onCard, base, true)),
      ...base.actions.map((a) => actionItem(a, seen)),
    ]),
    buriedLine(base, colours),
    preview(base)
  );
}

// Who a card is for: a chip with the player's initials in their colour (nobody's: no chip).
function mark(who, seen) {
  if (!who) return null;
  return h("span.mark", { style: { borderColor: seen.colours[who] || "#888" }, title: who, dataset: { player: who } },
    seen.marks[who] || who.slice(0, 1));
}

function cardItem(minion, seen, onCard, base, monster = false) {
  const who = minion.controller;
  const facts = cardFacts(minion.card);
  return h(
    "li",
    h(
      "button.card" + (minion.counted === false ? ".not-counted" : "") + (monster ? ".monster" : ""),
      {
        onclick: () => onCard(minion, base),
        style: { borderLeftColor: who ? seen.colours[who] || "#888" : "#555" },
        dataset: { tag: minion.tag },
      },
      mark(who, seen),
      h("span.card-main",
        h("span.card-name", cardName(minion.card)),
        monster ? h("span.tag-note", `monster${facts && facts.treasures ? ` · ${facts.treasures} treasure` : ""}`) : null,
        minion.actions.length ? h("span.tag-note", `with ${minion.actions.map((a) => cardName(a.card)).join(", ")}`) : null),
      minion.counters ? h("span.counter-badge", `+${minion.counters}`) : null,
      h("span.card-power", String(minion.power))
    )
  );
}

function actionItem(action, seen) {
  return h(
    "li.action",
    { style: { borderLeftColor: seen.colours[action.controller] || "#555" } },
    mark(action.controller, seen),
    h("span.card-main", h("span.card-name", cardName(action.card))),
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
    treasures.count ? ` · ${plural(treasures.count, "treasure")}: ${treasures.order.join(", ")}` : null
  );
}

let facts = null;
cards().then((map) => (facts = map));
const cardFacts = (id) => (facts ? facts.get(id) : null);
