// The tablet's screen at the table: kept awake while a game is on (Screen Wake Lock), and a
// button to go full screen. Where the browser cannot keep the screen on (a plain http address
// on the LAN is not a secure context), the button says so and how to help it.
import { fill, $ } from "./dom.js";

let lock = null;
let wanted = false;
let refused = false;
let asking = false;

const supported = () => "wakeLock" in navigator;

function show() {
  const button = $("#awake");
  if (!button) return;
  const state = lock ? "on" : supported() ? (refused ? "refused" : "off") : "unsupported";
  document.body.dataset.awake = state;
  button.hidden = !wanted && !lock;
  button.title = {
    on: "The screen stays on while the game is on",
    off: "Tap to keep the screen on",
    refused: "The browser would not keep the screen on: tap to try again",
    unsupported:
      "This browser cannot keep the screen on from this address: set the tablet's screen timeout to its longest",
  }[state];
  fill(button, state === "on" ? "Screen stays on" : "Screen may sleep");
}

export async function keepAwake(on) {
  wanted = on;
  if (!on) {
    const held = lock;
    lock = null;
    if (held) await held.release().catch(() => {});
    show();
    return;
  }
  if (lock || asking || !supported() || document.visibilityState !== "visible") {
    show();
    return;
  }
  asking = true;  // every redraw asks; one request at a time
  try {
    const held = await navigator.wakeLock.request("screen");
    refused = false;
    held.addEventListener("release", () => {
      if (lock === held) lock = null;
      show();
    });
    lock = held;
    if (!wanted) await keepAwake(false);  // the game ended while the browser was asked
  } catch {
    refused = true;
  } finally {
    asking = false;
  }
  show();
}

// The browser drops the lock when the page is hidden; take it again when it is back.
document.addEventListener("visibilitychange", () => {
  if (wanted && document.visibilityState === "visible") keepAwake(true);
});

function showFullscreen() {
  const button = $("#fullscreen");
  if (!button) return;
  button.hidden = !document.fullscreenEnabled;
  fill(button, document.fullscreenElement ? "Exit full screen" : "Full screen");
}

export function installScreen() {
  const awake = $("#awake");
  if (awake) awake.addEventListener("click", () => { if (!lock) keepAwake(true); });
  const full = $("#fullscreen");
  if (full) {
    full.addEventListener("click", () => {
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
      else document.documentElement.requestFullscreen().catch(() => {});
    });
    document.addEventListener("fullscreenchange", showFullscreen);
  }
  showFullscreen();
  show();
}
