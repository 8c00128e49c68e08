// The tablet's screen at the table: kept awake while a game is on, and a button to go full
// screen. The Screen Wake Lock API needs a secure page, and the table on the LAN is plain http:
// there a playing video keeps the screen on instead, as a video call does (a muted 2x2 canvas
// stream, in no file and fetching nothing). Where neither works, the button says how to help.
import { fill, $ } from "./dom.js";

let lock = null;
let wanted = false;
let refused = false;
let asking = false;

const supported = () => "wakeLock" in navigator || "captureStream" in HTMLCanvasElement.prototype;
const byVideo = () => !("wakeLock" in navigator);

// The fallback lock: a tiny muted video of a canvas that changes once a second (a canvas
// stream sends frames only when it changes), with release() and "release" like a wake lock.
let video = null;
async function videoLock() {
  if (!video) {
    const canvas = Object.assign(document.createElement("canvas"), { width: 2, height: 2 });
    const paint = canvas.getContext("2d");
    let frame = 0;
    const repaint = () => {
      paint.fillStyle = frame++ % 2 ? "#000000" : "#010101";
      paint.fillRect(0, 0, 2, 2);
    };
    repaint(); // the first frame now: the video plays from the start, not a second later
    setInterval(repaint, 1000);
    video = Object.assign(document.createElement("video"), { muted: true, playsInline: true, className: "keep-awake" });
    video.setAttribute("aria-hidden", "true");
    video.srcObject = canvas.captureStream(1);
    document.body.append(video);
  }
  await video.play();
  document.body.dataset.awakeBy = "video";
  const events = new EventTarget();
  return {
    addEventListener: (kind, run) => events.addEventListener(kind, run),
    async release() {
      video.pause();
      events.dispatchEvent(new Event("release"));
    },
  };
}

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
    const held = byVideo() ? await videoLock() : await navigator.wakeLock.request("screen");
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

// The browser drops the lock (and pauses the video) when the page is hidden; take it again
// when it is back.
document.addEventListener("visibilitychange", () => {
  if (wanted && document.visibilityState === "visible") {
    if (video && video.paused && lock) video.play().catch(() => {});
    keepAwake(true);
  }
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
