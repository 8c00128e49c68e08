// Corrections in one tap: a sheet for a card (counters, control, move, remove), a base,
// a player (Madness), and enrolling an unknown tag where it was tapped.
import { h, fill, $, plural } from "./dom.js";
import { cardName, cards, getJSON, post, act, say, zoneLabel } from "./api.js";
import { buryChoices, duelChoices } from "./oops.js";
import { offerUndo } from "./undo.js";

export function openSheet(title, ...body) {
  const dialog = $("#sheet");
  fill(
    dialog,
    h("header", h("h2", title), h("button.quiet.close", { onclick: close, "aria-label": "Close" }, "✕")),
    ...body
  );
  if (!dialog.open) dialog.showModal();
}

export function close() {
  const dialog = $("#sheet");
  if (dialog.open) dialog.close();
}

// send(line, button) submits a tape line; the sheet closes once the table took it.
const doing = (send, line) => async (event) => {
  if (await send(line, event.currentTarget)) close();
};

// A correction that takes something off the table acts at once and offers to undo it.
const removing = (send, line, said) => async (event) => {
  if (await send(line, event.currentTarget)) {
    close();
    offerUndo(said);
  }
};

// Why the card has its power, filled in once the table says: printed, counters, and each
// effect in play by the card that makes it ("+1 from Sword Lord").
function powerWhy(card) {
  const line = h("p.detail.power-why", { "aria-live": "polite" }, "Working out its power…");
  getJSON(`/api/power/${encodeURIComponent(card.tag)}`).then((why) => {
    const parts = [`${why.printed} printed`];
    if (why.counters) parts.push(`${why.counters > 0 ? "+" : ""}${plural(why.counters, "counter")}`);
    for (const reason of why.reasons) parts.push(`${reason.amount > 0 ? "+" : ""}${reason.amount} from ${reason.name}`);
    line.textContent = `Power ${why.power}: ${parts.join(", ")}` + (why.power === 0 && why.printed > 0 ? " (never below 0)" : "");
  }).catch(() => line.remove());
  return line;
}

export function cardSheet(card, base, payload, send) {
  const { state } = payload;
  const players = state.players.map((p) => p.name);
  const monster = base.monsters.some((m) => m.tag === card.tag);
  const others = state.bases.filter((b) => b.zone !== base.zone);
  openSheet(
    `${cardName(card.card)} (${card.power} power)`,
    h("p.detail", `On ${cardName(base.card)} · ${card.controller ? "controlled by " + card.controller : "uncontrolled"} · ${plural(card.counters, "counter")}`),
    powerWhy(card),
    h("h3", "Power counters"),
    h("div.options",
      h("button.choice", { onclick: doing(send, { input: "counter", tag: card.tag, delta: -1 }), disabled: card.counters < 1 }, "−1 counter"),
      h("button.choice", { onclick: doing(send, { input: "counter", tag: card.tag, delta: 1 }) }, "+1 counter")),
    h("h3", "Control"),
    h("div.options",
      players.map((p) =>
        h("button.choice", { onclick: doing(send, { input: "control", tag: card.tag, player: p }), disabled: p === card.controller, style: { borderColor: payload.colours[p] } }, p)),
      monster && card.controller
        ? h("button.choice", { onclick: doing(send, { input: "control", tag: card.tag, player: null }) }, "Nobody")
        : null),
    others.length ? h("h3", "Move to") : null,
    h("div.options",
      others.map((b) => h("button.choice", { onclick: doing(send, { tap: card.tag, zone: b.zone }) }, cardName(b.card)))),
    duelChoices(card, base, state, send, doing),
    h("h3", "Remove"),
    h("div.options",
      h("button.danger", { onclick: removing(send, { input: "remove", tag: card.tag }, `Removed ${cardName(card.card)} from play`) }, "Remove from play"))
  );
}

export function baseSheet(base, payload, send) {
  openSheet(
    cardName(base.card),
    h("p.detail", `${zoneLabel(base.zone)} · ${base.total} of ${base.breakpoint}`),
    h("div.options",
      base.ready && !base.scoring
        ? h("button.choice", { onclick: doing(send, { input: "score", zone: base.zone }) }, "Score it now")
        : null,
      h("button.danger", { onclick: removing(send, { input: "remove-base", zone: base.zone }, `Removed ${cardName(base.card)} and everything on it`) }, "Remove this base")),
    buryChoices(base, payload.state, send, doing)
  );
}

export function playerSheet(player, payload, send) {
  openSheet(
    player.name,
    h("p.detail", `${player.vp} VP · Madness ${player.madness}`),
    h("h3", "Madness cards"),
    h("div.options",
      h("button.choice", { onclick: doing(send, { input: "madness", player: player.name, delta: -1 }), disabled: player.madness < 1 }, "−1 Madness"),
      h("button.choice", { onclick: doing(send, { input: "madness", player: player.name, delta: 1 }) }, "+1 Madness"))
  );
}

// An unknown tag: pick its card (by faction), bind it, and play the tap it came with.
export async function enrolSheet(prompt, payload, send) {
  const [{ factions }, all] = await Promise.all([getJSON("/api/factions"), cards()]);
  const players = payload.state.players.map((p) => p.name);
  const list = h("div.options.card-list");
  const owner = h("select#enrol-owner", { "aria-label": "Owner" },
    h("option", { value: "" }, "Owner: nobody (base, monster, treasure)"),
    players.map((p) => h("option", { value: p }, p)));
  const groups = [
    ...factions.map((f) => ({ label: `${f.name} (${f.set_name})`, test: (c) => c.faction === f.id || f.bases.includes(c.id) })),
    { label: "Monsters and treasures", test: (c) => c.type === "monster" || c.type === "treasure" },
    { label: "Other bases", test: (c) => c.type === "base" },
  ];
  const faction = h("select#enrol-faction", { "aria-label": "Faction", onchange: show },
    groups.map((g, i) => h("option", { value: i }, g.label)));
  function show() {
    const group = groups[Number(faction.value)];
    const matching = [...all.values()].filter(group.test).sort((a, b) => a.name.localeCompare(b.name));
    fill(list, matching.map((card) =>
      h("button.choice", { onclick: (e) => bind(card, e.currentTarget) }, card.name)));
  }
  async function bind(card, button) {
    await act(button, async () => {
      const chosenOwner = owner.value || undefined;
      const bound = await post("/api/bindings", { uid: prompt.tag, card: card.id, owner: chosenOwner });
      say(`Tag ${bound.uid} is now ${card.name}`);
      const ignore = prompt.options.findIndex((o) => o.line.input === "dismiss");
      await send({ input: "answer", prompt: prompt.id, option: ignore }, null, bound.version);
      if (prompt.zone) await send({ tap: prompt.tag, zone: prompt.zone }, null);
      close();
    });
  }
  openSheet(`Enrol tag ${prompt.tag}`, h("p.detail", "Which card is this? Its tap is played once it is enrolled."), faction, owner, list);
  show();
}
