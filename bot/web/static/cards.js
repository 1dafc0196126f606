// Cards as the engine writes them ("AS", "TH", "10H", "RJ", "BJ"), drawn as
// DOM elements. Only how a card looks lives here: no rank order, no rule.
import { t } from "./words.js";

const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED_SUITS = new Set(["H", "D"]);

/** {rank, suit, joker, red} of a card text, or null when it is not one. */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  if (text === "RJ" || text === "BJ") {
    return { rank: text[0], suit: "J", joker: true, red: text === "RJ" };
  }
  const m = /^(10|[2-9TJQKA])([SHDC])$/.exec(text);
  if (!m) return null;
  const rank = m[1] === "10" ? "T" : m[1];
  return { rank, suit: m[2], joker: false, red: RED_SUITS.has(m[2]) };
}

/** The rank as printed on the card's index ("10" for a ten). */
export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

export function suitSymbol(suit) {
  return SYMBOLS[suit] || "";
}

/** "Ace of Spades", "Red joker": the card's spoken name in the reader's language. */
export function cardLabel(text) {
  const c = parseCard(text);
  if (!c) return text;
  if (c.joker) return t(c.red ? "red_joker" : "black_joker");
  const rank = "AKQJ".includes(c.rank) ? t(`rank.${c.rank}`) : rankText(c.rank);
  return t("card_of", { rank, suit: t(`suit.${c.suit}`) });
}

/** A short printable form: "10♥", "A♠", "🃏R". */
export function cardShort(text) {
  const c = parseCard(text);
  if (!c) return text;
  if (c.joker) return c.red ? "🃏R" : "🃏B";
  return rankText(c.rank) + suitSymbol(c.suit);
}

/**
 * A face-up card element. `tag` is "button" for cards one can pick (the
 * hand, the dummy, Ladder's shown cards) and "div" for cards on the table.
 */
export function cardElement(text, tag = "div") {
  const c = parseCard(text);
  const el = document.createElement(tag);
  el.className = "card";
  el.dataset.card = text;
  if (tag === "button") el.type = "button";
  if (!c) {
    el.textContent = text;
    return el;
  }
  el.classList.add(c.red ? "red" : "black");
  if (c.joker) {
    el.classList.add("joker");
    el.innerHTML = `<span class="idx">J<br>★</span><span class="pip">🃏</span>`;
  } else {
    const r = rankText(c.rank);
    const s = suitSymbol(c.suit);
    el.innerHTML =
      `<span class="idx">${r}<br>${s}</span>` +
      `<span class="pip">${s}</span>` +
      `<span class="idx end">${r}<br>${s}</span>`;
  }
  el.setAttribute("aria-label", cardLabel(text));
  el.title = cardLabel(text);
  return el;
}

/** A face-down card. */
export function backElement(tag = "div") {
  const el = document.createElement(tag);
  el.className = "card back";
  if (tag === "button") el.type = "button";
  return el;
}

const SUIT_ORDER = { J: 0, S: 1, H: 2, C: 3, D: 4 };
const RANK_ORDER = "AKQJT98765432";

/**
 * The hand as a person sorts it to read it: jokers, then spades, hearts,
 * clubs, diamonds (colours alternate), high cards first. Only the display
 * order: which card may be played is the server's `playable`.
 */
export function displayOrder(cards) {
  const key = (text) => {
    const c = parseCard(text);
    if (!c) return [9, 0];
    if (c.joker) return [0, c.red ? 0 : 1];
    return [SUIT_ORDER[c.suit], RANK_ORDER.indexOf(c.rank)];
  };
  return [...cards].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}
