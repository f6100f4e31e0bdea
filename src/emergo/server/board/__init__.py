"""The board's data for the board component: a board's squares and a position's legal moves (R1-R22
from :mod:`emergo.board`)."""
