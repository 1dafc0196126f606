"""The table picture (``table.render_table_png``) and the history picture,
drawn with Pillow from a spectator's view; the parts (cards, seats, the
middle, tiles, layout, PNG encoding) and the fonts they draw with."""
