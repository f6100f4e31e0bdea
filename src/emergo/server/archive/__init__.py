"""The archive: finished games, searched by player, opponent, variant, speed, result and date."""
