"""Challenges (lichess's): direct challenges, invitation links and the lobby's seeks; accept,
decline, cancel, expiry."""
