"""Watching: the games being played now."""
