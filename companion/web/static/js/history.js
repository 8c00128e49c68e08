// Past games, faction-pair win rates, and one game's scorings (its chart is server-rendered).
import { h, fill, $ } from "./dom.js";
import { start, getJSON, cards, cardName, say } from "./api.js";

start();
const [, { factions }] = await Promise.all([cards(), getJSON("/api/factions")]);
const factionNames = new Map(factions.map((f) => [f.id, f.name]));
// A faction by its printed name ("Orcs"); an id we do not know, spelled out from its slug.
const factionName = (id) => factionNames.get(id) || id.split("/").pop().replace(/-/g, " ");
// "Ann (Orcs + Elves)"; just "Ann" in a game without factions (Munchkin Cthulhu).
const seat = (player, chosen) => (chosen && chosen.length ? `${player} (${chosen.map(factionName).join(" + ")})` : player);
const when = (seconds) => new Date(seconds * 1000).toLocaleString();

// How a game stands: playing, won, void (ended by a new game), or left unfinished.
function result(g) {
  if (g.current) return "playing now";
  if (g.void) return "void: ended unfinished when a new game started" + (g.ended ? ` (${when(g.ended)})` : "");
  if (g.winners.length) return `${g.winners.join(" and ")} won`;
  return g.ended ? "ended with no winner" : "abandoned: left unfinished when a newer game started";
}

async function listGames() {
  const [{ games }, { faction_pairs: pairs }] = await Promise.all([getJSON("/api/games"), getJSON("/api/stats")]);
  fill(
    $("#games"),
    h("thead", h("tr", h("th", "#"), h("th", "Started"), h("th", "Players and factions"), h("th", "Result"))),
    h("tbody", games.length ? games.map((g) =>
      h("tr",
        h("td", { "data-label": "#" }, h("a.game-link", { href: `/history/${g.id}`, "aria-label": `Game ${g.id}` }, String(g.id))),
        h("td", { "data-label": "Started" }, when(g.started)),
        h("td", { "data-label": g.game === "munchkin-cthulhu" ? "Munchkin Cthulhu" : "Players" },
          g.players.map((p) => seat(p, g.factions[p])).join(", ")),
        h("td", { "data-label": "Result" }, result(g)))) :
      h("tr", h("td", "No games yet.")))
  );
  fill(
    $("#pairs"),
    h("thead", h("tr", h("th", "Factions"), h("th.num", "Games"), h("th.num", "Wins"), h("th.num", "Win rate"))),
    h("tbody", pairs.length ? pairs.map((row) =>
      h("tr", h("td", { "data-label": "Factions" }, row.factions.map(factionName).join(" + ")),
        h("td.num", { "data-label": "Games" }, String(row.games)),
        h("td.num", { "data-label": "Wins" }, String(row.wins)),
        h("td.num", { "data-label": "Win rate" }, `${Math.round(row.win_rate * 100)}%`))) :
      h("tr", h("td", "Finish a game to see win rates.")))
  );
}

async function showGame(id) {
  const game = await getJSON(`/api/games/${id}`);
  const summary = game.game;
  fill($("#game-title"), `Game ${id}: ${summary.players.join(", ")}`,
    summary.winners.length ? ` · ${summary.winners.join(" and ")} won` : "");
  fill(
    $("#scorings"),
    h("thead", h("tr", h("th", "Base"), h("th", "Places"))),
    h("tbody", game.scorings.length ? game.scorings.map((s) =>
      h("tr", h("td", cardName(s.card)), h("td", s.ranking.map((r) => `${r.player} ${r.vp} VP`).join(" · ") || "nobody"))) :
      h("tr", h("td", "No base scored yet.")))
  );
  if (game.error) say(game.error, "error");
}

const page = $("#game");
(page ? showGame(page.dataset.game) : listGames()).catch((error) => say(error.message, "error"));
