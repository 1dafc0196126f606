"""The offline terminal table: ``python -m bot play <game>``.

A human plays one seat against AI players.  Everything printed for the human
is rendered from ``state.view(human_seat)`` (or the spectator view when
watching).  Bad input never crashes the loop: it is refused with the rule it
breaks and asked again; EOF and Ctrl-C end the game politely.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from bot.ui.text import (
    describe_action,
    describe_event,
    options_text,
    render_deal_summary,
    render_ranking,
    render_table,
)
from engine import Action, EngineError, MatchState, get_game
from engine.ai import agent_names, get_agent

AI_NAMES = ("Ada", "Bram", "Cleo", "Dov", "Esme", "Finn", "Gus", "Hana")
HELP = (
    "Type a card to play it (AS, as, 10h, 7d), a number to bid (3), or an action\n"
    "as listed ('bid 9 H', 'trump S', 'pass', 'pickup', 'hidden 2', 'play 7H 7D').\n"
    "'?' lists your legal moves, 't' shows the table again, 'q' quits."
)


@dataclass
class Console:
    """Input and output streams; ``ask`` returns None on EOF or Ctrl-C."""

    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except (KeyboardInterrupt, UnicodeDecodeError):
            return None
        if not line:
            return None
        return line.strip()


def seat_names(num_seats: int, human: int | None) -> list[str]:
    names = []
    ai = iter(AI_NAMES)
    for seat in range(num_seats):
        names.append("You" if seat == human else f"{next(ai)} (AI)")
    return names


def resolve_input(text: str, legal: Sequence[Action], state: MatchState) -> Action:
    """Read what the human typed: full notation, a bare card, a bare number,
    or a unique shorthand of a legal action ('h' for 'trump H', 'backalley')."""
    try:
        return state.game.parse_action(text)
    except EngineError as first_error:
        low = text.strip().lower()
        matches = [a for a in legal if str(a).lower().endswith(" " + low) or str(a).lower() == low]
        if len(matches) == 1:
            return matches[0]
        raise first_error


def pick_agent(game: str, preferred: str) -> str:
    names = agent_names(game)
    return preferred if preferred in names else "random"


def play_terminal(
    game_name: str,
    *,
    seed: int | None = None,
    seat: int = 0,
    watch: bool = False,
    options: dict[str, str] | None = None,
    agent: str = "heuristic",
    console: Console | None = None,
) -> int:
    """Play one match in the terminal; returns the process exit code."""
    con = console or Console()
    try:
        game = get_game(game_name)
        variant = game.Variant.from_options(options or {})
    except EngineError as exc:
        con.say(f"Error: {exc}")
        return 2
    state = game.new_match(seed=seed, variant=variant)
    human = None if watch else seat
    if human is not None and not 0 <= human < state.num_seats:
        con.say(f"Error: --seat must be between 0 and {state.num_seats - 1}")
        return 2
    names = seat_names(state.num_seats, human)
    agent_name = pick_agent(game.name, agent)
    agents = [
        get_agent(agent_name, game=game.name, seed=state.seed * 31 + s)
        for s in range(state.num_seats)
    ]
    con.say(f"{game.title}: {game.summary}")
    con.say(f"Settings: {', '.join(f'{k}={v}' for k, v in variant.to_dict().items())}")
    if human is not None:
        con.say(f"You sit in seat {human}. {HELP}")
    con.say()
    viewer = human
    shown_round = 0
    while not state.is_over:
        decider = state.decider
        assert decider is not None
        if state.round_number != shown_round:
            shown_round = state.round_number
            unit = "Game" if game.name == "ladder" else "Deal"
            con.say(f"--- {unit} {shown_round} ---")
        if decider == human:
            action = _ask_human(con, state, human, names)
            if action is None:
                con.say("\nGame left unfinished. Bye!")
                return 0
        else:
            legal = state.legal_actions()
            action = agents[decider].act(state.view(decider), legal)
        actor = state.to_act
        events = state.apply(action)
        con.say(describe_action(actor if actor is not None else decider, action, names))
        for event in events:
            line = describe_event(event, names)
            if line:
                con.say(line)
            if event.kind == "deal_scored":
                con.say(render_deal_summary(state.view(viewer), names))
    con.say(render_ranking(state.view(viewer), names))
    return 0


def _ask_human(con: Console, state: MatchState, human: int, names: list[str]) -> Action | None:
    """Show the table and ask until the human gives a legal action."""
    view = state.view(human)
    con.say()
    con.say(render_table(view, names, title=state.game.title))
    if view.to_act is not None and view.to_act != human:
        con.say(f"You choose the card for the dummy ({names[view.to_act]}).")
    legal = list(view.legal_actions)
    choices = options_text(legal)
    if choices:
        con.say(f"Choose: {choices}")
    while True:
        text = con.ask("Your move: ")
        if text is None:
            return None
        if text.lower() in ("q", "quit", "exit"):
            return None
        if text in ("?", "help", "h?"):
            con.say(HELP)
            con.say("Legal now: " + ", ".join(str(a) for a in legal))
            continue
        if text.lower() in ("t", "table"):
            con.say(render_table(state.view(human), names, title=state.game.title))
            continue
        if not text:
            continue
        try:
            action = resolve_input(text, legal, state)
            if action not in legal:
                # let the engine say which rule it breaks (nothing changes)
                state.clone().apply(action, seat=human)
            return action
        except EngineError as exc:
            con.say(f"Not allowed: {exc}")
            if len(legal) <= 16:
                con.say("Legal now: " + ", ".join(str(a) for a in legal))
