// Asking to control the table without a terminal, like a Hue bridge's link button: the table
// opens a 60 s window, this tablet shows a code that the table beeps, someone at the table holds
// its End-turn button down, and this tablet collects a token of its own (kept like the QR
// code's). A table without the button says so at once and offers the QR code's route. Without a token the controls look
// view-only and the top bar offers "Ask to control".
import { h, fill, $ } from "./dom.js";

const POLL_MS = 1000;

// `tablet` is what api.js knows: token(), setToken(value), forgetToken(), say(text, kind),
// showTokenForm().
export function installPairing(tablet) {
  const corner = $("#control");
  const panel = $("#pairing");
  if (!corner || !panel) return { viewOnly() {} };
  let asking = null;
  let status = null;  // GET /api/pairing: whether this table has a button to pair with

  function show() {
    const viewing = !tablet.token();
    document.body.classList.toggle("view-only", viewing);
    fill(corner, viewing
      ? [h("span.view-only-note", "View only"),
        h("button.choice#ask-control", { type: "button", onclick: ask }, "Ask to control")]
      : []);
  }

  function panelWith(...children) {
    fill(panel, h("h2", "Ask to control"), ...children);
    panel.hidden = false;
  }

  function close() {
    if (asking) {
      send("/api/pairing/cancel", { pairing: asking.pairing }).catch(() => {});
      clearTimeout(asking.timer);
      asking = null;
    }
    panel.hidden = true;
  }

  function refused(message) {
    panelWith(
      h("p", message),
      h("div.options",
        h("button.choice", { type: "button", onclick: ask }, "Try again"),
        h("button.quiet", { type: "button", onclick: () => { close(); tablet.showTokenForm(); } }, "Type the token instead"),
        h("button.quiet", { type: "button", onclick: close }, "Close")),
    );
  }

  // A table without an End-turn button cannot pair this way: say so at once, and how else.
  function noButton(message) {
    panelWith(
      h("p", message),
      h("div.options",
        h("button.choice", { type: "button", onclick: () => { close(); tablet.showTokenForm(); } }, "Type the token instead"),
        h("button.quiet", { type: "button", onclick: close }, "Close")),
    );
  }

  async function ask() {
    close();
    if (status === null) status = (await send("/api/pairing", null, "GET")).body;
    if (status && status.button === false) {
      noButton(status.message);
      return;
    }
    const answer = await send("/api/pairing");
    if (answer.status !== 201) {
      refused(answer.body.error || `the table answered ${answer.status}`);
      return;
    }
    const body = answer.body;
    asking = { pairing: body.pairing, timer: null };
    panelWith(
      h("p.pairing-code#pairing-code", { "aria-label": `Code ${body.code.join(" ")}` }, body.code.join(" · ")),
      h("p.press", body.message),
      h("p.detail#pairing-left", `${body.seconds} s left`),
      h("div.options", h("button.quiet", { type: "button", onclick: close }, "Cancel")),
    );
    asking.timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    const mine = asking;
    if (!mine) return;
    mine.timer = null;  // a poll under way: none waiting to be brought forward
    const { status, body } = await send("/api/pairing/claim", { pairing: mine.pairing });
    if (asking !== mine) return;  // cancelled meanwhile
    if (status === 200 && body.state === "waiting") {
      fill($("#pairing-left"), `${body.seconds_left} s left`);
      mine.timer = setTimeout(poll, POLL_MS);
      return;
    }
    asking = null;
    if (status === 200 && body.state === "granted") {
      tablet.setToken(body.token);
      panel.hidden = true;
      show();
      tablet.say("This tablet can now run the table.");
      return;
    }
    refused(body.message || body.error || `the table answered ${status}`);
  }

  // A token the table no longer takes (rotated, or this tablet was unpaired) is dropped.
  async function check() {
    if (!tablet.token()) return;
    const { status, body } = await send("/api/pairing", null, "GET", tablet.token());
    if (status === 200 && body.controls === false) {
      tablet.forgetToken();
      show();
    }
  }

  show();
  check().catch(() => {});
  return {
    // The table refused this tablet's token: back to view-only, offering to ask.
    viewOnly(message) {
      tablet.forgetToken();
      show();
      refused(message);
    },
    // The table's pairing notice changed (its stream says so: the button was held down, the
    // window closed): ask now rather than at the next poll, up to a second later.
    noticeChanged() {
      if (!asking || asking.timer === null) return;
      clearTimeout(asking.timer);
      poll();
    },
  };
}

// Pairing requests carry no token (a GET may carry one, to learn whether it still works).
async function send(path, body = {}, method = "POST", token = "") {
  const headers = { Accept: "application/json" };
  if (token) headers["X-Companion-Token"] = token;
  const options = { method, headers };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    return { status: 0, body: { error: "the table cannot be reached; check the Wi-Fi" } };
  }
  let answer = {};
  try {
    answer = await response.json();
  } catch {
    answer = {};
  }
  return { status: response.status, body: answer };
}
