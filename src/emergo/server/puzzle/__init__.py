"""Puzzles on the site (issue 29): the training pages, the API, ratings, the timed run."""
