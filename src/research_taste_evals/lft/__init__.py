"""Long-Form Tasks (AISI; Pencharz, Flesch and Sandbrink 2024): rubric-graded protocols."""
