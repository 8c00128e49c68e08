// Reader health per zone, refreshed every two seconds, with a reopen button per zone.
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
          await refresh();
        }) }, "Reopen")))))
  );
}

refresh().catch((error) => say(error.message, "error"));
setInterval(() => refresh().catch(() => {}), 2000);
