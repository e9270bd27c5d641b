"""Throwaway: the smallest family folder (tests/test_family_folder.py copies it as
``research_taste_evals/throwaway`` into a copy of the package and finds its task everywhere)."""

from research_taste_evals.throwaway.throwaway import throwaway_task

__all__ = ["throwaway_task"]
