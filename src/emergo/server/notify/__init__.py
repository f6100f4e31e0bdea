"""What players are told: the user's event stream (challenges, game starts and ends), the
notices of correspondence games and their mail, the site-wide socket.
"""
