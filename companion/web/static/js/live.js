// The live state: one EventSource, resumed by the browser with Last-Event-ID after a drop
// (a sleeping tablet, a restarted Pi), reopened by hand if the browser gives up.
import { getJSON } from "./api.js";

export function follow(onState, onStatus = () => {}) {
  let source = null;
  let last = null;
  let retry = 1000;

  function open() {
    const url = last === null ? "/api/events" : `/api/events?last=${last}`;
    source = new EventSource(url);
    source.addEventListener("open", () => {
      retry = 1000;
      onStatus("live");
    });
    source.addEventListener("state", (message) => {
      last = message.lastEventId;
      onState(JSON.parse(message.data));
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
      onState(await getJSON("/api/state"));
    },
  };
}
