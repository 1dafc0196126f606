// The decisions that are not a card click: bids, pass, contra, trump, Ladder's
// pickup / hidden / multi-card plays, and Blot's auction panel. Every button
// sends one string of the server's `legal` list as it is; nothing here knows
// which call is allowed (PROTOCOL.md "view JSON": the client offers exactly
// the server's legal actions).
import { suitSymbol } from "./cards.js";
import { t } from "./words.js";

const STRAIN_ORDER = ["C", "D", "H", "S", "NT"];

/** An auction call or contract as people write it: "bid 8 H" -> "8 ♥", "9 D contra" -> "9 ♦ contra". */
export function callText(text) {
  if (!text) return "";
  return String(text)
    .split(" ")
    .filter((w) => w !== "bid")
    .map((w) => {
      if (w.length === 1 && "SHDC".includes(w)) return suitSymbol(w);
      if (["NT", "pass", "contra", "recontra", "capot", "backalley"].includes(w)) return t("bid." + w);
      return w;
    })
    .join(" ");
}

/** True for an action a card click sends (one card, "play X"). */
export function isSingleCardPlay(action) {
  return /^play \S+$/.test(action);
}

/** The button text of an action: the server's label when it sent one. */
export function actionLabel(action, labels) {
  if (labels && typeof labels[action] === "string") return labels[action];
  const w = action.split(" ");
  switch (w[0]) {
    case "bid":
      if (w[1] === "backalley") return t("bid.backalley");
      return w.slice(1).map((x) => (x in { S: 1, H: 1, D: 1, C: 1 } ? suitSymbol(x) : x)).join(" ");
    case "trump":
      return `${suitSymbol(w[1])} ${t("suit." + w[1])}`;
    case "pass":
    case "contra":
    case "recontra":
      return t("bid." + w[0]);
    default:
      return action;
  }
}

function button(text, action, onAct, extra = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "act " + extra;
  b.textContent = text;
  b.dataset.action = action;
  b.addEventListener("click", () => onAct(action));
  return b;
}

/** A strain bid "bid 8 H" / "bid 25 S capot" read into its parts. */
function strainBid(action) {
  const m = /^bid (\d+) (S|H|D|C|NT)( capot)?$/.exec(action);
  return m ? { level: Number(m[1]), strain: m[2], capot: Boolean(m[3]) } : null;
}

/**
 * Fill `box` with the controls for `legal` (the non-single-card actions).
 * `state` keeps the auction panel's chosen level between renders.
 */
export function renderControls(box, view, onAct, state) {
  box.replaceChildren();
  const legal = view.legal || [];
  const labels = view.labels || {};
  const others = legal.filter((a) => !isSingleCardPlay(a));
  if (!others.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const strainBids = others.map(strainBid).filter(Boolean);
  // Blot's bazar stays one panel for its whole length, also when only
  // pass / contra / recontra are left
  if (strainBids.length || (view.game === "blot" && view.phase === "auction")) {
    box.append(auctionPanel(view, strainBids, others, onAct, state));
    return;
  }
  const row = document.createElement("div");
  row.className = "row";
  for (const action of others) {
    const kind = action.split(" ")[0];
    row.append(button(actionLabel(action, labels), action, onAct, kind));
  }
  box.append(row);
}

/** Blot's bazar as one panel: the level, the strains legal at it, capot, and the calls. */
function auctionPanel(view, bids, legal, onAct, state) {
  const panel = document.createElement("div");
  panel.className = "auction-panel";
  panel.setAttribute("role", "group");
  panel.setAttribute("aria-label", t("auction"));
  const levels = [...new Set(bids.map((b) => b.level))].sort((a, b) => a - b);
  if (!levels.includes(state.level)) state.level = levels[0];
  const standing = view.extra && view.extra.standing_bid;

  const head = document.createElement("div");
  head.className = "row head";
  const title = document.createElement("strong");
  title.textContent = t("auction");
  head.append(title);
  if (standing) {
    const s = document.createElement("span");
    s.className = "standing";
    s.textContent = `${t("standing_bid")}: ${callText(standing)}`;
    head.append(s);
  }
  panel.append(head);

  const levelRow = document.createElement("div");
  levelRow.className = "row level";
  const down = document.createElement("button");
  down.type = "button";
  down.className = "step";
  down.textContent = "−";
  down.setAttribute("aria-label", `${t("level")} −`);
  const shown = document.createElement("output");
  shown.className = "level-value";
  shown.setAttribute("aria-live", "polite");
  const up = document.createElement("button");
  up.type = "button";
  up.className = "step";
  up.textContent = "+";
  up.setAttribute("aria-label", `${t("level")} +`);
  const label = document.createElement("span");
  label.textContent = t("level");
  levelRow.append(label, down, shown, up);
  panel.append(levelRow);

  const strains = document.createElement("div");
  strains.className = "row strains";
  panel.append(strains);
  const capotRow = document.createElement("label");
  capotRow.className = "row capot";
  const capot = document.createElement("input");
  capot.type = "checkbox";
  capot.checked = Boolean(state.capot);
  capotRow.append(capot, document.createTextNode(" " + t("bid.capot")));
  panel.append(capotRow);

  if (!levels.length) {
    levelRow.hidden = true;
    capotRow.hidden = true;
  }
  const fill = () => {
    if (!levels.length) return;
    const level = state.level;
    shown.textContent = String(level);
    const i = levels.indexOf(level);
    down.disabled = i <= 0;
    up.disabled = i >= levels.length - 1;
    const here = bids.filter((b) => b.level === level);
    const hasCapot = here.some((b) => b.capot);
    capotRow.hidden = !hasCapot;
    const wantCapot = hasCapot && capot.checked;
    strains.replaceChildren();
    for (const strain of STRAIN_ORDER) {
      const action = `bid ${level} ${strain}${wantCapot ? " capot" : ""}`;
      if (!legal.includes(action)) continue;
      const text = strain === "NT" ? t("bid.NT") : suitSymbol(strain);
      const b = button(text, action, onAct, `strain s-${strain}`);
      b.setAttribute("aria-label", `${t("bid")} ${level} ${t("suit." + strain)}`);
      b.title = (view.labels && view.labels[action]) || action;
      strains.append(b);
    }
  };
  down.addEventListener("click", () => {
    state.level = levels[Math.max(0, levels.indexOf(state.level) - 1)];
    fill();
  });
  up.addEventListener("click", () => {
    state.level = levels[Math.min(levels.length - 1, levels.indexOf(state.level) + 1)];
    fill();
  });
  capot.addEventListener("change", () => {
    state.capot = capot.checked;
    fill();
  });
  fill();

  const calls = document.createElement("div");
  calls.className = "row calls";
  for (const action of legal) {
    if (strainBid(action)) continue;
    const kind = action.split(" ")[0];
    calls.append(button(actionLabel(action, view.labels), action, onAct, kind));
  }
  panel.append(calls);
  return panel;
}
