// The live state: one EventSource, resumed by the browser with Last-Event-ID after a drop
// (a sleeping tablet, a restarted Pi), reopened by hand if the browser gives up.
import { getJSON, token } from "./api.js";

export function follow(onState, onStatus = () => {}) {
  let source = null;
  let last = null;
  let shown = null; // the state on screen, which a health event updates
  let retry = 1000;

  function open() {
    // A controlling tablet's stream has slots of its own; EventSource sends no header of ours,
    // so the token goes in the query (the access log redacts it).
    const query = new URLSearchParams();
    if (last !== null) query.set("last", last);
    if (token()) query.set("token", token());
    const url = query.toString() ? `/api/events?${query}` : "/api/events";
    source = new EventSource(url);
    source.addEventListener("open", () => {
      retry = 1000;
      onStatus("live");
    });
    source.addEventListener("state", (message) => {
      last = message.lastEventId;
      shown = JSON.parse(message.data);
      onState(shown);
    });
    // Between two versions only the store's health and pairing notices change: each version's
    // state comes once, these come on their own.
    source.addEventListener("health", (message) => {
      const status = JSON.parse(message.data);
      if (shown === null || shown.version !== status.version || shown.game_id !== status.game_id) return;
      shown = { ...shown, health: status.health, pairing: status.pairing };
      onState(shown);
    });
    source.addEventListener("error", () => {
      onStatus("reconnecting");
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(open, retry);
        retry = Math.min(retry * 2, 10000);
      }
    });
  }

  open();
  return {
    // The state now (after a refused request the screen must show what the table has).
    async refresh() {
      shown = await getJSON("/api/state");
      onState(shown);
    },
  };
}
