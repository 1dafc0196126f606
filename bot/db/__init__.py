"""The store: SQLAlchemy 2 async models, sessions and repositories."""
