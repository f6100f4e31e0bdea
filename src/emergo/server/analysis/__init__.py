"""The analysis board: engine lines, reviews of whole games, the endgame tables, records."""
