"""Statistics across many stored games (SQL over the storage tables), and one game's breakdowns."""
