"""The Discord front end: the client (``CardBot``), its cogs, the
components and their handler, the presenter, live hands, pings and replies.
The only package that imports discord.py (absolute imports: ``import
discord`` here is the library, never this package).  Its parts see the bot
through small Protocols (``host``), never by importing ``CardBot`` back."""
