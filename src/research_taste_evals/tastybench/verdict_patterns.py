"""The phrase patterns of the TastyBench answer contract (``parsing.py`` reads with them).

A project reference (``REF``: "Project 1", "Idea (2)", "the second project"), the decision
phrases (verb first, label first, project first), the looser verdict-like leans, the hedges
that unmake a decision, and the line shapes of a headline verdict (label lines, bold lines).
The shapes are listed in the README's "Answer contract"; tests/tastybench/test_parsing_contract.py
holds them.
"""

from __future__ import annotations

import re

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
