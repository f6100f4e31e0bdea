"""Bots (issue 20): bot accounts, the Bot API's own rules and endpoints, the house bots (the
engine's levels as bot accounts)."""
