"""A game's two chat rooms (players, spectators): lines, moderation, who may read which."""
