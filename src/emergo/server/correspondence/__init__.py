"""Correspondence that works (issue 21): vacations, conditional moves, and what happens around
each command on a stored game (ratings, the archive, notices).
"""
