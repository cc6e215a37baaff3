"""Self-play PPO on the batched engine (rams_env.vector), in plain torch: see docs/training.md,
"The batched self-play learner (training/batched/)"."""
