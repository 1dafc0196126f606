"""Rendering, pure: engine views and the services' records -> texts and pictures
(no discord.py: ``bot.discord`` turns them into messages and embeds)."""
