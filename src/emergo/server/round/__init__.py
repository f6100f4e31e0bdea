"""The round: one game being played, on the database as the authority (a locked read,
:func:`emergo.round.apply`, one transaction, then the bus); presence; the game's JSON (lichess's
``gameFull``/``gameState``) and its edges (the Board API, the game socket, the game page).
"""
