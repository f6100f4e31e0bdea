"""The lobby: open seeks (kept by :mod:`emergo.server.challenge.service`), the create form, play
the computer."""
