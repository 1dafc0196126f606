"""Rendering: pure functions from engine views to text, embeds and images."""
