"""The online server (issue 19) and its ratings, profiles and correspondence (issue 21)."""
