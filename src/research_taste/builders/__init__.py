"""Dataset builders: idea pairs from leaderboards, TastyBench paper sets."""
