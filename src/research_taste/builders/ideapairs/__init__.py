"""The idea-pair builder: leaderboards in, a pairs file (``ideapairs/1``) out."""
