"""Slash-command cogs, one extension each (loaded by ``CardBot.setup_hook``)."""
