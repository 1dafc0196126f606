"""The store: SQLAlchemy 2 async models, sessions and repositories."""

# the tournament models share the store's metadata (Alembic, the models-agree test)
from bot.db import tournament_models as tournament_models
