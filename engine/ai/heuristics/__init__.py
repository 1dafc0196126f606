"""Per-game rule heuristics; each module registers itself as "heuristic"."""

from engine.ai.heuristics import backalley, batak, blot, callbreak, ladder  # noqa: F401
