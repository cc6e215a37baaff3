"""Rule-based players, one module per game; see agents/registry.py for how they are named."""
