// Past games, faction-pair win rates, and one game's scorings (its chart is server-rendered).
import { h, fill, $ } from "./dom.js";
import { start, getJSON, cards, cardName, say } from "./api.js";

start();
await cards();
const factionName = (id) => id.split("/").pop().replace(/-/g, " ");
const when = (seconds) => new Date(seconds * 1000).toLocaleString();

async function listGames() {
  const [{ games }, { faction_pairs: pairs }] = await Promise.all([getJSON("/api/games"), getJSON("/api/stats")]);
  fill(
    $("#games"),
    h("thead", h("tr", h("th", "#"), h("th", "Started"), h("th", "Players and factions"), h("th", "Result"))),
    h("tbody", games.length ? games.map((g) =>
      h("tr",
        h("td", h("a", { href: `/history/${g.id}` }, String(g.id))),
        h("td", when(g.started)),
        h("td", g.players.map((p) => `${p} (${(g.factions[p] || []).map(factionName).join(" + ")})`).join(", ")),
        h("td", g.current ? "playing now" : g.winners.length ? `${g.winners.join(" and ")} won` : "not finished"))) :
      h("tr", h("td", "No games yet.")))
  );
  fill(
    $("#pairs"),
    h("thead", h("tr", h("th", "Factions"), h("th.num", "Games"), h("th.num", "Wins"), h("th.num", "Win rate"))),
    h("tbody", pairs.length ? pairs.map((row) =>
      h("tr", h("td", row.factions.map(factionName).join(" + ")), h("td.num", String(row.games)),
        h("td.num", String(row.wins)), h("td.num", `${Math.round(row.win_rate * 100)}%`))) :
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
