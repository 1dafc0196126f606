"""The table service: the only place that mutates live tables (DESIGN.md).
No discord import: the Discord layer and the terminal share it."""
