"""The command line's commands (``python -m bot``, whose entry is
``bot/__main__.py``): the terminal table, the replay of a finished match,
the health check, and the operating commands (``ops*``: doctor, backup,
restore, migrate-data).  The top layer: it may import every layer below,
and only the entry imports it."""
