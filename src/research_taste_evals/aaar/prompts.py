"""AAAR-1.0 prompts, verbatim from the release code.

Source: RenzeLou/AAAR-1.0 @ be839d5d, ``scripts/prompt_templates.py`` (MIT). Templates are
filled with :func:`research_taste_evals.core.text.fill_template`, which leaves LaTeX braces alone.
"""

# EqInfer, binary setting: class Equation_eval_binary.
EQINFER_SYSTEM = (
    "You are an expert in Machine Learning and Natural Language Processing (NLP)."
    "Your responsibility is to help the user discover the correct latex equations."
)

EQINFER_BINARY_PROMPT = (
    "### Task:\n"
    "You are given the latex source code of the context before and after an equation in an NLP "
    "paper, while this equation is unknown. Now, given a candidate equation, you have to decide "
    "whether this candidate equation is correct or not (based on the surrounding context).\n\n"
    "### Requirements:\n"
    "Only respond with either 0 (wrong equation) or 1 (correct equation). "
    "Avoid any explanations.\n\n"
    "### Context Before:\n"
    "```\n"
    "{context_before}\n"
    "```\n\n"
    "### Context After:\n"
    "```\n"
    "{context_after}\n"
    "```\n\n"
    "### Candidate Equation:\n"
    "{candidate}\n\n"
    "### Your Answer:\n"
)

# EqInfer, multiple-choice options block, as the released data writes it
# (scripts/subtask1_equation_rewriting.py builds ``options``): "(A). `eq`;" lines joined by
# newlines, the last one without the semicolon.
EQINFER_OPTION_LINE = "({letter}). `{option}`"
EQINFER_OPTION_SEPARATOR = ";\n"

# EqInfer, multiple-choice setting: class Equation_eval.
EQINFER_MC_SYSTEM = (
    "You are an expert in Machine Learning and Natural Language Processing (NLP)."
    "Your responsibility is to help the user write the correct latex equations."
)

EQINFER_MC_PROMPT = (
    "### Task:\n"
    "You are given the latex source code of the context before and after an equation in an NLP "
    "paper, while this equation is masked. Your task is to select a correct equation out of four "
    "options (A, B ,C ,D).\n\n"
    "### Requirements:\n"
    "Only provide the option ID (either A, B, C, or D). Avoid any explanations.\n\n"
    "### Context Before:\n"
    "```\n"
    "{context_before}\n"
    "```\n\n"
    "### Context After:\n"
    "```\n"
    "{context_after}\n"
    "```\n\n"
    "### Options:\n"
    "{options}\n\n"
    "### Your Answer:\n"
)


# ---------------------------------------------------------------------------------------------
# ExpDesign and PaperWeakness. Source: RenzeLou/AAAR-1.0 ``scripts/prompt_templates.py`` (MIT),
# the version holding Exp_eval, Exp_explanation_eval(_v2), Exp_entailment and Weakness_eval.
# Every template is sent as [system, user]; the release code fills them with ``str.format_map``,
# we with ``fill_template`` (same text for these templates: none holds a literal brace).

# ExpDesign step 1, experiment list: class Exp_eval.
EXPDESIGN_SYSTEM = (
    "You are an expert in Machine Learning and Natural Language Processing (NLP). "
    "Your responsibility is to help the user design experiments and develop new ideas."
)

EXPDESIGN_PROMPT = (
    "You are partially given an NLP paper (in latex), including some useful sections (e.g., "
    "'abstract' and 'introduction') having some basic introductions to the research of this "
    "paper, where all the 'experiment' related sections are deleted.\n\n"
    "Please first help me carefully read these sections and try to understand the motivations of "
    "this research, such as 'what the authors are trying to propose/demonstrate?' and 'what are "
    "the main contributions/differences of this paper from others?'\n\n"
    "Then, based on your in-depth understanding of this paper, imagine that you are the authors "
    "of this paper; what experiments do you have to conduct to prove your research? Namely, you "
    "have to **recover the deleted experiments** by providing me with **a list of experiment "
    "ideas**, where the list briefly summarizes the experiments the authors should conduct.\n\n"
    "Here is an example:\n"
    "```\n"
    "1. Cross-label generalisation comparison with the previous works. Since this work proposes "
    "a new method for open-domain relation type discovery, the authors should test this idea on "
    "some widely used benchmarks, such as FewRel.\n"
    "2. Semantic representation visualisation on the test set. The authors should conduct "
    "further visualisation by using some dimension-reduce methods (e.g., t-SNE) on the widely "
    "adopted cross-label test set (e.g., FewRel).\n"
    "3. and so on ...\n"
    "```\n\n"
    "Here is the target NLP paper (partial content):\n"
    "```\n"
    "{context_input}\n"
    "```\n\n"
    "Now, based on this paper, give me a list of experiments the author has to do. Please only "
    "give me the list, without any other words.\n\n"
    "### Your Experiment List:\n"
    "```\n"
)

# ExpDesign step 2, "whole_list" mode: class Exp_explanation_eval (all experiments at once).
EXPLANATION_LIST_SYSTEM = (
    "You are an expert in Machine Learning and Natural Language Processing (NLP). "
    "Your responsibility is to help the user undertand a paper."
)

EXPLANATION_LIST_PROMPT = (
    "You are partially given an NLP paper (in latex), including some useful sections (e.g., "
    "'abstract' and 'introduction') having some basic introductions to this research, where all "
    "the 'experiment' related sections are deleted.\n\n"
    "Meanwhile, you are also given a list of experiments that try to predict the missed "
    "experiments in this paper.\n\n"
    "Now, imagine the experiment list you created; you have to explain **why you suggested these "
    "experiments**.\n\n"
    "Here is an example experiment list:\n"
    "```\n"
    "1. Cross-label generalisation comparison with the previous works. Since this work proposes "
    "a new method for open-domain relation type discovery, the authors should test this idea on "
    "some widely used benchmark, such as FewRel.\n"
    "2. Semantic representation visualisation on the test set. The authors should conduct "
    "further visualisation by using some dimension-reduce methods (e.g., t-SNE) on the widely "
    "adopted cross-label test set (e.g., FewRel).\n"
    "```\n"
    "Here is the example corresponding explanation list:\n"
    "```\n"
    "1. To support the effectiveness of deep metric learning compared with the unsupervised "
    "algorithm.\n"
    "2. To demonstrate the explainability and robustness of the proposed semi-supervised "
    "algorithm.\n"
    "```\n\n"
    "Now, help me look at the following paper:\n"
    "### Paper:\n"
    "```\n"
    "{context_input}\n"
    "```\n\n"
    "### Experiment List:\n"
    "```\n"
    "{experiment_list}\n"
    "```\n\n"
    "Please give me your explanation list, which should be the same length as the 'Experiment "
    "List'; the items of the two lists correspond one-to-one. Only give me the list without any "
    "other useless words.\n"
    "### Explanation List:\n"
)

# ExpDesign step 2, "one_by_one" mode (the paper's main table): class Exp_explanation_eval_v2.
# The first example's closing fence is missing upstream too; kept verbatim.
EXPLANATION_ONE_SYSTEM = (
    "You are an expert in Machine Learning and Natural Language Processing (NLP). "
    "Your responsibility is to help the user understand a paper."
)

EXPLANATION_ONE_PROMPT = (
    "You are partially given an NLP paper (in latex), including some useful sections (e.g., "
    "'abstract' and 'introduction') having some basic introductions to this research, where all "
    "the 'experiment' related sections are deleted.\n\n"
    "Meanwhile, you are also given an experiment idea that tries to predict one of the missed "
    "experiments in this paper.\n\n"
    "Now, imagine the experiment idea you created; you have to explain **why you suggested this "
    "experiment**.\n\n"
    "Here is an example experiment idea:\n"
    "```\n"
    "Cross-label generalisation comparison with the previous works. Since this work proposes a "
    "new method for open-domain relation type discovery, the authors should test this idea on "
    "some widely used benchmark, such as FewRel.\n"
    "```\n"
    "Here is the example corresponding explanation:\n"
    "```\n"
    "To support the effectiveness of deep metric learning compared with the unsupervised "
    "algorithm.\n\n"
    "Here is another example experiment idea:\n"
    "```\n"
    "Semantic representation visualisation on the test set. The authors should conduct further "
    "visualisation by using some dimension-reduce methods (e.g., t-SNE) on the widely adopted "
    "cross-label test set (e.g., FewRel).\n"
    "```\n"
    "And the corresponding explanation:\n"
    "```\n"
    "To demonstrate the explainability and robustness of the proposed semi-supervised "
    "algorithm.\n"
    "```\n\n"
    "Now, help me look at the following paper:\n"
    "### Paper:\n"
    "```\n"
    "{context_input}\n"
    "```\n\n"
    "### Experiment Idea:\n"
    "```\n"
    "{experiment_list}\n"
    "```\n\n"
    "Please give me your explanation w.r.t. this suggested experiment. Only give me the "
    "explanation without any other useless words.\n"
    "### Explanation:\n"
)


# PaperWeakness: class Weakness_eval. "'1. XXX\\n2. XXX'" is a literal backslash-n upstream too.
WEAKNESS_SYSTEM = (
    "You are an expert in Machine Learning and Natural Language Processing (NLP). "
    "Your responsibility is to help the user review a paper."
)

WEAKNESS_PROMPT = (
    "You are given an NLP paper, along with its figure illustrations. Imagine you are a machine "
    "learning expert with rich research experience. Please carefully review this paper and "
    "identify the weaknesses of this research.\n\n"
    "Here is the paper (it might be in partial content):\n"
    "```\n"
    "{context_input}\n"
    "```\n\n"
    "Now, based on the provided context, give me a list of weaknesses of this research paper "
    "(such as '1. XXX\\n2. XXX', one point per line).\n"
    "Note that if the given context is irrelevant to research, such as it is talking about "
    "'acknowledgement', just generate 'No research content'.\n"
    "Please either give me the weakness list of this research paper or generate 'No research "
    "content' to clarify this is not a research paper, without any other words.\n\n"
    "### Your Answer:\n"
)

# The release code's list extractor (``extract_content`` of Exp_eval, Exp_explanation_eval and
# Weakness_eval): every match of this pattern in the stripped answer is one item, number kept.
# It is greedy to the end of the line and matches anywhere ("accuracy 0.5 drops" -> "0.5 drops").
UPSTREAM_LIST_ITEM = r"\d+\..*"
# The judge's parser (Exp_entailment(_v2).extract_content): the first 0 or 1 anywhere.
UPSTREAM_JUDGE_DIGIT = r"[01]"
# Leading item number, removed before an oracle experiment is explained one by one and
# rewritten when per-piece weakness lists are concatenated.
UPSTREAM_ITEM_NUMBER = r"^\d+\."
