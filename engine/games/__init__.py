"""Every game registers itself with ``engine.core.spec.GAMES`` on import.

Add one import line per game; the registry order is the order shown to users.
"""

from engine.games import batak, callbreak  # noqa: F401
