// Talking to the table: the control token, JSON requests, card names, messages on screen.
import { h, $ } from "./dom.js";

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

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  return answer(response);
}

export async function post(path, body = {}) {
  const response = await fetch(path, {
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
    if (response.status === 401) showTokenForm();
    throw new ApiError(response.status, said);
  }
  return body;
}

// A message at the bottom of the screen; errors stay until tapped.
export function say(text, kind = "info") {
  const box = $("#messages");
  if (!box) return;
  const item = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, text);
  item.addEventListener("click", () => item.remove());
  box.append(item);
  if (kind !== "error") setTimeout(() => item.remove(), 4000);
  while (box.children.length > 3) box.firstChild.remove();
}

// Run a request from a button: the button is busy meanwhile, a refusal is said in words.
export async function act(button, work) {
  if (button) button.disabled = true;
  try {
    return await work();
  } catch (error) {
    say(error.message, "error");
    return null;
  } finally {
    if (button) button.disabled = false;
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

export function start() {
  adoptToken();
  installTokenForm();
}
