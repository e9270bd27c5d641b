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

# ExpDesign En-Precision / En-Recall judge (paper Section 4, "Metrics": LLM-as-judge entailment).
# The released metric script, scripts/calculate_metrics_subtask2_exp_entailment.v2.py, sends
# class Exp_entailment_v2 (scripts/prompt_templates.py, line 484): P1 = one experiment, P2 = the
# other side's whole list joined by single spaces. Exp_entailment (v1, pairwise wording) is kept
# as the ``judge_prompt="v1"`` option. Both share this system message.
ENTAILMENT_SYSTEM = (
    "You are an expert in Machine Learning and Natural Language Processing (NLP). "
    "Your responsibility is to help the user check some ML experiments."
)

ENTAILMENT_V1_EXAMPLES = (
    "### Example 1:\n"
    "## P1: 'Parameter/Performance trade-off: The authors should consider different adapter "
    "sizes and compare to two baselines: (i) Fine-tuning of only the top k layers of the base "
    "model. (ii) Tuning only the layer normalization parameters.'\n"
    "## P2: 'Efficiency tests: The authors have to evaluate the efficiency of the model in terms "
    "of the number of parameters increased per task and its correlation with performance "
    "degradation.'\n"
    "## Decision: 1\n"
    "## Explanation: P1 and P2 are the same experiments, as both of them mention the key idea "
    "--- 'correlation between model parameter and performance'. Although P1 are more "
    "detailed.\n\n"
    "### Example 2:\n"
    "## P1: 'Evaluating adapters on more types of tasks: The authors should evaluate adapters on "
    "more types of tasks. For example, if previous tasks are text classification tasks, the "
    "authors should also evaluate adapters on another type of task such as question "
    "answering.'\n"
    "## P2: 'Evaluate model on continual learning scenario: The authors should evaluate the "
    "model's capability in a continual learning setup to ensure that the model is actually "
    "capable of handling an endless stream of tasks without forgetting the previous ones.'\n"
    "## Decision: 1\n"
    "## Explanation: Though P1  doesn't explicitly mention 'continual learning', its underlying "
    "target is the continual learning scenario, which is exactly the same as P2.\n\n"
    "### Example 3:\n"
    "## P1: 'Effect of initialization scale: The authors should report the performance of the "
    "model using adapters with different initial weight magnitudes. For example, test standard "
    "deviations in a certain interval such as [10^-7, 1]'\n"
    "## P2: 'Perform ablation study: The authors need to perform an ablation study to understand "
    "the contribution of each component in the architecture (e.g., bottleneck architecture, "
    "initialization to identity function, etc.) to the final performance.'\n"
    "## Decision: 0\n"
    "## Explanation: Though both P1 and P2 mention the ablation on 'initialization', P1 focuses "
    "on 'initial weight magnitudes', while P2 only mentions 'initialization to identity "
    "function'. Essentially, they didn't share the same experiment ideas.\n\n"
)

# class Exp_entailment (v1).
ENTAILMENT_V1_PROMPT = (
    "You are given two paragraphs (P1 and P2), both of which describe a specific ML experiment. "
    "Please help me decide whether they are describing a similar experiment.\n\n"
    "Let's say if two paragraphs mention similar experiment ideas; no matter the differences in "
    "details, you can regard them as similar experiments.\n\n"
    "Please give me '1' if you think they are similar experiments, give me '0' otherwise.\n\n"
    + ENTAILMENT_V1_EXAMPLES
    + "Now, look at the following case, and give me only the decision without any explanation:\n"
    "## P1: {EXP1}\n"
    "## P2: {EXP2}\n"
    "## Decision: "
)

# class Exp_entailment_v2: "is P1 included in P2", few-shot examples A-C (double spaces and
# "wanna" as released).
ENTAILMENT_V2_EXAMPLES = (
    "### Example A:\n"
    "## P1: 'Parameter/Performance trade-off: The authors should consider different adapter "
    "sizes and compare to two baselines: (i) Fine-tuning of only the top k layers of the base "
    "model. (ii) Tuning only the layer normalization parameters.'\n"
    "## P2: '1. Adapter performance on GLUE:  The authors should evaluate the adapter "
    "performance on common and widely used benchmarks such as GLUE. They should compare the "
    "full finetuned base model as the baseline. 2. Efficiency tests: The authors have to "
    "evaluate the efficiency of the model in terms of the number of parameters increased per "
    "task and its correlation with performance degradation.'\n"
    "## Decision: 1\n"
    "## Explanation: P1 and the second experiments of P2 are the same experiments, as both of "
    "them mention the key idea --- 'correlation between model parameter and performance'. "
    "Although P1 are more detailed.\n\n"
    "### Example B:\n"
    "## P1: 'Evaluating adapters on more types of tasks: The authors should evaluate adapters on "
    "more types of tasks. For example, if previous tasks are text classification tasks, the "
    "authors should also evaluate adapters on another type of task such as question "
    "answering.'\n"
    "## P2: '1. Evaluate model on continual learning scenario: The authors should evaluate the "
    "model's capability in a continual learning setup to ensure that the model is actually "
    "capable of handling an endless stream of tasks without forgetting the previous ones. "
    "2. Performance on downstream tasks: Test adapter-based tuning on a variety of specific "
    "downstream tasks such as text classification, extractive QA, and translation to "
    "demonstrate versatility.'\n"
    "## Decision: 1\n"
    "## Explanation: Though P1  doesn't explicitly mention 'continual learning', its underlying "
    "target is the continual learning scenario, which is exactly the same as P2's two "
    "experiments wanna to test.\n\n"
    "### Example C:\n"
    "## P1: 'Effect of initialization scale: The authors should report the performance of the "
    "model using adapters with different initial weight magnitudes. For example, test standard "
    "deviations in a certain interval such as [10^-7, 1]'\n"
    "## P2: '1. Adapter insertion position analysis: Evaluate the impact of inserting adapters "
    "at different layers and positions within the Transformer model. 2. Perform ablation "
    "study: The authors need to perform an ablation study to understand the contribution of "
    "each component in the architecture (e.g., bottleneck architecture, initialization to "
    "identity function, etc.) to the final performance.'\n"
    "## Decision: 0\n"
    "## Explanation: Though both P1 and P2's second experiment mention the ablation on "
    "'initialization', P1 focuses on 'initial weight magnitudes', while P2 only mentions "
    "'initialization to identity function'. Essentially, they didn't share the same experiment "
    "ideas.\n\n"
)

ENTAILMENT_V2_PROMPT = (
    "You are given two paragraphs (P1 and P2), P1 describes a specific ML experiment and P2 is "
    "a long paragraph that concatenates multiple experiments. Please help me decide whether P1 "
    "is included in P2.\n\n"
    "If P1 is included in P2, there must be (at least) one experiment in P2 that is similar to "
    "the experiment in P1.\n\n"
    "Please give me '1' if you think P2 includes P1, give me '0' otherwise.\n\n"
    + ENTAILMENT_V2_EXAMPLES
    + "Now, look at the following case, and give me only the decision without any explanation:\n"
    "## P1: {EXP1}\n"
    "## P2: {EXP2}\n"
    "## Decision: "
)
ENTAILMENT_PROMPTS = {"v1": ENTAILMENT_V1_PROMPT, "v2": ENTAILMENT_V2_PROMPT}

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
