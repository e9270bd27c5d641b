"""Logs -> leaderboard tables (Markdown / CSV) and plots (PNG)."""
