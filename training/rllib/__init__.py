"""Ray RLlib training of rams games (``trainer: rllib``; the ``rllib`` extra). Ray is imported by the modules
that need it (env, module, run), never by this package or training/rllib/settings.py."""
