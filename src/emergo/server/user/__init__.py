"""Users: accounts and sessions, personal tokens, ratings (Glicko-2), perfs, profiles,
leaderboards."""
