// Draws one `state` (or `replay`) frame: the seats around the felt, the trick
// or Ladder's pile in the middle, the facts (contract, trump, scores), and the
// reader's hand at the bottom. Everything shown comes from the frame's `view`
// (the server's view(seat)); the only "decision" here is which of the
// server's `legal` strings a click sends.
import { backElement, cardElement, cardLabel, cardShort, displayOrder, suitSymbol } from "./cards.js";
import { callText, renderControls } from "./controls.js";
import { t } from "./words.js";

const TRICK_GAMES = new Set(["callbreak", "batak", "blot", "backalley"]);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/** Where seat `seat` sits on screen: the reader at the bottom, the others
 * following clockwise (as bot/render/picture/layout.py draws the table). */
export function seatPlace(seat, bottom, n) {
  const rel = (seat - bottom + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * rel) / n;
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  let side = "bottom";
  if (Math.abs(dy) >= 0.7) side = dy > 0 ? "bottom" : "top";
  else side = dx > 0 ? "right" : "left";
  return { dx, dy, side, rel };
}

/** A score as the game counts it: Callbreak keeps tenths (32 -> "3.2"). */
export function scoreText(value, unit) {
  if (value === null || value === undefined) return "–";
  if (unit === "tenths") return (value / 10).toFixed(1);
  return String(value);
}

function trumpText(trump) {
  if (!trump) return "";
  if (trump === "NT") return t("suit.NT");
  return `${suitSymbol(trump)} ${t("suit." + trump)}`;
}

/** A small row of cards (the dummy, Ladder's shown cards, a replay hand). */
function cardRow(cards, cls, onPick, playable) {
  const row = el("div", "cards " + (cls || ""));
  for (const c of cards) {
    const pick = onPick && playable && playable.has(c);
    const card = cardElement(c, onPick ? "button" : "div");
    if (onPick) {
      card.classList.add(pick ? "playable" : "unplayable");
      if (pick) card.addEventListener("click", () => onPick(c));
      else card.setAttribute("aria-disabled", "true");
    }
    row.append(card);
  }
  return row;
}

export class TableView {
  constructor(root, onAct) {
    this.root = root;
    this.onAct = onAct;
    this.felt = root.querySelector("#felt");
    this.middle = root.querySelector("#middle");
    this.side = root.querySelector("#side");
    this.controls = root.querySelector("#controls");
    this.mine = root.querySelector("#mine");
    this.hand = root.querySelector("#hand");
    this.facts = document.querySelector("#facts");
    this.timerEl = document.querySelector("#timer");
    this.announce = document.querySelector("#announce");
    this.frame = null;
    this.auctionState = { level: null, capot: false };
    this.selected = new Set();
    this.focusIndex = 0;
    this.clockOffset = 0;
    this.tick = null;
    this.pending = false;
    this.wasMyTurn = false;
    this.hand.addEventListener("keydown", (ev) => this._handKeys(ev));
  }

  /** Draw a state frame (or a replay frame: `replay` true). */
  render(frame, replay = false) {
    const prev = this.frame;
    this.frame = frame;
    this.replay = replay;
    this.unblock();
    const view = frame.view || {};
    if (typeof frame.now === "number") this.clockOffset = frame.now * 1000 - Date.now();
    const n = view.num_seats || (frame.players || []).length || 4;
    const me = typeof frame.seat === "number" ? frame.seat : null;
    const bottom = me ?? 0;
    const names = {};
    for (const p of frame.players || []) names[p.seat] = p;
    this.names = names;
    const legal = replay ? [] : view.legal || [];
    const playable = new Set(replay ? [] : view.playable || []);
    const myTurn = legal.length > 0;
    const playing = legal.some((a) => a.startsWith("play "));
    if (!prev || prev.seq !== frame.seq) this.selected.clear();

    document.body.dataset.game = frame.game || view.game || "";
    document.body.dataset.status = frame.status || (replay ? "replay" : "");
    document.body.dataset.seq = String(frame.seq ?? frame.at ?? "");
    document.body.dataset.myturn = myTurn ? "1" : "0";
    this.root.classList.toggle("spectator", me === null && !replay);

    this._facts(frame, view);
    this._seats(frame, view, n, bottom, me);
    this._middle(frame, view, n, bottom);
    this._side(frame, view);
    const act = (a) => this._act(a);
    if (replay) {
      this.controls.hidden = true;
      this.controls.replaceChildren();
    } else {
      renderControls(this.controls, view, act, this.auctionState);
    }
    this._mine(frame, view, me, playable, playing);
    this._hand(view, playable, playing, me);
    this._timer(frame, view);

    if (myTurn && !this.wasMyTurn) this.announce.textContent = t("your_turn");
    this.wasMyTurn = myTurn;
  }

  _act(action) {
    if (this.pending || !this.frame) return;
    this.pending = true;
    this.root.classList.add("pending");
    this.onAct(action, this.frame);
  }

  /** An error came back: nothing changed, the reader may act again. */
  unblock() {
    this.pending = false;
    this.root.classList.remove("pending");
  }

  _name(seat) {
    const p = this.names[seat];
    if (!p) return `#${seat + 1}`;
    return p.you ? `${p.name}` : p.name;
  }

  _facts(frame, view) {
    const parts = [];
    const game = frame.game || view.game;
    const title = t("game." + game);
    parts.push(el("strong", "game", title));
    this.felt.setAttribute("aria-label", title);
    if (view.round_number) {
      const key = game === "ladder" ? "ladder_game" : "deal";
      parts.push(el("span", "round", t(key, { number: view.round_number })));
    }
    if (view.contract) {
      const who = view.declarer !== null && view.declarer !== undefined ? ` · ${this._name(view.declarer)}` : "";
      parts.push(el("span", "contract", `${t("contract")}: ${callText(view.contract)}${who}`));
    }
    if (view.trump) parts.push(el("span", "trump", `${t("trump")}: ${trumpText(view.trump)}`));
    if (view.requirement && game === "ladder") {
      parts.push(el("span", "req", t("next_play", { requirement: view.requirement })));
    }
    if (frame.seat === null && !this.replay) parts.push(el("span", "badge", t("watching")));
    if (!this.replay && !view.is_over && view.to_act !== null && view.to_act !== undefined) {
      const mine = (view.legal || []).length > 0;
      const note = mine ? t("your_turn") : t("waiting_for", { name: this._name(view.to_act) });
      parts.push(el("span", mine ? "turn-note mine" : "turn-note", note));
    }
    this.facts.replaceChildren(...parts);
  }

  _seats(frame, view, n, bottom, me) {
    for (const old of this.felt.querySelectorAll(".seat")) old.remove();
    const teams = view.teams || [];
    const teamOf = {};
    teams.forEach((seats, i) => seats.forEach((s) => (teamOf[s] = i)));
    const hasBids = (view.bids || []).some((b) => b !== null && b !== undefined);
    for (let seat = 0; seat < n; seat++) {
      const place = seatPlace(seat, bottom, n);
      const box = el("div", `seat side-${place.side}`);
      box.dataset.seat = String(seat);
      box.style.setProperty("--x", `${50 + place.dx * 44}%`);
      box.style.setProperty("--y", `${50 + place.dy * 41}%`);
      if (seat in teamOf) box.classList.add(`team-${teamOf[seat]}`);
      if (view.to_act === seat && !view.is_over) box.classList.add("turn");
      if (seat === me) box.classList.add("me");
      const p = this.names[seat] || {};
      const head = el("div", "name");
      head.append(el("span", "who", this._name(seat)));
      if (p.away) head.append(el("span", "tag away", t("away")));
      if (view.dealer === seat) head.append(el("span", "tag dealer", "D"));
      if (view.declarer === seat) head.append(el("span", "tag decl", "★"));
      box.append(head);
      const line = [];
      if (hasBids) {
        const b = view.bids[seat];
        line.push(`${t("bid")} ${b === null || b === undefined ? "–" : b}`);
      }
      if (TRICK_GAMES.has(view.game) && view.tricks_won && view.tricks_won.length === n) {
        line.push(`${t("tricks")} ${view.tricks_won[seat]}`);
      }
      if (view.hand_counts && view.hand_counts.length === n && seat !== me) {
        line.push(t("cards_left", { number: view.hand_counts[seat] }));
      }
      if (line.length) box.append(el("div", "line", line.join(" · ")));
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", [this._name(seat), ...line].join(", "));
      if (view.to_act === seat && frame.deadline && !view.is_over) {
        box.append(el("div", "clock", ""));
      }
      // Ladder: everyone's shown cards face up, hidden ones as backs
      if (view.game === "ladder" && seat !== me) {
        // one row: the shown cards face up, then the hidden ones as backs
        const row = cardRow((view.shown || [])[seat] || [], "mini ladder-table");
        for (let i = 0; i < ((view.hidden || [])[seat] || 0); i++) row.append(backElement());
        box.append(row);
      }
      // a replay shows every hand
      const hands = frame.hands;
      if (this.replay && hands && hands[seat]) {
        box.append(cardRow(displayOrder(hands[seat]), "mini"));
      }
      // Batak: the dummy face up beside its seat once revealed
      if (view.dummy && view.dummy_seat === seat) {
        box.classList.add("dummy-seat");
        box.append(el("div", "tag dummy", t("dummy")));
        const mineToPlay = (view.legal || []).length > 0 && view.to_act === seat;
        const playable = new Set(view.playable || []);
        box.append(
          cardRow(displayOrder(view.dummy), "dummy mini", mineToPlay ? (c) => this._cardClick(c) : null, playable),
        );
      }
      this.felt.append(box);
    }
  }

  _middle(frame, view, n, bottom) {
    this.middle.replaceChildren();
    if (view.game === "ladder") {
      const pile = el("div", "pile");
      pile.setAttribute("aria-label", `${t("pile")} (${view.pile_size || 0})`);
      const top = (view.pile || []).slice(-5);
      top.forEach((c, i) => {
        const card = cardElement(c);
        card.style.setProperty("--i", String(i));
        pile.append(card);
      });
      if (!top.length) pile.append(el("div", "empty-pile", t("pile")));
      this.middle.append(pile, el("div", "pile-size", `${t("pile")}: ${view.pile_size || 0}`));
      return;
    }
    let plays = view.trick || [];
    let done = false;
    if (!plays.length && (view.last_trick || []).length && !view.is_over) {
      plays = view.last_trick;
      done = true;
    }
    const trick = el("div", "trick" + (done ? " done" : ""));
    trick.setAttribute("aria-label", done ? t("last_trick") : t("trick"));
    for (const [seat, card] of plays) {
      const place = seatPlace(seat, bottom, n);
      const slot = el("div", "play");
      slot.style.setProperty("--dx", String(place.dx));
      slot.style.setProperty("--dy", String(place.dy));
      const c = cardElement(card);
      c.setAttribute("aria-label", `${this._name(seat)}: ${cardLabel(card)}`);
      slot.append(c, el("div", "by", this._name(seat)));
      slot.dataset.seat = String(seat);
      trick.append(slot);
    }
    this.middle.append(trick);
    if (view.turned) {
      const turned = el("div", "turned");
      turned.append(el("div", "label", t("turned")), cardElement(view.turned));
      this.middle.append(turned);
    }
  }

  _side(frame, view) {
    const parts = [];
    const unit = view.score_unit;
    const teams = view.teams || [];
    const scores = view.scores || [];
    if (scores.length) {
      const box = el("section", "scores");
      box.append(el("h3", "", t("scores")));
      const list = el("ol", "");
      scores.forEach((s, i) => {
        let who;
        if (teams.length === scores.length) {
          who = teams[i].map((x) => this._name(x)).join(" & ");
        } else who = this._name(i);
        const li = el("li", teams.length === scores.length ? `team-${i}` : "");
        li.append(el("span", "who", who), el("span", "pts", scoreText(s, unit)));
        if (view.ranking && view.ranking.length === scores.length) {
          li.prepend(el("span", "rank", `${view.ranking[i]}.`));
        }
        list.append(li);
      });
      box.append(list);
      parts.push(box);
    }
    const extra = view.extra || {};
    if (extra.card_points && teams.length) {
      parts.push(
        el("p", "fact", `${t("card_points")}: ${extra.card_points.join(" – ")}`),
      );
    }
    if ((view.auction || []).length) {
      const box = el("section", "auction");
      box.append(el("h3", "", t("auction")));
      const list = el("ol", "");
      for (const [seat, call] of view.auction.slice(-8)) {
        const li = el("li", "");
        li.append(el("span", "who", this._name(seat)), el("span", "call", callText(call)));
        list.append(li);
      }
      box.append(list);
      parts.push(box);
    }
    if ((view.declarations || []).length) {
      const box = el("section", "decl");
      box.append(el("h3", "", t("declarations")));
      for (const [seat, text, cards] of view.declarations) {
        const p = el("p", "", `${this._name(seat)}: ${text} `);
        if (cards && cards.length) p.append(el("span", "cards-text", cards.map(cardShort).join(" ")));
        box.append(p);
      }
      parts.push(box);
    }
    if (view.hand_size) parts.push(el("p", "fact", `${t("hand_size")}: ${view.hand_size}`));
    if (view.game === "ladder" && extra.max_turns) {
      parts.push(el("p", "fact", `${extra.turns ?? 0} / ${extra.max_turns}`));
    }
    if (frame.result && frame.result.lines) {
      const box = el("section", "outcome");
      box.append(el("h3", "", t("match_over")));
      for (const line of frame.result.lines) box.append(el("p", "", line));
      parts.push(box);
    }
    this.side.replaceChildren(...parts);
  }

  /** Ladder: the reader's own shown and hidden cards (played after the hand). */
  _mine(frame, view, me, playable, playing) {
    this.mine.replaceChildren();
    if (view.game !== "ladder" || me === null) {
      this.mine.hidden = true;
      return;
    }
    this.mine.hidden = false;
    const shown = (view.shown || [])[me] || [];
    const pick = playing ? (c) => this._cardClick(c) : null;
    this.mine.append(el("span", "label", t("shown")), cardRow(shown, "mini", pick, playable));
    const slots = ((view.extra || {}).hidden_slots || [])[me] || [];
    const hid = el("div", "cards mini hidden-row");
    slots.forEach((has, i) => {
      if (!has) return;
      const action = `hidden ${i + 1}`;
      const ok = (view.legal || []).includes(action);
      const b = backElement("button");
      b.setAttribute("aria-label", (view.labels || {})[action] || `${t("hidden")} ${i + 1}`);
      b.dataset.action = action;
      if (ok) {
        b.classList.add("playable");
        b.addEventListener("click", () => this._act(action));
      } else b.setAttribute("aria-disabled", "true");
      hid.append(b);
    });
    this.mine.append(el("span", "label", t("hidden")), hid);
  }

  _hand(view, playable, playing, me) {
    const cards = displayOrder(view.hand || []);
    this.hand.replaceChildren();
    this.hand.hidden = me === null;
    this.hand.setAttribute("aria-label", t("your_hand"));
    const n = cards.length;
    this.hand.style.setProperty("--n", String(n));
    const focusable = [];
    cards.forEach((c, i) => {
      const b = cardElement(c, "button");
      b.style.setProperty("--i", String(i));
      b.style.setProperty("--k", String(i - (n - 1) / 2));
      const can = playing && playable.has(c);
      if (playing) b.classList.add(can ? "playable" : "unplayable");
      if (!can) b.setAttribute("aria-disabled", "true");
      if (this.selected.has(c)) b.classList.add("selected");
      b.tabIndex = -1;
      b.addEventListener("click", () => {
        this.focusIndex = i;
        if (can) this._cardClick(c);
      });
      focusable.push(b);
      this.hand.append(b);
    });
    if (!focusable.length) return;
    // roving tab stop: the first playable card when it is the reader's move
    let idx = Math.min(this.focusIndex, n - 1);
    if (playing && !playable.has(cards[idx])) {
      const first = cards.findIndex((c) => playable.has(c));
      if (first >= 0) idx = first;
    }
    this.focusIndex = idx;
    focusable[idx].tabIndex = 0;
    if (this.hadFocus) focusable[idx].focus();
  }

  _handKeys(ev) {
    const cards = [...this.hand.querySelectorAll(".card")];
    if (!cards.length) return;
    let i = cards.indexOf(document.activeElement);
    if (i < 0) i = this.focusIndex;
    let j = i;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = cards.length - 1;
    else return;
    ev.preventDefault();
    cards[i].tabIndex = -1;
    cards[j].tabIndex = 0;
    cards[j].focus();
    this.focusIndex = j;
  }

  /** A card was picked: send the legal action that plays exactly it; for
   * Ladder's several-card plays, select cards until they name one action. */
  _cardClick(card) {
    if (!this.frame) return;
    this.hadFocus = this.hand.contains(document.activeElement);
    const legal = this.frame.view.legal || [];
    const single = `play ${card}`;
    const plays = legal.filter((a) => a.startsWith("play ") && a.split(" ").slice(1).includes(card));
    if (legal.includes(single) && plays.length === 1) {
      this._act(single);
      return;
    }
    if (plays.length === 1) {
      this._act(plays[0]);
      return;
    }
    if (this.selected.has(card)) this.selected.delete(card);
    else this.selected.add(card);
    this._selection(legal);
  }

  /** Ladder: the cards picked so far, and a Play button once they are one legal play. */
  _selection(legal) {
    const want = [...this.selected].sort().join(" ");
    const match = legal.find(
      (a) => a.startsWith("play ") && a.split(" ").slice(1).sort().join(" ") === want,
    );
    for (const b of this.root.querySelectorAll(".card[data-card]")) {
      b.classList.toggle("selected", this.selected.has(b.dataset.card));
    }
    for (const b of this.controls.querySelectorAll("button[data-action^='play ']")) {
      const cards = b.dataset.action.split(" ").slice(1);
      b.classList.toggle("hint", this.selected.size > 0 && [...this.selected].every((c) => cards.includes(c)));
    }
    let row = this.controls.querySelector(".selection");
    if (!this.selected.size) {
      if (row) row.remove();
      return;
    }
    if (!row) {
      row = el("div", "row selection");
      this.controls.prepend(row);
      this.controls.hidden = false;
    }
    const b = el("button", "act play-selection", `${t("play")} ${[...this.selected].map(cardShort).join(" ")}`);
    b.type = "button";
    b.disabled = !match;
    if (match) {
      b.dataset.action = match;
      b.addEventListener("click", () => this._act(match));
    }
    row.replaceChildren(b);
  }

  _timer(frame, view) {
    clearInterval(this.tick);
    const deadline = frame.deadline;
    if (!deadline || view.is_over || this.replay) {
      this.timerEl.textContent = "";
      this.timerEl.hidden = true;
      return;
    }
    this.timerEl.hidden = false;
    const update = () => {
      const left = Math.max(0, Math.ceil((deadline * 1000 - (Date.now() + this.clockOffset)) / 1000));
      this.timerEl.textContent = t("seconds_left", { seconds: left });
      this.timerEl.classList.toggle("low", left <= 10);
      const clock = this.felt.querySelector(".seat.turn .clock");
      if (clock) clock.textContent = t("seconds_left", { seconds: left });
      if (left <= 0) clearInterval(this.tick);
    };
    update();
    // a display clock, once a second while a turn timer runs (no server polling)
    this.tick = setInterval(update, 1000);
  }
}
