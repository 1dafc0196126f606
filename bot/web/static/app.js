// Card Table's browser client: finds out where it runs (/api/config), logs
// in (Discord SDK or local), opens a table, a replay or the start screen, and
// keeps one WebSocket to the server (PROTOCOL.md). No rule and no hidden card
// lives here: every picture is the server's view(seat), every move one of its
// `legal` strings.
import { discordLogin } from "./discord.js";
import { getJSON, postJSON } from "./http.js";
import { Connection } from "./net.js";
import { renderStart } from "./start.js";
import { TableView } from "./table.js";
import { setWords, t } from "./words.js";

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);

const app = {
  config: null,
  session: null,
  user: null,
  lang: "en",
  wordsLang: "en", // the language of the words in use (English until `welcome`)
  startLang: null,
  target: null, // {table: id} | {replay: id} | null (start screen)
  frame: null,
  replayFrame: null,
  conn: null,
  view: null,
};
// read by the browser tests and handy in the console; changing it changes nothing on the server
window.cardTable = app;

// each language in its own words (bot/i18n NATIVE_NAMES), for the picker
const NATIVE = { en: "English", tr: "Türkçe", hy: "Հայերեն", ne: "नेपाली", hi: "हिन्दी" };

function languagePicker() {
  const select = $("#lang");
  const langs = app.config.languages || ["en"];
  select.replaceChildren(
    ...langs.map((code) => {
      const o = document.createElement("option");
      o.value = code;
      o.textContent = NATIVE[code] || code;
      return o;
    }),
  );
  select.value = app.lang;
  select.hidden = langs.length < 2;
  select.addEventListener("change", () => {
    app.lang = select.value;
    const url = new URL(location.href);
    url.searchParams.set("lang", app.lang);
    history.replaceState(null, "", url);
    // the server answers a hello in another language with `welcome` and the words
    app.conn.rehello();
  });
}

function pickLang(config) {
  const langs = config.languages || ["en"];
  const asked = params.get("lang");
  if (asked && langs.includes(asked)) return asked;
  const nav = (navigator.language || "en").slice(0, 2);
  return langs.includes(nav) ? nav : "en";
}

let toastTimer = null;
function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 4000);
}

function setStatus(status) {
  const conn = $("#conn");
  conn.dataset.status = status;
  conn.textContent = status === "open" ? "" : t(status);
  document.body.dataset.conn = status;
}

async function login() {
  if (app.config.mode === "discord") {
    const res = await discordLogin(app.config);
    app.session = res.session;
    app.user = res.user;
    app.sdk = res.sdk;
  } else {
    const res = await postJSON("api/local");
    app.session = res.session;
    app.user = res.user;
  }
}

function hello() {
  if (!app.session) return null;
  // without a table or replay the server answers with `welcome` only: the
  // start screen's words
  const frame = { type: "hello", session: app.session, lang: app.lang };
  if (!app.target) return frame;
  if (app.target.replay !== undefined) frame.replay = app.target.replay;
  else frame.table = app.target.table;
  return frame;
}

function show(which) {
  for (const id of ["start", "table", "message"]) $("#" + id).hidden = id !== which;
  document.body.dataset.screen = which;
}

function showMessage(text) {
  $("#message-text").textContent = text;
  show("message");
}

function drawResult(frame) {
  const box = $("#result");
  const over = frame.status === "finished" || frame.status === "abandoned";
  box.hidden = !over;
  if (!over) return;
  box.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = t("match_over");
  box.append(h);
  for (const line of (frame.result && frame.result.lines) || []) {
    const p = document.createElement("p");
    p.textContent = line;
    box.append(p);
  }
  const row = document.createElement("div");
  row.className = "row";
  if (app.config.mode === "local") {
    const again = document.createElement("button");
    again.type = "button";
    again.className = "act";
    again.textContent = t("back_to_tables");
    again.addEventListener("click", () => navigate(null));
    row.append(again);
  }
  const replay = document.createElement("button");
  replay.type = "button";
  replay.className = "act";
  replay.textContent = t("replay");
  replay.addEventListener("click", () => navigate({ replay: frame.table }));
  row.append(replay);
  box.append(row);
}

function drawReplayBar(frame) {
  const bar = $("#replay-bar");
  bar.hidden = !frame;
  if (!frame) return;
  const at = frame.at ?? 0;
  const total = frame.total ?? 0;
  $("#replay-pos").textContent = t("move_of", { at, total });
  const last = at > 0 && frame.moves ? frame.moves[at - 1] : "";
  $("#replay-move").textContent = last;
  $("#replay-first").disabled = at <= 0;
  $("#replay-prev").disabled = at <= 0;
  $("#replay-next").disabled = at >= total;
  $("#replay-last").disabled = at >= total;
}

function replayStep(to) {
  const f = app.replayFrame;
  if (!f) return;
  const total = f.total ?? 0;
  app.replayWant = Math.max(0, Math.min(total, to));
  app.conn.send({ type: "replay_step", to: app.replayWant });
}

/** Where the replay is going: the last step asked for (keys pressed quickly
 * add up), else where it is. */
function replayAt() {
  return app.replayWant ?? app.replayFrame?.at ?? 0;
}

function onFrame(frame) {
  switch (frame.type) {
    case "welcome":
      setWords(frame.words);
      if (frame.lang) document.documentElement.lang = frame.lang;
      app.wordsLang = frame.lang || app.wordsLang;
      app.user = frame.user || app.user;
      relabel();
      if (app.frame) app.view.render(app.frame);
      else if (app.replayFrame) app.view.render(app.replayFrame, true);
      else if (!app.target && wordsChanged(frame)) drawStart();
      break;
    case "state":
      if (!app.target || app.target.table !== frame.table) return;
      app.frame = frame;
      show("table");
      drawReplayBar(null);
      app.view.render(frame);
      drawResult(frame);
      if (!app.painted) {
        // the table's first paint (bench/web_client.py reads this mark)
        app.painted = true;
        requestAnimationFrame(() => performance.mark("ct:table"));
      }
      break;
    case "replay":
      if (!app.target || app.target.replay === undefined) return;
      app.replayFrame = frame;
      show("table");
      $("#result").hidden = true;
      app.view.render(frame, true);
      drawReplayBar(frame);
      break;
    case "error":
      app.view.unblock();
      if (frame.code === "auth") {
        // the server forgot the session (a restart): log in again, say hello again
        relogin();
        return;
      }
      if ((frame.code === "not_found" || frame.code === "forbidden") && !app.frame && !app.replayFrame) {
        showMessage(frame.message || frame.code);
        return;
      }
      if (frame.code !== "stale") toast(frame.message || frame.code);
      break;
    default:
      break;
  }
}

function drawStart() {
  show("start");
  app.startLang = app.wordsLang;
  renderStart($("#start"), app.config, app.session, (where) => navigate(where));
}

function wordsChanged(frame) {
  return app.wordsLang !== app.startLang;
}

let relogging = false;
async function relogin() {
  if (relogging) return;
  relogging = true;
  try {
    await login();
    app.conn.rehello();
  } catch (err) {
    showMessage(String(err.message || err));
  } finally {
    relogging = false;
  }
}

function act(action, frame) {
  const sent = app.conn.send({ type: "act", table: frame.table, seq: frame.seq, action });
  if (!sent) {
    app.view.unblock();
    toast(t("reconnecting"));
  }
}

function relabel() {
  $("#replay-first").setAttribute("aria-label", t("first"));
  $("#replay-last").setAttribute("aria-label", t("last"));
  $("#replay-prev").setAttribute("aria-label", t("previous"));
  $("#replay-next").setAttribute("aria-label", t("next"));
  $("#conn").textContent = document.body.dataset.conn === "open" ? "" : t(document.body.dataset.conn || "connecting");
  $("#home").textContent = t("back_to_tables");
  $("#lang").setAttribute("aria-label", t("language"));
}

/** Open a table, a replay, or (null) the start screen; the URL follows. */
function navigate(target, push = true) {
  app.target = target;
  app.frame = null;
  app.replayFrame = null;
  app.replayWant = null;
  $("#result").hidden = true;
  if (push) {
    const url = new URL(location.href);
    url.searchParams.delete("table");
    url.searchParams.delete("replay");
    if (target && target.table !== undefined) url.searchParams.set("table", target.table);
    if (target && target.replay !== undefined) url.searchParams.set("replay", target.replay);
    history.pushState(null, "", url);
  }
  $("#home").hidden = app.config.mode !== "local" || !target;
  app.conn.rehello();
  if (!target) {
    drawStart();
    return;
  }
  showMessage(t("connecting"));
}

function targetFromUrl() {
  const q = new URLSearchParams(location.search);
  const table = q.get("table");
  const replay = q.get("replay");
  if (table && /^\d+$/.test(table)) return { table: Number(table) };
  if (replay && /^\d+$/.test(replay)) return { replay: Number(replay) };
  return null;
}

/** Discord without ?table=: the Activity's open table where the reader sits, else the newest. */
async function discordTarget() {
  const answer = await getJSON("api/tables", { session: app.session });
  const tables = Array.isArray(answer) ? answer : (answer && answer.tables) || [];
  if (!tables.length) return null;
  const seated = tables.find((r) => r.seated || r.you || r.seat !== undefined && r.seat !== null);
  const row = seated || tables[0];
  return { table: row.id ?? row.table };
}

async function boot() {
  app.view = new TableView($("#table"), act);
  $("#replay-first").addEventListener("click", () => replayStep(0));
  $("#replay-prev").addEventListener("click", () => replayStep(replayAt() - 1));
  $("#replay-next").addEventListener("click", () => replayStep(replayAt() + 1));
  $("#replay-last").addEventListener("click", () => replayStep(app.replayFrame?.total ?? 0));
  $("#home").addEventListener("click", () => navigate(null));
  document.addEventListener("keydown", (ev) => {
    if (!app.replayFrame || ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowLeft") replayStep(replayAt() - 1);
    if (ev.key === "ArrowRight") replayStep(replayAt() + 1);
  });
  window.addEventListener("popstate", () => navigate(targetFromUrl(), false));
  setStatus("connecting");
  try {
    app.config = await getJSON("api/config");
    app.lang = pickLang(app.config);
    document.documentElement.lang = app.lang;
    await login();
  } catch (err) {
    showMessage(String(err.message || err));
    return;
  }
  app.conn = new Connection({ onFrame, onStatus: setStatus, hello });
  app.conn.start();
  languagePicker();
  let target = targetFromUrl();
  if (!target && app.config.mode === "discord") target = await discordTarget();
  if (!target && app.config.mode === "discord") {
    showMessage(t("no_tables"));
    return;
  }
  navigate(target, false);
}

boot();
