"""ReviewCritique prompts (filled with ``core.text.fill_template``).

Source: AAAR-1.0 (Lou et al., 2024), Section 5.4 "ReviewCritique", which follows Du et al.
(2024, arXiv:2406.16253, "LLMs as Meta-Reviewers"): two prompting strategies, Labeling-All
(a triple {id, reliable or not, explanation} for every indexed segment) and Select-Deficient
(a tuple {id, explanation} for each segment the model finds deficient). The AAAR-1.0 release
scripts (RenzeLou/AAAR-1.0 ``scripts/``) contain no ReviewCritique code, and Du et al.'s
prompt text is not in either paper's body; the wording below is ours, built from those two
descriptions and the deficiency definition of AAAR-1.0 Section 3.4. The README lists this as a
difference from the paper. The answer format is JSON so it can be parsed strictly (and given to
providers as a response schema).
"""

# One indexed review segment in the prompt.
SEGMENT_LINE = "[{id}] {text}"

# Heads the indexed segments (offline baselines find the segment list after it).
REVIEW_HEADER = "Review, split into indexed segments:"

# The shared input of both prompts: the paper (AAAR-1.0 Section 3.4: the meta-reviewer reads the
# submission and the individual review) and the review split into indexed segments.
REVIEW_CONTEXT = """Paper title: {title}

Paper text:
{paper}

Review, split into indexed segments:
{segments}"""

# AAAR-1.0 Section 3.4: a meta-reviewer must "identify deficient/unreliable review segments (e.g.,
# if a viewpoint is too subjective or contains factual errors)".
CRITIQUE_SYSTEM = (
    "You are a senior researcher acting as a meta-reviewer. You read a paper submission and "
    "one of its peer reviews, and judge each segment of the review. A segment is deficient "
    "(unreliable) if a meta-reviewer should not rely on it: for example it misunderstands or "
    "misrepresents the paper, contains factual errors, neglects what the paper says, is too "
    "subjective, vague or superficial, or is out of scope. Otherwise it is reliable."
)

# AAAR-1.0 Section 5.4, strategy i) Labeling-All: {id, reliable or not, explanation} for every
# indexed segment.
LABELING_ALL_PROMPT = """{context}

Judge EVERY segment of the review above. For each segment id, say whether the segment is
reliable ("Yes") or deficient ("No"), and explain why in one or two sentences.

Answer with JSON only, exactly in this form, with one entry per segment id:
{"segments": [{"id": 1, "reliability": "Yes", "explanation": "..."}, ...]}"""

# AAAR-1.0 Section 5.4, strategy ii) Select-Deficient: {id, explanation} only for the segments
# the model believes are deficient.
SELECT_DEFICIENT_PROMPT = """{context}

Find the deficient segments of the review above. List ONLY the ids of deficient segments, each
with a one- or two-sentence explanation of why it is deficient; list nothing for reliable
segments (an empty list if every segment is reliable).

Answer with JSON only, exactly in this form:
{"deficient_segments": [{"id": 3, "explanation": "..."}, ...]}"""
