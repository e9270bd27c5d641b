"""The ExpDesign entailment judge's prompts (AAAR-1.0 Section 3.2), verbatim from the release code.

Source: RenzeLou/AAAR-1.0 @ be839d5d, ``scripts/prompt_templates.py`` (MIT): the system prompt
and the two versions of the few-shot entailment prompt (``v1``, ``v2``: the released
``Exp_entailment_v2``). The task prompts are aaar/prompts.py.
"""

from __future__ import annotations

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
