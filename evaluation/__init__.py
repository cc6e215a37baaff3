"""Judging agents: duplicate-deal matches and tournaments, ratings, reports, baselines, the Toepen bluff study."""
