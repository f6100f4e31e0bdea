"""What players are to each other (lichess's ``relation``): a player follows another (their
games in the follower's feed, a notice when they start one) or blocks him (no challenges, no
chat from him). The domain is :mod:`.service`; :mod:`.http` its edge."""
