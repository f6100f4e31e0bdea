"""Emergo as an environment for learning agents and experiments (issue 13).

Interfaces only: the rules layer decides every rule, these modules translate.

* :mod:`emergo.envs.actions` -- the fixed action space (entries, steps, capture hops)
  shared by every environment; pure Python, no third-party imports.
* :mod:`emergo.envs.observation` -- the observation planes (NumPy).
* :mod:`emergo.envs.emergo_v0` -- the PettingZoo AEC environment.
* :mod:`emergo.envs.gym_env` -- a Gymnasium single-agent environment against a built-in opponent.
* :mod:`emergo.envs.vector` -- self-play as a Gymnasium vector environment over the C batch
  environment (``EmergoVectorEnv``), and the same game as one Gymnasium environment.
* :mod:`emergo.envs.openspiel` -- Emergo registered as an OpenSpiel Python game.

NumPy, PettingZoo, Gymnasium and OpenSpiel come with the optional extra ``rl``
(``pip install 'emergo[rl]'``); nothing outside ``emergo.envs`` imports them.
See ``docs/research.md``.
"""
