// Game setup: players (names, colours, seat order), two factions each, the zones in use.
import { h, fill, $ } from "./dom.js";
import { start, getJSON, post, act, say, cardName, cards } from "./api.js";

start();
// the table's colour-blind-safe seat colours (companion/web/palette.py)
const PALETTE = $("#setup").dataset.palette.split(",");
const NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"];
let seats = 3;
let game = "smashup";
const LIMITS = { smashup: [2, 4], "munchkin-cthulhu": [3, 6] };
const [{ factions, printings }, { readers }, league] = await Promise.all([
  getJSON("/api/factions"), getJSON("/api/readers"), getJSON("/api/league"),
]);
await cards();
// A league table offers the league's player names (cached for offline nights); a seat may
// play as a guest instead.
if (league.league) {
  document.body.append(h("datalist#league-names", league.players.map((name) => h("option", { value: name }))));
}

function factionSelect(seat, which) {
  return h(
    `select.faction`,
    { "aria-label": `Player ${seat + 1} faction ${which + 1}`, dataset: { seat, which } },
    h("option", { value: "" }, `Faction ${which + 1}…`),
    factions.map((f) => h("option", { value: f.id }, `${f.name} (${f.set_name})`))
  );
}

function renderSeats() {
  const box = $("#seats");
  const kept = [...box.querySelectorAll(".seat")].map(readSeat);
  fill(
    box,
    Array.from({ length: seats }, (_, seat) => {
      const old = kept[seat] || { name: NAMES[seat], colour: PALETTE[seat], factions: ["", ""] };
      const row = h(
        "div.seat",
        { dataset: { seat } },
        h("strong", `${seat + 1}.`),
        h("input.name", {
          value: old.name, "aria-label": `Player ${seat + 1} name`, list: league.league ? "league-names" : null,
        }),
        league.league && game === "smashup"
          ? h("label.guest", h("input.guest", { type: "checkbox", checked: old.guest, "aria-label": `Player ${seat + 1} plays as a guest` }), " guest")
          : null,
        h("input.colour", { type: "color", value: old.colour, "aria-label": `Player ${seat + 1} colour` }),
        game === "smashup"
          ? h("div.seat-factions", factionSelect(seat, 0), factionSelect(seat, 1))
          : h("div.seat-factions",
              h("select.sex", { "aria-label": `Player ${seat + 1} sex` },
                h("option", { value: "female" }, "female"), h("option", { value: "male" }, "male")))
      );
      const sex = row.querySelector("select.sex");
      if (sex) sex.value = old.sex || (seat % 2 ? "male" : "female");
      row.querySelectorAll("select.faction").forEach((s, i) => (s.value = old.factions[i] || ""));
      return row;
    })
  );
}

function readSeat(row) {
  return {
    name: row.querySelector("input.name").value.trim(),
    colour: row.querySelector("input.colour").value,
    factions: [...row.querySelectorAll("select.faction")].map((s) => s.value),
    sex: row.querySelector("select.sex") ? row.querySelector("select.sex").value : undefined,
    guest: row.querySelector("input.guest") ? row.querySelector("input.guest").checked : false,
  };
}

const seatRows = () => [...document.querySelectorAll("#seats .seat")];
const setFaction = (seat, which, id) => (seatRows()[seat].querySelectorAll("select.faction")[which].value = id);

// The rulebook's draft: clockwise for the first faction, then from the last player back.
function draft() {
  seatRows().forEach((_, seat) => [0, 1].forEach((w) => setFaction(seat, w, "")));
  const order = [...Array(seats).keys()].map((s) => [s, 0]).concat([...Array(seats).keys()].reverse().map((s) => [s, 1]));
  let step = 0;
  const taken = new Set();
  const box = $("#drafting");
  function next() {
    if (step === order.length) {
      fill(box, h("p.detail", "Draft done."));
      return;
    }
    const [seat, which] = order[step];
    const name = readSeat(seatRows()[seat]).name || `Player ${seat + 1}`;
    fill(
      box,
      h("p.message", `${name} picks a ${which ? "second" : "first"} faction`),
      h("div.options", factions.filter((f) => !taken.has(f.id)).map((f) =>
        h("button.choice", { onclick: () => { taken.add(f.id); setFaction(seat, which, f.id); step += 1; next(); } }, f.name)))
    );
  }
  next();
}

function random() {
  const pool = factions.map((f) => f.id);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  seatRows().forEach((_, seat) => [0, 1].forEach((w) => setFaction(seat, w, pool[seat * 2 + w])));
  fill($("#drafting"));
}

// One select per set that has more than one printing: errata by default.
const PRINTED = { errata: "with errata", first: "as first printed", current: "as printed today" };
fill($("#printings"), Object.entries(printings || {}).map(([set, offer]) =>
  h("label", `${offer.name}: `, h("select.printing", { dataset: { set }, "aria-label": `${offer.name} printing` },
    offer.printings.map((name) => h("option", { value: name }, PRINTED[name] || name))))));
const chosenPrintings = () => Object.fromEntries([...document.querySelectorAll("select.printing")]
  .map((s) => [s.dataset.set, s.value]).filter(([, name]) => name !== "errata"));


// The rulebook plays one base more than players. A table with fewer base zones plays with
// as many bases as it has zones, and says so; a table without base zones (a Munchkin Cthulhu
// table: seats and pads) cannot play Smash Up at all.
const MAX_BASES = 5;
function renderZones() {
  const zones = readers.filter((r) => /^base-\d+$/.test(r.zone)).map((r) => r.zone);
  const bases = Math.min(zones.length, MAX_BASES);
  const wanted = seats + 1;
  const select = $("#zones");
  fill(select, Array.from({ length: Math.max(0, bases - 1) }, (_, i) => i + 2).map((n) =>
    h("option", { value: n }, `${n} bases (base-1 … base-${n})`)));
  const usable = bases >= 2;
  select.disabled = !usable;
  $("#start").disabled = game === "smashup" && !usable;
  if (!usable) {
    const names = readers.map((r) => r.zone).join(", ") || "none";
    fill($("#zones-note"), `This table has no base zones to play Smash Up on (its readers: ${names}). ` +
      "Smash Up needs a reader under each base in play, named base-1, base-2 …; Munchkin Cthulhu can be played here.");
    return;
  }
  select.value = String(Math.min(bases, wanted));
  fill($("#zones-note"), bases >= wanted
    ? `${seats} players play with ${wanted} bases: one more than players, as the rulebook says.`
    : `The rulebook plays ${seats} players with ${wanted} bases, but this table has ${bases} base zones: ` +
      `play with ${bases} bases (a base in play needs a reader under it), or add readers for more.`);
}

// A game still being played ends (void, kept in History) only once someone here says so;
// the table refuses (409) a start that does not name the game it ends.
async function startOrAsk(body) {
  const now = await getJSON("/api/state");
  if (now.playing && !now.state.winners.length) {
    const playing = { game_id: now.game_id, players: now.state.players.map((p) => p.name) };
    if (!(await confirmReplacing(playing))) return null;
    return post("/api/games", { ...body, replace: playing.game_id });
  }
  return post("/api/games", body);
}

function confirmReplacing(playing) {
  const dialog = $("#replace");
  const who = playing.players.join(", ");
  return new Promise((resolve) => {
    const answer = (yes) => () => {
      dialog.close();
      resolve(yes);
    };
    fill(dialog,
      h("h2#replace-title", `Game ${playing.game_id} is still being played`),
      h("p", `${who} have not finished it. Starting this game ends it without a winner: it stays in History, marked void.`),
      h("div.options",
        h("button.danger#replace-yes", { type: "button", onclick: answer(true) }, `End game ${playing.game_id} and start`),
        h("button.choice#replace-no", { type: "button", onclick: answer(false) }, "Keep playing it")));
    dialog.addEventListener("cancel", answer(false), { once: true });
    dialog.showModal();
    $("#replace-no").focus();
  });
}

async function startGame(button) {
  const players = seatRows().map(readSeat);
  if (game === "munchkin-cthulhu") {
    await act(button, async () => {
      const started = await startOrAsk({
        game,
        players: players.map(({ name, colour, sex }) => ({ name, colour, sex })),
      });
      if (!started) return;
      const box = $("#started");
      box.hidden = false;
      fill(box, h("h2", `Game ${started.game_id} started`),
        h("p", "Everyone starts at Level 1 with no class. Zones: " + started.zones.join(", ")),
        h("div.options", h("a", { href: "/" }, h("button.choice", "Go to the table"))));
    });
    return;
  }
  const missing = players.find((p) => p.factions.some((f) => !f));
  if (missing) {
    say(`${missing.name || "A player"} needs two factions`, "error");
    return;
  }
  await act(button, async () => {
    const started = await startOrAsk({ players, zones: Number($("#zones").value), printings: chosenPrintings() });
    if (!started) return;
    const box = $("#started");
    box.hidden = false;
    fill(
      box,
      h("h2", `Game ${started.game_id} started`),
      h("p", `Shuffle these ${started.base_deck.length} bases into the base deck and deal ` +
        `${started.zones.filter((z) => z.startsWith("base-")).length} face up, one on each base zone:`),
      h("p.detail", started.base_deck.map(cardName).join(", ")),
      h("div.options", h("a.choice", { href: "/" }, h("button.choice", "Go to the table")))
    );
    say(`Game ${started.game_id} started`);
  });
}

$("#fewer").addEventListener("click", () => { if (seats > LIMITS[game][0]) { seats -= 1; renderSeats(); renderZones(); } });
$("#more").addEventListener("click", () => { if (seats < LIMITS[game][1]) { seats += 1; renderSeats(); renderZones(); } });
document.querySelectorAll("[data-game]").forEach((button) =>
  button.addEventListener("click", () => {
    game = button.dataset.game;
    document.querySelectorAll("[data-game]").forEach((b) => b.classList.toggle("on", b === button));
    document.querySelectorAll(".smashup-only").forEach((el) => (el.hidden = game !== "smashup"));
    seats = Math.min(Math.max(seats, LIMITS[game][0]), LIMITS[game][1]);
    renderSeats();
    renderZones();
  })
);
$("#draft").addEventListener("click", draft);
$("#random").addEventListener("click", random);
$("#start").addEventListener("click", (e) => startGame(e.currentTarget));
renderSeats();
renderZones();
document.body.dataset.ready = "1";
