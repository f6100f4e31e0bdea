"""Reports to the site's moderators (lichess's ``report`` and ``mod``): a player or one chat
line reported, the queue (``emergo admin reports``), and the moderators' actions (warn, mute
chat, disable), each logged. The domain is :mod:`.service`; :mod:`.http` its edge."""
