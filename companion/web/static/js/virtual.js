// The virtual table of a simulated table: pick a card (find it by name), tap a zone; the card
// is put on that zone's simulated reader (the real reader code reads it) and lifted again a
// moment later.
import { h, fill, $ } from "./dom.js";
import { getJSON, post, act, say, zoneLabel, placeName } from "./api.js";

const LIFT_AFTER_MS = 700;

export class VirtualTable {
  constructor(root) {
    this.root = root;
    this.chosen = null;
    this.owner = null;
    this.cards = [];
    this.demo = null;
    this.loadedVersion = null;
    this.payload = null;
    // kept across redraws, so typing is never interrupted by a new state
    this.search = h("input.search#card-search", {
      type: "search", placeholder: "Find a card by name", "aria-label": "Find a card by name",
      autocomplete: "off", oninput: () => this.drawCards(),
    });
    // it scrolls: a keyboard reaches it even while its cards are disabled (view only)
    this.list = h("div.options.card-list", { tabindex: 0, role: "group", "aria-label": "The virtual table's cards" });
    this.head = h("div");
  }

  async update(payload) {
    if (!payload.simulated) {
      this.root.hidden = true;
      return;
    }
    this.root.hidden = false;
    if (this.loadedVersion !== `${payload.game_id}:${payload.version}`) {
      this.loadedVersion = `${payload.game_id}:${payload.version}`;
      try {
        [{ cards: this.cards }, this.demo] = await Promise.all([
          getJSON("/api/sim/cards"),
          payload.demo ? getJSON("/api/demo").catch(() => null) : null,
        ]);
      } catch (error) {
        say(error.message, "error");
      }
    }
    this.render(payload);
  }

  render(payload) {
    this.payload = payload;
    const zones = payload.zones || [];
    const players = payload.state.players.map((p) => p.name);
    const owners = [...players, "table", "all"];
    if (this.owner === null || !owners.includes(this.owner)) {
      this.owner = this.cards.some((c) => c.owner) ? payload.state.current_player : "all";
    }
    if (!this.root.contains(this.search)) fill(this.root, this.head, this.search, this.list);
    fill(
      this.head,
      h("header",
        h("h2", "Virtual table"),
        this.demo ? this.demoButton() : null),
      h("p.detail", this.chosen ? `Now tap a zone for ${this.chosen.name}` : "Pick a card, then tap the zone to put it on."),
      h("div.options.zones",
        zones.map((zone) =>
          h("button.zone-button", { dataset: { zone }, disabled: !this.chosen, onclick: (e) => this.place(zone, e.currentTarget) }, zoneButtonLabel(zone, players)))),
      h("div.options.owners",
        owners.map((o) => h("button.tab" + (o === this.owner ? ".on" : ""), { onclick: () => { this.owner = o; this.render(payload); } }, o)))
    );
    this.drawCards();
  }

  drawCards() {
    const payload = this.payload;
    const wanted = this.search.value.trim().toLowerCase();
    const shown = this.cards
      .filter((c) => this.owner === "all" || (c.owner || "table") === this.owner)
      .filter((c) => !wanted || (c.name || c.card).toLowerCase().includes(wanted))
      .sort((a, b) => a.in_play - b.in_play || (a.name || "").localeCompare(b.name || ""));
    fill(
      this.list,
      shown.length ? shown.map((card) =>
        h("button.vcard" + (this.chosen && this.chosen.uid === card.uid ? ".on" : ""),
          { dataset: { uid: card.uid }, style: { borderLeftColor: payload.colours[card.owner] || "#555" },
            onclick: () => { this.chosen = card; this.render(payload); } },
          card.name || card.card,
          card.zone ? h("span.tag-note", ` on ${placeName(payload.state, card.zone)}`) : card.in_play ? h("span.tag-note", " in play") : null))
        : h("p.empty", wanted ? `No card here is called "${this.search.value.trim()}"` : "No cards.")
    );
  }

  demoButton() {
    const paused = this.demo.paused;
    return h("button.quiet#demo-toggle", {
      onclick: (e) => act(e.currentTarget, async () => {
        this.demo = await post(paused ? "/api/demo/resume" : "/api/demo/pause");
        fill(e.target, this.demo.paused ? "Resume the demo" : "Pause the demo");
      }),
    }, paused ? "Resume the demo" : "Pause the demo");
  }

  async place(zone, button) {
    const card = this.chosen;
    if (!card) return;
    await act(button, async () => {
      await post(`/api/sim/${zone}/place`, { uid: card.uid });
      // a card picked while this one was on its way stays picked
      if (this.chosen === card) {
        this.chosen = null;
        if (this.payload) this.render(this.payload);
      }
      setTimeout(() => post(`/api/sim/${zone}/lift`, { uid: card.uid }).catch((e) => say(e.message, "error")), LIFT_AFTER_MS);
    });
  }
}

// "seat-2" is Ben's seat in Munchkin Cthulhu.
function zoneButtonLabel(zone, players) {
  const seat = /^seat-(\d+)$/.exec(zone);
  return seat && players[Number(seat[1]) - 1] ? `${players[Number(seat[1]) - 1]}'s seat` : zoneLabel(zone);
}
