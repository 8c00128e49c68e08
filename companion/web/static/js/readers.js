// Reader health per zone, refreshed every two seconds (sooner while a reader starts or was
// reopened), with a reopen button per zone.
import { h, fill, $ } from "./dom.js";
import { start, getJSON, post, act, say } from "./api.js";

start();
const GOOD = new Set(["ok", "reading", "idle", "present"]);
let shownAt = 0;

function ago(then, now) {
  if (then === null || then === undefined) return "never";
  const seconds = Math.max(0, Math.round(now - then));
  return seconds < 90 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
}

// A reader reopens in its own thread, after the request: look again shortly until its count
// of reopens has moved (about 3 s at most), not at the next refresh 2 s on.
async function reopened(zone, before) {
  for (let look = 0; look < 12; look++) {
    const readers = await refresh();
    const reader = readers.find((r) => r.zone === zone);
    if (!reader || reader.reopens > before) return;
    await new Promise((done) => setTimeout(done, 250));
  }
}

async function refresh() {
  const { readers } = await getJSON("/api/readers");
  const now = Math.max(...readers.map((r) => r.last_poll || 0), shownAt);
  shownAt = now;
  fill(
    $("#reader-list"),
    h("thead", h("tr", h("th", "Zone"), h("th", "State"), h("th", "Last card"), h("th.num", "Reads/min"),
      h("th.num", "Errors"), h("th.num", "Reopens"), h("th", "Last error"), h("th", ""))),
    h("tbody", readers.map((r) =>
      h("tr", { dataset: { zone: r.zone } },
        h("td", { "data-label": "Zone" }, h("strong", r.zone)),
        h("td", { "data-label": "State", class: GOOD.has(r.state) ? "health-ok" : r.state === "starting" ? "health-warn" : "health-bad" }, r.state),
        h("td", { "data-label": "Last card" }, ago(r.last_read, now)),
        h("td.num", { "data-label": "Reads/min" }, String(r.reads_per_minute)),
        h("td.num", { "data-label": "Errors" }, String(r.errors)),
        h("td.num", { "data-label": "Reopens" }, String(r.reopens)),
        h("td", { "data-label": "Last error" }, r.last_error || "—"),
        h("td", { "data-label": "" }, h("button.quiet", { onclick: (e) => act(e.currentTarget, async () => {
          await post(`/api/readers/${encodeURIComponent(r.zone)}/reopen`);
          say(`Reopened the reader of ${r.zone}`);
          await reopened(r.zone, r.reopens);
        }) }, "Reopen")))))
  );
  return readers;
}

// Every 2 s; while a reader is starting or reopening (the table just started), every quarter
// second, so it shows as ready when it is, not up to 2 s later.
async function watch(first = false) {
  let readers = [];
  try {
    readers = await refresh();
  } catch (error) {
    if (first) say(error.message, "error");
  }
  setTimeout(watch, readers.some((r) => r.state === "starting" || r.state === "reopening") ? 250 : 2000);
}
watch(true);
