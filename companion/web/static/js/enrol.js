// Enrolment: a faction by tapping at a zone, "what is this tag?", and binding one tag.
import { h, fill, $ } from "./dom.js";
import { start, getJSON, post, act, say, cards } from "./api.js";

start();
const [{ factions }, { readers }, state, all] = await Promise.all([
  getJSON("/api/factions"), getJSON("/api/readers"), getJSON("/api/state"), cards(),
]);

fill($("#bulk-faction"), factions.map((f) => h("option", { value: f.id }, `${f.name} (${f.set_name})`)));
const players = state.state ? state.state.players : [];  // none before the first game
$("#bulk-owner").append(...players.map((p) => h("option", { value: p.name }, p.name)));
fill($("#bulk-zone"), readers.map((r) => h("option", { value: r.zone }, r.zone)));
const sorted = [...all.values()].sort((a, b) => a.name.localeCompare(b.name));
const factionNames = new Map(factions.map((f) => [f.id, f.name]));
const setNames = new Map([...factions.map((f) => [f.set, f.set_name]), ["munchkin-cthulhu", "Munchkin Cthulhu"]]);
const from = (c) => [factionNames.get(c.faction), setNames.get(c.set) || c.set].filter(Boolean).join(", ");
fill($("#bind-card"), sorted.map((c) => h("option", { value: c.id }, `${c.name} (${from(c)})`)));

let polling = null;
async function showEnrolment() {
  const now = await getJSON("/api/enrol");
  fill($("#bulk-messages"), now.messages.slice().reverse().map((m) => h("li", m)));
  $("#bulk-stop").disabled = !now.active;
  $("#bulk-start").disabled = now.active;
  if (!now.active && polling) {
    clearInterval(polling);
    polling = null;
  }
}

$("#bulk-start").addEventListener("click", (e) =>
  act(e.currentTarget, async () => {
    await post("/api/enrol/start", {
      zone: $("#bulk-zone").value,
      faction: $("#bulk-faction").value,
      owner: $("#bulk-owner").value || undefined,
    });
    await showEnrolment();
    // while enrolling only: each card tapped shows its line within a third of a second (at
    // 1 s a person tapping card after card saw the lines lag behind the taps)
    polling = polling || setInterval(() => showEnrolment().catch(() => {}), 300);
  })
);
$("#bulk-stop").addEventListener("click", (e) =>
  act(e.currentTarget, async () => {
    await post("/api/enrol/stop");
    await showEnrolment();
  })
);

$("#what").addEventListener("submit", async (event) => {
  event.preventDefault();
  const uid = $("#what-uid").value.trim();
  if (!uid) return;
  await act(null, async () => fill($("#what-answer"), (await getJSON(`/api/bindings/${encodeURIComponent(uid)}`)).text));
});

$("#bind").addEventListener("click", (e) =>
  act(e.currentTarget, async () => {
    const bound = await post("/api/bindings", {
      uid: $("#bind-uid").value.trim(),
      card: $("#bind-card").value,
      rebind: $("#bind-rebind").checked,
    });
    say(`Tag ${bound.uid} is now ${all.get(bound.card).name}`);
  })
);

showEnrolment().catch((error) => say(error.message, "error"));
