// Talking to the table: the control token, JSON requests, card names, messages on screen.
import { h, $ } from "./dom.js";
import { installPairing } from "./pairing.js";
import { installViewOnly } from "./viewonly.js";

const TOKEN_KEY = "companion-token";

// A token in the address (?token=..., from the QR code) is kept by this tablet, then hidden.
export function adoptToken() {
  const url = new URL(location.href);
  const given = url.searchParams.get("token");
  if (given) {
    localStorage.setItem(TOKEN_KEY, given.trim());
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return token();
}

export const token = () => localStorage.getItem(TOKEN_KEY) || "";
export const setToken = (value) => localStorage.setItem(TOKEN_KEY, value.trim());
export const forgetToken = () => localStorage.removeItem(TOKEN_KEY);
let pairing = null;

export class ApiError extends Error {
  constructor(status, message, body = null) {
    super(message);
    this.status = status;
    this.body = body;  // the whole answer, for a page that acts on more than its words
  }
}

const UNREACHABLE =
  "The table did not answer: is it switched on, and is this tablet on its network?";

// fetch, with a network failure said in words (the browser only says "Failed to fetch").
async function request(path, options) {
  try {
    return await fetch(path, options);
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
}

// The token goes with reads too: a tag's card (and the simulator's face-down cards) are
// shown only to a tablet that has it.
export async function getJSON(path) {
  const headers = { Accept: "application/json" };
  if (token()) headers["X-Companion-Token"] = token();
  const response = await request(path, { headers });
  return answer(response);
}

export async function post(path, body = {}) {
  const response = await request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Companion-Token": token() },
    body: JSON.stringify(body),
  });
  return answer(response);
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const said = body && body.error ? body.error : `the table answered ${response.status}`;
    if (response.status === 401) {
      if (pairing) pairing.viewOnly(said);
      else showTokenForm();
    }
    throw new ApiError(response.status, said, body);
  }
  return body;
}

// A message at the bottom of the screen; errors stay until tapped. ``action`` adds a button
// ({label, run}) and keeps the message up longer (an undo toast's Redo).
export function say(text, kind = "info", action = null) {
  const box = $("#messages");
  if (!box) return null;
  // the same message again (a second tap on what failed) does not stack another copy
  for (const shown of box.querySelectorAll(".toast-text")) {
    if (shown.textContent === text) shown.parentElement.remove();
  }
  const button = action
    ? h("button.choice.toast-action", {
        onclick: (event) => {
          event.stopPropagation();
          item.remove();
          action.run(event.currentTarget);
        },
      }, action.label)
    : null;
  const item = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" },
    h("span.toast-text", text), button);
  item.addEventListener("click", () => item.remove());
  box.append(item);
  if (kind !== "error") setTimeout(() => item.remove(), action ? 10000 : 4000);
  while (box.children.length > 3) box.firstChild.remove();
  return item;
}

// While the table is out of reach: a banner, and every control of the page inert (nothing
// can be pressed that would fail), until the stream is back.
export function setOffline(offline) {
  const banner = $("#offline");
  if (banner) banner.hidden = !offline;
  if (offline) document.body.dataset.offline = "1";
  else delete document.body.dataset.offline;
  for (const region of document.querySelectorAll("main, header.bar, dialog")) region.inert = offline;
}

// Run a request from a button: the button is busy meanwhile, a refusal is said in words.
export async function act(button, work) {
  if (button) {
    button.disabled = true;
    button.dataset.busy = "1";
  }
  try {
    return await work();
  } catch (error) {
    // a refused token is said once, quietly, by the view-only line, not as a toast per tap
    if (!(error instanceof ApiError && error.status === 401)) say(error.message, "error");
    return null;
  } finally {
    if (button) {
      delete button.dataset.busy;
      // a refusal may have left the tablet watching: then the button stays disabled
      if (!button.dataset.viewOnlyDisabled) button.disabled = false;
    }
  }
}

export function showTokenForm() {
  const box = $("#token-form");
  if (!box || !box.hidden) return;
  box.hidden = false;
  const input = $("input", box);
  input.value = "";
  input.focus();
}

export function installTokenForm() {
  const box = $("#token-form");
  if (!box) return;
  box.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("input", box).value;
    if (value.trim()) {
      setToken(value);
      box.hidden = true;
      document.body.classList.remove("view-only");
      $("#control")?.replaceChildren();
      say("This tablet can now run the table.");
    }
  });
  $("button[type=button]", box).addEventListener("click", () => (box.hidden = true));
}

let names = null;
let loading = null;
// Card id -> {name, type, faction, power, ...}, loaded once.
export function cards() {
  loading = loading || getJSON("/api/cards").then(({ cards: list }) => (names = new Map(list.map((card) => [card.id, card]))));
  return loading;
}

export const cardName = (id) => (names && names.get(id) ? names.get(id).name : id);

// A zone in a player's words (companion/tape/english.py's zone_label): "base zone 2", never "base-2".
export function zoneLabel(zone) {
  const [, kind, number] = /^([a-z]+)-(\d+)$/.exec(zone) || [];
  if (number) return `${kind === "base" ? "base zone" : kind} ${number}`;
  return { discard: "the discard pad", combat: "the combat pad" }[zone] || zone;
}

// Where a card is, by the base lying there, else the zone's label.
export function placeName(state, zone) {
  const base = ((state && state.bases) || []).find((b) => b.zone === zone);
  return base ? cardName(base.card) : zoneLabel(zone);
}

// The table page's stream brought another pairing notice: a tablet asking looks at once.
export const pairingNoticeChanged = () => pairing && pairing.noticeChanged();

export function start() {
  adoptToken();
  installTokenForm();
  pairing = installPairing({ token, setToken, forgetToken, say, showTokenForm });
  installViewOnly();
}
