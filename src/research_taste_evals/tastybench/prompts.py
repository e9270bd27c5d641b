"""TastyBench's answer contract: the prompts, verbatim, and the phrase patterns of an answer.

Source: the TastyBench blog post (Hao, Huang and Mahajan, "TastyBench: Toward Measuring
Research Taste in LLM", 2025-12-02, sections "Experimental Set-Up" and "Results") and the
upstream repository parviam/tastybench @ be72f06a, ``model-elicitation/prompts/``. The post's
texts are the specification; where the upstream files add characters the post's markdown
dropped (the double space after "reinforcement learning." in
the max-goodhart prompt, the trailing space after "tags."), the upstream bytes are kept.
Upstream's spelling ("reccomendation", "reponse", "sentances", "neccesary") is kept too.

Upstream fills ``[PROJECT 1]``-style placeholders with ``str.replace``; here the same places are
``{project_1}``-style fields filled in one pass by ``core.text.fill_template``, so a project
text that happens to contain a placeholder is never substituted again. Nothing else differs.

The phrase patterns (``parsing.py`` reads with them): a project reference (``REF``: "Project 1",
"Idea (2)", "the second project"), the decision phrases (verb first, label first, project
first), the looser verdict-like leans, the hedges that unmake a decision, and the line shapes of
a headline verdict (label lines, bold lines). The shapes are listed in the README's "Answer
contract"; tests/tastybench/test_parsing_contract.py holds them.
"""

from __future__ import annotations

import re
from typing import Literal

from research_taste_evals.core.errors import ConfigError

PromptVariant = Literal["normal", "goodhart", "max_goodhart", "reviews"]
PROMPT_VARIANTS: tuple[PromptVariant, ...] = ("normal", "goodhart", "max_goodhart", "reviews")
# The prompt a run uses when none is given: the one that asks about the set's label.
CITATION_DEFAULT_PROMPT: PromptVariant = "goodhart"
REVIEW_PROMPT: PromptVariant = "reviews"

# Blog post, "Prompt 1 (normal)"; upstream prompts/curated/judge_ideas_curated.md.
JUDGE_NORMAL = (
    "I’m an AI researcher trying to compare these two project ideas improving LLM reasoning "
    "capabilities such as math and coding tasks with reinforcement learning. Give me a clear "
    "reccomendation about which project I should pursue.\n"
    "\n"
    "Project 1: {project_1}\n"
    "\n"
    "Project 2: {project_2}"
)

# Blog post, "Prompt 2 (goodharted)"; upstream prompts/curated/judge_ideas_goodhart_curated.md.
JUDGE_GOODHART = (
    "I’m an AI researcher trying to compare these two project ideas improving LLM reasoning "
    "capabilities such as math and coding tasks with reinforcement learning. I want to maximize "
    'my "citation velocity" - the number and speed at which I\'ll get citations after '
    "publication. That is the only outcome of this project I care about. Give me a clear "
    "reccomendation about which project I should pursue.\n"
    "\n"
    "Project 1: {project_1}\n"
    "\n"
    "Project 2: {project_2}"
)

# Blog post, "Prompt 3 (max goodharted)"; upstream
# prompts/curated/judge_ideas_goodhart_curated_max.md.
JUDGE_MAX_GOODHART = (
    "<instructions>\n"
    "Below are two project ideas improving LLM reasoning capabilities such as math and coding "
    "tasks with reinforcement learning.  Your task is to determine which idea maximizes "
    '"citation velocity," the rate at which they were cited after publication. Give a clear '
    "prediction about which project had the higher citation velocity.\n"
    "</instructions>\n"
    "\n"
    "<project_1>\n"
    "{project_1}\n"
    "</project_1>\n"
    "\n"
    "<project_2>\n"
    "{project_2}\n"
    "</project_2>"
)

# Ours (not upstream's): the goodharted prompt with peer review in place of citations, for a
# set built from a venue's reviews (`research-taste openreview build`, docs/openreview.md). Same
# frame as JUDGE_GOODHART (one outcome the researcher cares about, a clear recommendation, the
# "Project 1: ...\n\nProject 2: ..." layout the baselines read); the outcome is the venue's
# reviewers' rating, and the topic is any machine-learning research, not RL for reasoning.
JUDGE_REVIEWS = (
    "I’m an AI researcher trying to compare these two machine learning research projects, both "
    "submitted to the same peer-reviewed conference. I want to maximize the rating the "
    "conference's reviewers will give my submission. That is the only outcome of this project "
    "I care about. Give me a clear recommendation about which project the reviewers will rate "
    "higher.\n"
    "\n"
    "Project 1: {project_1}\n"
    "\n"
    "Project 2: {project_2}"
)

# Ours: the same frame for a journal round (`research-taste round open --venue TMLR`,
# docs/rounds.md), whose label is the journal's decision; used on a round only.
JUDGE_JOURNAL = (
    "I’m an AI researcher trying to compare these two machine learning research projects, both "
    "submitted to the same peer-reviewed journal. I want my submission to be accepted by the "
    "journal. That is the only outcome of this project I care about. Give me a clear "
    "recommendation about which project the journal is more likely to accept.\n"
    "\n"
    "Project 1: {project_1}\n"
    "\n"
    "Project 2: {project_2}"
)

JUDGE_PROMPTS: dict[PromptVariant, str] = {
    "normal": JUDGE_NORMAL,
    "goodhart": JUDGE_GOODHART,
    "max_goodhart": JUDGE_MAX_GOODHART,
    "reviews": JUDGE_REVIEWS,
}
# A round's prompt, by its label plan's ``prompt`` (``tastybench_round``).
ROUND_PROMPTS: dict[str, str] = {
    **{str(name): text for name, text in JUDGE_PROMPTS.items()},
    "journal": JUDGE_JOURNAL,
}


def prompt_for_set(
    prompt: PromptVariant | None, review_label: str | None, data_path: str | None
) -> PromptVariant:
    """The judge prompt of a run: unset, the one that asks about the set's label (``reviews``
    for a review-label set, ``goodhart`` otherwise); given, it must ask about that label.

    Raises:
        ConfigError: a citation prompt for a review-label set, or ``reviews`` for a citation set.
    """
    if prompt is None:
        return REVIEW_PROMPT if review_label else CITATION_DEFAULT_PROMPT
    if review_label and prompt != REVIEW_PROMPT:
        raise ConfigError(
            f"prompt={prompt!r} asks about citations, but data_path={data_path} is a review-label "
            f"set (label {review_label}): pass -T prompt=reviews or leave prompt unset"
        )
    if not review_label and prompt == REVIEW_PROMPT:
        raise ConfigError(
            f"prompt='reviews' asks about peer review, but the papers of data_path={data_path} "
            "are labelled by citation velocity: pass a citation prompt (goodhart, normal, "
            "max_goodhart) or leave prompt unset"
        )
    return prompt


# Upstream prompts/extract_choice.md (not in the blog post, which says only that choices were
# extracted). The extractor must end with "PROJECT 1" / "PROJECT 2", or write "UNCLEAR".
EXTRACT_CHOICE = (
    "<instructions>\n"
    "Below is a transcript of someone deliberating between two projects. Your task is to "
    "identify which project they ended up reccomending. If they ended up reccomending Project 1, "
    'end your response with "PROJECT 1" and if they ended up reccomending Project 2, end your '
    'reponse with "PROJECT 2". If you don\'t know what project they reccomended, or it is '
    'otherwise unclear, write "UNCLEAR" and nothing else.\n'
    "</instructions>\n"
    "\n"
    "<transcript>\n"
    "{transcript}\n"
    "</transcript>"
)

# Blog post, "Extract core idea"; identical to upstream prompts/extract_idea.md.
EXTRACT_IDEA = (
    "<instructions>\n"
    "Below is an abstract of a scientific paper. Your goal is to extract the core idea of the "
    "paper. The core idea explains the main contribution to the field this paper provides "
    "without mentioning results. The core idea should begin with a gerund and be about a "
    "paragraph explaining the technical approach. When you are ready, write the core idea in "
    "<idea> tags. \n"
    "</instructions>\n"
    "\n"
    "<abstract>\n"
    "{abstract}\n"
    "</abstract>"
)

# Upstream prompts/curated/extract_idea.md: the prompt that actually produced the shipped
# llm_rl_yix_curate_with_ideas.csv (gpt-oss-120b). It asks for "a couple of sentances" where
# the blog post's prompt asks for "about a paragraph"; offered so the shipped ideas can be re-made.
EXTRACT_IDEA_CURATED = (
    "<instructions>\n"
    "Below is an abstract of a scientific paper. Your goal is to extract the core idea of the "
    "paper. The core idea explains the main contribution to the field this paper provides "
    "without mentioning results. The core idea should begin with a gerund and be a couple of "
    "sentances explaining the technical approach. When you are ready, write the core idea in "
    "<idea> tags. \n"
    "</instructions>\n"
    "\n"
    "<abstract>\n"
    "{abstract}\n"
    "</abstract>"
)

# Ours (not upstream's): the anonymising mode of ``tastybench_extract`` (-T anonymize=true)
# adds this to an extraction prompt's instructions, so a judge cannot recognise the paper by a
# name (issue "Recall is not taste"); the extracted text is checked for names afterwards.
ANONYMIZE_INSTRUCTION = (
    "Do not name the method, model, system, benchmark or dataset the paper introduces, its "
    "authors or their organisation, or the paper's title: describe each by what it does (for "
    'example "a policy-gradient method without a value network", not its acronym). '
)


def anonymized(template: str) -> str:
    """``template`` with :data:`ANONYMIZE_INSTRUCTION` at the end of its instructions."""
    closing = "\n</instructions>"
    if closing not in template:
        raise ValueError("an extraction prompt without </instructions>")
    return template.replace(closing, ANONYMIZE_INSTRUCTION + closing, 1)


# Blog post, "Summary generation prompt"; identical to upstream prompts/summarize_paper.md.
SUMMARIZE_PAPER = (
    "<instructions>\n"
    "Below is the full text of a paper focusing on improving math, coding, and reasoning "
    "performance in frontier LLMs using reinforcement learning. Your task is to generate a "
    "300-400 word summary of the paper's core methods and approaches without including any "
    "results that give away how well the method works. It is absolutely imperative you do not "
    "include any results of experiments in your summary. Your summary should instead describe "
    "the technical approach, context, and methods in the paper. Include all neccesary "
    "formalizations including training objectives and losses.   Frame any benefits/advantages "
    "as 'hypothesized benefits' rather than true outcomes.  Do not include any information in "
    "your summary that depends on results (e.g., the discussion section). Surround your summary "
    "with opening and closing <summary> tags.\n"
    "</instructions>\n"
    "\n"
    "<fulltext>\n"
    "{fulltext}\n"
    "</fulltext>"
)

PROJECT = r"(?:project|idea|proposal|option)\s*(?:#\s*)?\(?([12])\)?(?!\d|\.\d)"
ORDINAL = r"the\s+(first|second)\s+(?:project|idea|proposal|option)"
REF = rf"(?:{PROJECT}|{ORDINAL})"
# An optional aside after a project: "Project 1 (the DAPO framework) will ...", "Project 2 -
# the verifier-free one - will ...".
ASIDE = r"(?:\s*\([^()]{0,160}\)|\s+[–—-]\s[^–—\n]{1,160}?\s[–—-](?=\s))?"
# "I recommend Project 2", "you should pursue Project 1", "Go with Project 2", "I strongly
# recommend pursuing Project 1", "my pick is Project 2".
VERB_FIRST = re.compile(
    r"\b(?:(?:recommend(?:ing)?|suggest)(?:\s+(?:pursuing|going\s+with|choosing|selecting|"
    r"prioriti[sz]ing|focusing\s+on|working\s+on))?|pursue|go\s+with|choose|pick|select|prefer|"
    r"opt\s+for|bet\s+on|my\s+(?:pick|choice|recommendation|vote|bet)\s+(?:is|goes\s+to))"
    r"\s+(?:with\s+|for\s+)?" + REF,
    re.IGNORECASE,
)
# "Recommendation: Project 1", "Prediction: Project 2 (…)", "Final answer - Project 1."
LABEL = (
    r"(?:(?:my\s+|final\s+|overall\s+|short\s+)?(?:recommendation|prediction|verdict|winner|"
    r"answer|choice|decision|pick|conclusion|suggestion)|(?:recommended|preferred)\s+"
    r"(?:project|idea|option)|bottom\s+line|tl;?\s*dr)"
)
LABEL_FIRST = re.compile(
    rf"\b{LABEL}\s*[:\-–—]\s*(?:pursue\s+|go\s+with\s+|choose\s+|pick\s+)?"
    + REF
    + r"(?=\s*(?:[.!,;:(\-–—]|$))",
    re.IGNORECASE,
)
# "Project 1 is the better choice", "Project 2 will have a higher citation velocity".
PROJECT_FIRST = re.compile(
    REF
    + ASIDE
    + r",?\s+(?:(?:is|would\s+be|will\s+be|seems|looks)\s+(?:clearly\s+|likely\s+|probably\s+)?"
    r"(?:the\s+)?(?:better|stronger|superior|preferable|winner|recommended|more\s+promising|"
    r"clear\s+(?:choice|winner)|best\s+(?:choice|bet|option|pick)|"
    r"my\s+(?:top\s+)?(?:recommendation|pick|choice))\b"
    r"|(?:will|would|should|is\s+likely\s+to|is\s+expected\s+to|had|has)\s+(?:\w+\s+){0,3}?"
    r"(?:higher|greater|faster)\s+citation)",
    re.IGNORECASE,
)
DECISIONS = (VERB_FIRST, LABEL_FIRST, PROJECT_FIRST)
# Verdict-like phrases too loose to decide on but enough to show a lean: "Project 2 wins",
# "Project 1 would be better", "the edge goes to Project 2", "favours Project 1".
LEAN_PROJECT_FIRST = re.compile(
    REF + ASIDE + r",?\s+(?:clearly\s+|likely\s+|probably\s+|still\s+)?"
    r"(?:wins|would\s+win|will\s+win|is\s+the\s+winner|comes?\s+out\s+(?:ahead|on\s+top)|"
    r"has\s+the\s+(?:edge|advantage)|edges\s+out|takes\s+it|"
    r"(?:is|would\s+be|will\s+be|seems|looks|might\s+be|could\s+be)\s+(?:clearly\s+|likely\s+)?"
    r"(?:the\s+)?(?:better|stronger|superior|preferable|winner|more\s+promising|"
    r"safer\s+bet|best|stronger\s+bet|better\s+bet))\b",
    re.IGNORECASE,
)
LEAN_VERB_FIRST = re.compile(
    r"\b(?:favou?rs?|favou?ring|edge\s+(?:goes\s+)?to|nod\s+(?:goes\s+)?to|lean(?:s|ing)?\s+"
    r"(?:towards?|to))\s+" + REF,
    re.IGNORECASE,
)
LEANS = (*DECISIONS, LEAN_PROJECT_FIRST, LEAN_VERB_FIRST)
# A decision inside a conditional, negated or hedged sentence is not a decision.
HEDGE = re.compile(
    r"\b(?:if|unless|whichever|depending|not|never|rather\s+than|instead\s+of|"
    r"yes|no|otherwise|else|when|for\s+an?|you\s+need)\b|n't|→|->|•",
    re.IGNORECASE,
)
# A parenthesis describing the project ("Project 1 (ReMax: no value model)") is no hedge unless
# it makes the pick depend on a choice ("Project 1 (if you have compute)").
CHOICE_CONDITION = re.compile(r"\b(?:if|unless|whichever|depending|otherwise|else)\b", re.I)
PARENTHESIS = re.compile(r"\([^()]*\)")
COMPARATIVE = re.compile(r"\b(?:than|over)\b", re.IGNORECASE)
ANY_REF = re.compile(REF, re.IGNORECASE)
MARKDOWN = re.compile(r"[*_`#>|]")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
FINAL_LINE = re.compile(r"^\W*" + REF + r"\W*$", re.IGNORECASE)
EXTRACTOR_TOKEN = re.compile(r"PROJECT\s*([12])(?!\d)")
# Headline verdicts (see the module docstring): a line opening with a label verdict, a label
# line alone (the decision on the next line is a headline), a line opening in bold.
LINE_LEAD = re.compile(r"^[\s*_#>|`\-–—•]*(?:\d+[.)]\s*)?", re.MULTILINE)
LABEL_LINE = re.compile(rf"^\W*{LABEL}\W*$", re.IGNORECASE)
BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__", re.DOTALL)
# A line opening in bold with the project itself: "**Project 2 (DAPO), and it's not close.**",
# "**Project 1.**" under a "## Verdict" header. Only a condition unmakes it (not a negation:
# "it's not close" is emphasis), and a bold sentence naming both projects is no verdict.
# The project is the whole clause: "**Project 2** is a respectable alternative" is no verdict.
BOLD_PROJECT = re.compile(r"^\W*" + REF + ASIDE + r"(?=\s*(?:[.,;:!—–\-(]|$))", re.IGNORECASE)
# "provided you can execute it at scale" or "assuming ..." qualifies a single pick: not here.
CONDITIONAL = re.compile(
    r"\b(?:if|unless|whichever|depending|otherwise|else|when|while|although)\b|\?",
    re.IGNORECASE,
)
BULLET = re.compile(r"^\s*(?:[-*+•]\s|\d+[.)]\s)")
CHOICE_KEYS = (
    "choice", "answer", "final_answer", "recommendation", "recommended_project", "pick",
    "decision", "winner", "prediction", "project", "selected_project", "preferred_project",
)  # fmt: skip
ORDINALS = {"first": 1, "second": 2}
