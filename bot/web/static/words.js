// Every label the client shows, by the server's key (bot/web/words.py), in
// English: the fallback when `welcome.words` lacks a key, so nothing ever
// reads as a raw key. The server sends the reader's language; the English
// text here is the catalogue's msgid. Placeholders are {name} style.
export const EN = {
  // the table
  your_turn: "Your turn",
  waiting_for: "Waiting for {name}",
  watching: "You are watching this table",
  connecting: "Connecting…",
  reconnecting: "Connection lost: reconnecting…",
  your_hand: "Your hand",
  trick: "Trick",
  last_trick: "Last trick",
  trump: "Trump",
  contract: "Contract",
  declarer: "Declarer",
  dealer: "Dealer",
  bids: "Bids",
  bid: "Bid",
  auction: "Auction",
  standing_bid: "Standing bid",
  level: "Level",
  tricks: "Tricks",
  scores: "Scores",
  card_points: "Card points",
  declarations: "Declarations",
  dummy: "Dummy",
  pile: "Pile",
  shown: "Shown cards",
  hidden: "Hidden cards",
  turned: "Turned card",
  hand_size: "Hand size",
  next_play: "Next: {requirement}",
  cards_left: "{number} cards",
  deal: "Deal {number}",
  ladder_game: "Game {number}",
  seconds_left: "{seconds} s left",
  team: "Team {number}",
  you: "You",
  ai: "AI",
  away: "away",
  result: "Result",
  match_over: "The match is over.",
  play: "Play",
  play_card: "Play {card}",
  not_playable: "{card}: cannot be played now",
  card_of: "{rank} of {suit}",
  red_joker: "Red joker",
  black_joker: "Black joker",
  // the start screen and replays
  new_game: "New game",
  play_vs_ai: "Play against the AI",
  choose_game: "Choose a game",
  tables: "Tables",
  back_to_tables: "All tables",
  no_tables: "No open tables here.",
  open: "Open",
  watch: "Watch",
  replay: "Replay",
  move_of: "Move {at} of {total}",
  first: "To the start",
  previous: "Back",
  next: "Forward",
  last: "To the end",
  language: "Language",
  // the games' own words (bot.i18n.terms)
  "game.callbreak": "Callbreak",
  "game.batak": "Eşli Batak",
  "game.blot": "Bazar Blot",
  "game.backalley": "Backalley",
  "game.ladder": "Ladder",
  "suit.S": "Spades",
  "suit.H": "Hearts",
  "suit.D": "Diamonds",
  "suit.C": "Clubs",
  "suit.J": "Joker",
  "suit.NT": "No trump",
  "rank.A": "Ace",
  "rank.K": "King",
  "rank.Q": "Queen",
  "rank.J": "Jack",
  "bid.pass": "pass",
  "bid.contra": "contra",
  "bid.recontra": "recontra",
  "bid.capot": "capot",
  "bid.backalley": "backalley",
  "bid.NT": "NT",
  "status.lobby": "lobby",
  "status.playing": "playing",
  "status.finished": "finished",
  "status.abandoned": "abandoned",
};

let current = { ...EN };

/** Take the server's words (reader's language); missing keys stay English. */
export function setWords(words) {
  current = { ...EN, ...(words || {}) };
}

/** The label for `key` with `{name}` placeholders filled from `params`. */
export function t(key, params) {
  const text = current[key] ?? EN[key] ?? key;
  if (!params) return text;
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) =>
    name in params ? String(params[name]) : m,
  );
}

/** Every key the client may look up (the browser test compares it with the server's). */
export function keys() {
  return Object.keys(EN);
}
