"""The web table: the Discord Activity and the browser client's server
(docs/web.md).  A front end beside bot/discord and the terminal: it
imports the services, render and i18n, never bot.discord or bot.cli."""
