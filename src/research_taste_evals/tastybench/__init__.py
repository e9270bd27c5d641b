"""TastyBench (Hao, Huang and Mahajan, 2025): research-taste judgments vs citation velocity."""
