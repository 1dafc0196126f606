// Outside Discord (`/api/config` mode "local"): pick a game and play it
// against the AI, open or watch a local table, or replay a finished one.
import { getJSON, postJSON } from "./http.js";
import { t } from "./words.js";

const GAMES = ["callbreak", "batak", "blot", "backalley", "ladder"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function tableList(answer) {
  if (Array.isArray(answer)) return answer;
  return (answer && answer.tables) || [];
}

/**
 * Fill `root` with the start screen. `go(target)` opens {table: id} or
 * {replay: id}.
 */
export async function renderStart(root, config, session, go) {
  root.replaceChildren();
  const games = config.games && config.games.length
    ? config.games
    : GAMES.map((id) => ({ id }));
  const pick = el("section", "games");
  pick.append(el("h2", "", t("choose_game")));
  const grid = el("div", "game-grid");
  for (const g of games) {
    const card = el("div", "game-card");
    card.dataset.game = g.id;
    card.append(el("h3", "", t("game." + g.id)));
    const b = el("button", "act start", t("play_vs_ai"));
    b.type = "button";
    b.dataset.game = g.id;
    b.addEventListener("click", async () => {
      b.disabled = true;
      try {
        const res = await postJSON("api/local/new", { game: g.id, session });
        go({ table: res.table });
      } finally {
        b.disabled = false;
      }
    });
    card.append(b);
    grid.append(card);
  }
  pick.append(grid);
  root.append(pick);

  const mine = el("section", "tables");
  mine.append(el("h2", "", t("tables")));
  root.append(mine);
  let tables = [];
  try {
    tables = tableList(await getJSON("api/local/tables", { session }));
  } catch {
    tables = [];
  }
  if (!tables.length) {
    mine.append(el("p", "muted", t("no_tables")));
    return;
  }
  const list = el("ul", "table-list");
  for (const row of tables.slice(0, 30)) {
    const id = row.id ?? row.table;
    const li = el("li", "");
    li.dataset.table = String(id);
    li.append(el("span", "tid", `#${id}`), el("span", "tgame", t("game." + row.game)));
    if (row.status) li.append(el("span", "tstatus", t("status." + row.status)));
    const finished = row.status === "finished" || row.status === "abandoned";
    const b = el("button", "act", finished ? t("replay") : row.seat === null ? t("watch") : t("open"));
    b.type = "button";
    b.addEventListener("click", () => go(finished ? { replay: id } : { table: id }));
    li.append(b);
    list.append(li);
  }
  mine.append(list);
}
