"""Prompts of the idea-pair family (Mule et al., "Teaching Language Models to Forecast Research
Success Through Comparative Idea Evaluation", 2026).

The paper's appendix C shows its prompts as images that the text of the paper does not carry,
and no code was released, so these constants restate what the paper's text specifies: the
inputs (section 2: research goal g and two idea descriptions h_A, h_B; label y), the output
format (section 5.2: an answer after "Answer:") and the extraction rules (section 4, "Research
Goal and Idea Extraction": ideas exclude "empirical results, comparisons, unique identifier
like author/model names, year etc."). Fields are filled with ``core.text.fill_template``.
"""

# What both prompts say first: the role, the question, the goal and the two ideas.
PAIR_PROMPT_HEAD = (
    "You are an expert researcher who predicts the empirical outcomes of research ideas.\n"
    "\n"
    "Below is a research goal, defined by a benchmark, and two ideas that were each "
    "implemented and evaluated on that benchmark. Predict which idea {question}.\n"
    "\n"
    "Research goal:\n"
    "{goal}\n"
    "\n"
    "Idea A:\n"
    "{idea_a}\n"
    "\n"
    "Idea B:\n"
    "{idea_b}\n"
    "\n"
)

# Section 5.1 (the paper-comparable format, ``-T prompt=paper``): the model is given the goal g
# and the two ideas h_A, h_B and its target output "is simply the binary label y in {0, 1}"
# (y = 0: Idea A is better, section 2). No chain of thought (section 7.2: prompting Llama 3.1
# to reason first lowered it from 30.02% to 27.38%), no verbalised confidence: calibration
# (appendix B.11) reads the label tokens' probabilities when the provider returns logprobs.
PAPER_PROMPT = PAIR_PROMPT_HEAD + (
    "Answer with the label only: 0 if Idea A {did_better}, 1 if Idea B did."
)

# ``-T prompt=reasoning`` (the earlier default): section 2 (problem statement) and 5.2 (the
# "Answer:" format the reward checks); the paper's own prompt box (appendix C, "Prompt format
# used for FT with RL") is an image.
# Idea A / Idea B follow section 4's (idea_A, idea_B). The confidence line gives the
# verbalised probability used for calibration (appendix B.11) when logprobs are unavailable.
FORECAST_PROMPT = PAIR_PROMPT_HEAD + (
    "Reason about how well each idea addresses the research goal, then give your "
    "prediction. End your reply with exactly these two lines:\n"
    "Answer: <A or B, the idea that {short_better}>\n"
    "Confidence: <a number between 0 and 1, the probability that your answer is correct>"
)

# The question's direction (issue 31). Where the benchmark's metric is higher-is-better (or its
# direction is not recorded: pairs files written before ``lower_is_better``) the prompt keeps
# the wording above, "achieved the higher score"; on a lower-is-better metric (error rate,
# perplexity, cross-entropy) "the higher score" would name the worse idea, so the question
# says which way is better.
HIGHER_DIRECTION = {
    "question": "achieved the higher score on the benchmark",
    "did_better": "achieved the higher score",
    "short_better": "scored higher",
}
LOWER_DIRECTION = {
    "question": "performed better on the benchmark: on its metric, {metric}, lower is better",
    "did_better": "performed better",
    "short_better": "performed better",
}


def direction_fields(lower_is_better: bool | None, metric: str | None) -> dict[str, str]:
    """The ``{question}``, ``{did_better}`` and ``{short_better}`` of the pair prompts."""
    if not lower_is_better:
        return dict(HIGHER_DIRECTION)
    fields = dict(LOWER_DIRECTION)
    if metric:
        fields["question"] = fields["question"].replace("{metric}", metric)
    else:
        fields["question"] = "performed better on the benchmark: on its metric, lower is better"
    return fields


# Section 4, "Research Goal and Idea Extraction": one idea per leaderboard entry from its
# paper, excluding results, comparisons, author/model names and years. The method name
# and title tell the extractor which of the paper's methods the entry is.
EXTRACT_IDEA_PROMPT = (
    "You will read a research paper and describe one method from it in enough detail that "
    "a researcher could understand and reimplement the idea without the paper.\n"
    "\n"
    "The method (as listed on a benchmark leaderboard): {method}\n"
    "Paper title: {title}\n"
    "\n"
    "<paper>\n"
    "{paper}\n"
    "</paper>\n"
    "\n"
    "Describe the idea behind this method: the problem it addresses, the approach, the "
    "architecture or algorithm, the training objective, and the mathematical details that "
    "define it.\n"
    "\n"
    "Do not include: any empirical result, score, percentage or number from the "
    "experiments; any comparison with other methods or statement of which performs better; "
    "the name of the method, model, system or authors; the year, venue or any date. Refer "
    'to the method only as "the proposed method".\n'
    "\n"
    "Write the description between <idea> and </idea> tags."
)

# Section 4: "a clear, comprehensive research goal including what the benchmark evaluates",
# generated from the benchmark's official description.
EXTRACT_GOAL_PROMPT = (
    "Below is the description of a benchmark used to evaluate research methods.\n"
    "\n"
    "Task: {task}\n"
    "Dataset: {dataset}\n"
    "Metrics: {metrics}\n"
    "\n"
    "<description>\n"
    "{description}\n"
    "</description>\n"
    "\n"
    "Write a clear, comprehensive research goal for this benchmark: what it evaluates, on "
    "what data, and what a method must do to score well on its metrics. Do not mention any "
    "model or method names, any results or scores, or any dates.\n"
    "\n"
    "Write the goal between <goal> and </goal> tags."
)

# The fallback goal when no extraction runs (--no-extract) or the leaderboard has no
# description: the benchmark's own words, no model involved.
TEMPLATE_GOAL = (
    'Achieve the best performance on the task "{task}" on the benchmark "{dataset}", as '
    "measured by: {metrics}.{ranked_by}{description}"
)

# Added to every goal (template or extracted) of a board with several metrics: the one whose
# values rank the board (``scoring.ScoredBoard.rank_column``) decides which idea is better.
RANKED_BY = " The leaderboard ranks entries by {metric}."

# The fallback idea text (--no-extract, or no paper text): method name and paper title.
TEMPLATE_IDEA = "Method: {method}\nPaper: {title}"
