"""Who is here (lichess's "players online" and the user search): the signed-in players whose
pages are open now, a search by name, a player's status (online, playing now). The domain is
:mod:`.service`; :mod:`.http` and :mod:`.pages` its edges."""
