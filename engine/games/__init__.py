"""Every game registers itself with ``engine.core.registry.GAMES`` on import.

One import line per game; the registry order (the order shown to users) is
the rule book's: Batak, Callbreak, Blot, Backalley, Ladder.
"""

# isort: off
from engine.games import batak  # noqa: F401
from engine.games import callbreak  # noqa: F401
from engine.games import blot  # noqa: F401
from engine.games import backalley  # noqa: F401
from engine.games import ladder  # noqa: F401
# isort: on
