// The table screen: the prompt tray, then the bases, the scoreboard and the last events.
import { h, fill, $, plural } from "./dom.js";
import { start, cards, post, say, act, setOffline, ApiError, pairingNoticeChanged } from "./api.js";
import { follow } from "./live.js";
import { basePanels } from "./bases.js";
import { promptTray } from "./prompts.js";
import { cardSheet, baseSheet, playerSheet, enrolSheet, close, openSheet } from "./sheet.js";
import { cthulhuBoard, sellSheet } from "./cthulhu.js";
import { VirtualTable } from "./virtual.js";
import { installUndo, undo, redo } from "./undo.js";
import { installScreen, keepAwake } from "./screen.js";
import { announce } from "./announce.js";

start();
installScreen();
let payload = null;
// whether the prompts waiting behind the one due now are shown (kept across redraws)
const tray = { open: false, redraw: () => render() };
let seen = { game: null, version: -1 };
const virtualTable = new VirtualTable($("#virtual"));

// Submit a tape line with the version this tablet showed; a stale one is refused by the
// table (someone else changed it first) and the screen shows what the table has now.
async function send(line, button, version) {
  const result = await act(button, async () => {
    try {
      const answer = await post("/api/input", { line, version: version ?? seen.version });
      seen.version = Math.max(seen.version, answer.version);
      return answer;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) live.refresh().catch(() => {});
      throw error;
    }
  });
  return result !== null;
}

function show(next) {
  if (next.game_id !== seen.game) {
    seen = { game: next.game_id, version: -1 };
    close();
  }
  if (next.version < seen.version && payload && payload.game_id === next.game_id) return;
  seen.version = next.version;
  payload = next;
  if (pressing) waiting = true;  // redrawn once the finger lifts, so the press is not lost
  else render();
}

// A state arriving while a finger is on a button must not replace that button under it:
// the redraw waits until the press has become a click.
let pressing = false;
let waiting = false;
document.addEventListener("pointerdown", () => (pressing = true), true);
for (const kind of ["pointerup", "pointercancel"]) {
  document.addEventListener(kind, () => {
    pressing = false;
    setTimeout(() => {
      if (waiting && !pressing) {
        waiting = false;
        render();
      }
    }, 0);
  }, true);
}

// The game store failing is said at the top of every screen state: nothing new is saved meanwhile.
function storeAlarm(health) {
  const store = health && health.store;
  const box = $("#store-alarm");
  box.hidden = !store || store.state === "ok";
  if (box.hidden) return;
  // Taps are kept, in order, and count once a write goes through: say so, or players tap again.
  const waiting = store.waiting ? ` ${plural(store.waiting, "read")} ${store.waiting === 1 ? "is" : "are"} waiting.` : "";
  // Busy: another program (a backup, sqlite3) holds the store's write lock; it passes by itself.
  const why = store.state === "busy"
    ? "another program is writing to its store; the table waits for it"
    : store.error;
  fill(box, `The table cannot save the game (${why}). Do not tap again: your taps are`
    + ` kept and count as soon as it can save; it keeps trying.${waiting} Buttons on this page`
    + ` work again once it can. If this stays, check the Pi's storage.`);
}

// A tablet asking to control, and what the End-turn button did meanwhile: a press ends the
// turn, a hold lets the tablet in; the page says which, so no press goes unexplained.
let noticeSerial = null;
function pairingNote(pairing) {
  const serial = pairing ? pairing.serial : null;  // the table counts the notice's changes
  if (serial !== noticeSerial) pairingNoticeChanged();
  noticeSerial = serial;
  const box = $("#pairing-note");
  const lines = pairing ? [pairing.said, pairing.asking].filter(Boolean) : [];
  box.hidden = !lines.length;
  fill(box, ...lines.map((line) => h("p", line)));
}

function render() {
  document.body.dataset.version = payload.version;
  storeAlarm(payload.health);
  pairingNote(payload.pairing);
  document.body.classList.toggle("no-game-page", !payload.playing);
  // a finished game has no turn to end: the way on is a new game
  const over = payload.playing && payload.state.winners.length > 0;
  $("#end-turn").hidden = !payload.playing || over;
  $("#new-game").hidden = !over;
  if (!payload.playing) {
    noGame();
    return;
  }
  const { state, colours } = payload;
  fill($("#turn"), turnLine(state, colours));
  fill($("#prompts"), promptTray(payload, send, (prompt) => enrolSheet(prompt, payload, send), tray));
  const munchkin = state.game === "munchkin-cthulhu";
  document.body.dataset.game = state.game;
  keepAwake(!state.winners.length);
  const score = (base, button) => send({ input: "score", zone: base.zone }, button);
  fill(
    $("#bases"),
    munchkin
      ? cthulhuBoard(payload, send, (player) => sellSheet(player, send, openSheet, close))
      : basePanels(payload, (card, base) => cardSheet(card, base, payload, send), (base) => baseSheet(base, payload, send), score)
  );
  fill($("#scores"), scoreboard(state, colours, munchkin));
  announce(state, payload.game_id);
  fill($("#recent"), recentEvents(payload));
  virtualTable.update(payload);
}

// A table with no game in progress (its first boot): say so, and lead to the New game page.
function noGame() {
  keepAwake(false);
  fill($("#turn"), "No game in progress");
  fill($("#prompts"), h("section.no-game#no-game",
    h("h2", "There is no game on this table yet."),
    h("p", "Choose the players and their factions on the New game page."),
    h("a.choice", { href: "/setup" }, "Start a game"),
    h("p.detail", "Cards are read already: ", h("a", { href: "/enrol" }, "enrol a deck"),
      " or check the ", h("a", { href: "/readers" }, "readers"), " first.")));
  for (const id of ["#bases", "#scores", "#recent"]) fill($(id));
  $("#virtual").hidden = true;
}

function turnLine(state, colours) {
  if (state.winners.length) return h("span", `Game over · turn ${state.turn}`);
  return h(
    "span",
    `Turn ${state.turn} · `,
    h("strong", { style: { color: colours[state.current_player] } }, state.current_player),
    " to play"
  );
}

function scoreboard(state, colours, munchkin) {
  return state.players.map((player) =>
    h(
      "button.player" + (player.name === state.current_player && !state.winners.length ? ".current" : ""),
      { style: { borderColor: colours[player.name] }, dataset: { player: player.name },
        onclick: munchkin ? null : () => playerSheet(player, payload, send) },
      h("span.swatch", { style: { background: colours[player.name] } }),
      h("span.who", player.name),
      player.madness ? h("span.tag-note", `Madness ${player.madness}`) : null,
      h("span.vp", String(munchkin ? player.level : player.vp)),
      h("span.unit", munchkin ? "Level" : "VP")
    )
  );
}

function recentEvents(current) {
  const items = (current.recent || []).map((item) => h("li", item.text));
  return [
    h("header", h("h2", "Last events"),
      h("button.quiet#undo", { onclick: (e) => undo(e.currentTarget), disabled: !current.undo,
        title: current.undo ? `Undo: ${current.undo}` : "Nothing to undo" }, "Undo"),
      // Redo stays here, not only in the toast, until the next change makes it moot
      current.redo ? h("button.quiet#redo", { onclick: (e) => redo(e.currentTarget),
        title: `Redo: ${current.redo.text}` }, "Redo") : null),
    current.undo ? h("p.detail.undo-what", `Undo takes back: ${current.undo}`) : null,
    current.redo ? h("p.detail.redo-what", `Redo puts back: ${current.redo.text}`) : null,
    items.length ? h("ol.events", items) : h("p.empty", "Nothing has happened yet."),
  ];
}

$("#end-turn").addEventListener("click", (e) => send({ input: "end-turn" }, e.currentTarget));
installUndo(send, () => payload);

function status(word) {
  const dot = $("#connection");
  dot.dataset.status = word;
  dot.title = word === "live" ? "Live" : "Reconnecting…";
  fill(dot, word === "live" ? "● live" : word === "connecting" ? "● connecting" : "● reconnecting");
  setOffline(word === "reconnecting");
}

await cards().catch((error) => say(error.message, "error"));
const live = follow(show, status);
