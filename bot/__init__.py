"""Card Table front ends: the Discord bot, the terminal table, and the
service and store they share.  Depends on ``engine``, never the reverse."""
