"""TV (lichess's): the best-rated live game being played now, shown on the home page and
changed to the next best when it ends. The domain is :mod:`.service`; :mod:`.http` its edge."""
