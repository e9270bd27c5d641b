"""Small ExpDesign and PaperWeakness demo sets written by the project (not upstream data).

The papers are invented; their experiment lists, explanations and reviewer weaknesses were
written for the demo and the tests. They are saved in the upstream folder layout
(``Experiment_Design/<id>/data_text.json``, ``Paper_Weakness/ICLR_2023/<id>/data_text.json``),
so the demo exercises the same loader as real data.

A small EqInfer demo set written by the project (not upstream data), in the AAAR format.

Each instance is a textbook ML equation in a short, paper-like context, with three wrong
variants of the kind the AAAR-1.0 authors synthesised (a flipped sign, a wrong normaliser, a
swapped operand). The correct equation sits at different letters across instances.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from research_taste_evals.aaar.dataset.expdesign import (
    EXPDESIGN_FOLDER,
    EXPERIMENTS_KEY,
    EXPLANATIONS_KEY,
)
from research_taste_evals.aaar.dataset.paper_folders import RECORD_FILE
from research_taste_evals.aaar.dataset.paper_weakness import WEAKNESS_FOLDER
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.embeddings import OFFLINE_MODEL


def _expdesign(
    paper_id: str, lines: list[str], experiments: list[str], explanations: list[str]
) -> dict[str, Any]:
    return {
        "id": paper_id,
        "input": [line + "\n" for line in lines],
        "output": {EXPERIMENTS_KEY: experiments, EXPLANATIONS_KEY: explanations},
    }


DEMO_EXPDESIGN: list[dict[str, Any]] = [
    _expdesign(
        "demo.0001",
        [
            "\\title{Retrieval-Augmented Small Language Models for Code Completion}",
            "\\begin{abstract}",
            "Large code models complete code well but are expensive to serve. We show that a small "
            "language model that retrieves similar snippets from the user's own repository can "
            "match a model ten times larger on repository-level completion.",
            "\\end{abstract}",
            "\\section{Introduction}",
            "Code completion inside a repository depends on project-specific identifiers and "
            "conventions that a general model has never seen. We propose RepoRAG, which indexes "
            "the repository with a lightweight BM25 index, retrieves the five most similar code "
            "windows for the cursor position and prepends them to the prompt of a 350M-parameter "
            "model. Our contributions are a retrieval scheme aware of import graphs and a "
            "training recipe that teaches the small model to copy from retrieved context.",
            "\\section{Method}",
            "Given the code before the cursor, we form a query from the last 20 lines, score every "
            "window of the repository with BM25, re-rank the candidates by import-graph distance "
            "and insert the top windows as comments. During fine-tuning we mix examples with and "
            "without useful retrieved context so that the model learns when to copy.",
        ],
        [
            "Repository-level completion accuracy: compare RepoRAG with the same small model "
            "without retrieval and with a ten times larger model on a repository-level "
            "completion benchmark, reporting exact match and edit similarity.",
            "Ablation of import-graph re-ranking: remove the import-graph re-ranking and retrieve "
            "with BM25 alone to measure its contribution.",
            "Number of retrieved windows: vary the number of retrieved windows from one to ten "
            "and report accuracy and latency.",
            "Serving cost: measure latency and memory of RepoRAG against the larger model on the "
            "same hardware.",
        ],
        [
            "To show that retrieval lets a small model close the gap to a much larger model, "
            "which is the paper's main claim.",
            "To verify that the import-graph re-ranking, one of the two contributions, actually "
            "improves retrieval quality.",
            "To find how much retrieved context the small model can use before noise hurts it.",
            "To support the motivation that the method is cheaper to serve than a large model.",
        ],
    ),
    _expdesign(
        "demo.0002",
        [
            "\\title{Curriculum Data Pruning for Low-Resource Speech Recognition}",
            "\\begin{abstract}",
            "Training speech recognisers on noisy crowd-sourced audio wastes compute on "
            "mislabelled clips. We prune the training set with a curriculum that drops clips "
            "whose loss stays high after warm-up, and show better word error rates with 40\\% "
            "less data in five low-resource languages.",
            "\\end{abstract}",
            "\\section{Introduction}",
            "Crowd-sourced corpora such as Common Voice contain misaligned transcripts, silent "
            "clips and code-switching. Existing filters rely on a pretrained recogniser, which "
            "is unavailable for low-resource languages. Our pruning uses only the model being "
            "trained: after a warm-up epoch we track each clip's loss and remove the clips in "
            "the top quantile, repeating the pruning every epoch with a growing quantile.",
        ],
        [
            "Word error rate with and without pruning: train the same recogniser on the full "
            "and the pruned training sets in five low-resource languages and compare test word "
            "error rates.",
            "Comparison with other data filters: compare the loss-based pruning with random "
            "pruning and with filtering by a pretrained recogniser's confidence.",
            "Pruning schedule: vary the quantile schedule and the warm-up length.",
            "Analysis of pruned clips: manually inspect a sample of pruned clips and categorise "
            "them into misaligned, silent, code-switched and clean.",
        ],
        [
            "To demonstrate the central claim that pruning improves accuracy while using less "
            "data.",
            "To show that the gain comes from choosing the right clips, not from using less data "
            "in general, and that no pretrained recogniser is needed.",
            "To understand how sensitive the method is to its two hyperparameters.",
            "To check that the method removes noisy clips rather than hard but clean ones.",
        ],
    ),
    _expdesign(
        "demo.0003",
        [
            "\\title{Contrastive Adapters for Cross-Lingual Named Entity Recognition}",
            "\\begin{abstract}",
            "We add small adapters to a multilingual encoder and train them with a contrastive "
            "loss that pulls together entity mentions aligned across languages. With English "
            "labels only, the adapters improve zero-shot NER in twelve languages.",
            "\\end{abstract}",
            "\\section{Introduction}",
            "Zero-shot cross-lingual transfer fine-tunes a multilingual encoder on English and "
            "applies it to other languages, but entity representations drift apart across "
            "scripts. We insert adapters after every layer and align mentions from a parallel "
            "corpus with an InfoNCE loss while the encoder stays frozen.",
        ],
        [
            "Zero-shot transfer results: train on English NER data and evaluate F1 in twelve "
            "target languages against full fine-tuning and plain adapters.",
            "Effect of the contrastive loss: train the adapters without the contrastive loss "
            "and compare.",
            "Representation analysis: visualise entity representations of several languages "
            "with t-SNE before and after alignment.",
        ],
        [
            "To prove that the contrastive adapters transfer better than the standard approaches.",
            "To isolate the contribution of the alignment loss from that of the adapters "
            "themselves.",
            "To give evidence that the loss brings entity representations of different "
            "languages closer, which is the paper's explanation of the gains.",
        ],
    ),
]


def _weakness(
    paper_id: str,
    title: str,
    abstract: str,
    sections: list[tuple[str, str]],
    reviews: list[list[str]],
) -> dict[str, Any]:
    return {
        "ID": paper_id,
        "track": "demo",
        "input": {
            "title": title,
            "abstractText": abstract,
            "sections": [{"heading": heading, "text": text} for heading, text in sections],
        },
        "output": reviews,
    }


DEMO_WEAKNESS: list[dict[str, Any]] = [
    _weakness(
        "demo_w01",
        "Sparse Mixture Routing Improves Long-Context Transformers",
        "We route tokens of long documents to a few experts chosen by a learned hash and report "
        "lower perplexity on book-length language modelling at equal compute.",
        [
            ("1 Introduction", "Long-context language models spend most compute on attention."),
            ("2 Method", "Each token is routed to two of sixty-four experts by a learned hash."),
            ("3 Results", "On PG-19 the routed model reaches 10.1 perplexity against 10.9."),
        ],
        [
            [
                "The comparison uses only one dataset, PG-19; other long-context benchmarks are "
                "needed.",
                "The learned hash is not compared with the top-k router used by prior mixture "
                "of experts models.",
            ],
            [
                "No downstream evaluation is reported, only perplexity.",
                "The paper does not report wall-clock time, so the equal-compute claim is hard to "
                "check.",
            ],
            ["Load balancing across experts is not analysed."],
        ],
    ),
    _weakness(
        "demo_w02",
        "Uncertainty-Aware Reward Models for Preference Learning",
        "We train an ensemble of reward models and penalise the policy where the ensemble "
        "disagrees, reducing reward hacking in RLHF on summarisation.",
        [
            ("1 Introduction", "Reward models are over-optimised by the policy during RLHF."),
            ("2 Method", "We subtract the ensemble's standard deviation from the mean reward."),
            ("3 Experiments", "Human raters prefer our summaries 58% of the time."),
        ],
        [
            [
                "The ensemble multiplies the training cost by five, which is not discussed.",
                "Only summarisation is studied; dialogue or coding tasks would strengthen the "
                "claims.",
            ],
            [
                "The human evaluation uses few raters and no agreement statistics are given.",
                "The penalty coefficient is tuned on the test set.",
            ],
            [],
        ],
    ),
    _weakness(
        "demo_w03",
        "Self-Supervised Depth Estimation from Event Cameras",
        "We learn monocular depth from event streams without ground truth by enforcing "
        "photometric consistency between reconstructed frames.",
        [
            ("1 Introduction", "Event cameras capture high dynamic range scenes at low latency."),
            ("2 Method", "Frames are reconstructed from events and warped with predicted depth."),
            ("3 Evaluation", "On MVSEC our absolute relative error is 0.31 versus 0.36."),
        ],
        [
            [
                "The method depends on frame reconstruction, whose errors are not analysed.",
                "Night-time sequences, where event cameras matter most, are not evaluated "
                "separately.",
            ],
            [
                "Comparison with supervised event-based depth methods is missing.",
                "The writing of the method section is hard to follow.",
            ],
            ["The improvement on MVSEC is small and no variance over seeds is reported."],
        ],
    ),
    _weakness(
        "demo_w04",
        "Graph Neural Networks for Crop Yield Forecasting",
        "We model farms as nodes of a graph connected by shared weather stations and predict "
        "county-level crop yield with a graph neural network.",
        [
            ("1 Introduction", "Yield forecasts guide food security policy."),
            ("2 Data", "We use ten years of county yields and daily weather in the US Midwest."),
            ("3 Results", "The GNN lowers RMSE by 8% over gradient boosted trees."),
        ],
        [
            [
                "The temporal split is unclear; data leakage between years seems possible.",
                "The graph construction from weather stations is ad hoc and not ablated.",
            ],
            [
                "Only the US Midwest is studied, so generalisation to other regions is unknown.",
                "No comparison with recent deep learning forecasters is provided.",
            ],
            [
                "The paper does not explain which features drive the predictions.",
                "The 8% improvement is reported without confidence intervals.",
            ],
        ],
    ),
]


def _write_records(root: Path, folder: str, records: list[dict[str, Any]], key: str) -> Path:
    for record in records:
        paper_dir = root.joinpath(*Path(folder).parts, record[key])
        paper_dir.mkdir(parents=True, exist_ok=True)
        (paper_dir / RECORD_FILE).write_text(json.dumps(record, indent=2), encoding="utf-8")
    return root


def write_demo_expdesign(directory: Path) -> Path:
    """Write the ExpDesign demo as ``directory/Experiment_Design/<id>/data_text.json``.

    Returns ``directory``.
    """
    return _write_records(directory, EXPDESIGN_FOLDER, DEMO_EXPDESIGN, "id")


def write_demo_weakness(directory: Path) -> Path:
    """Write the PaperWeakness demo as ``directory/Paper_Weakness/ICLR_2023/<id>/data_text.json``.

    Returns ``directory``.
    """
    return _write_records(directory, WEAKNESS_FOLDER, DEMO_WEAKNESS, "ID")


DEMO_EQINFER: list[dict[str, Any]] = [
    {
        "context_before": (
            "We follow the Transformer and compute attention from queries, keys and values. "
            "Given a query matrix $Q$, a key matrix $K$ and a value matrix $V$, with keys of "
            "dimension $d_k$, the scaled dot-product attention is"
        ),
        "context_after": (
            "where the scaling factor $\\sqrt{d_k}$ keeps the dot products from growing with the "
            "dimension and pushing the softmax into regions with vanishing gradients."
        ),
        "options_list": [
            "\\mathrm{Attention}(Q,K,V)=\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V",
            "\\mathrm{Attention}(Q,K,V)=\\mathrm{softmax}\\left(\\frac{QK^\\top}{d_k}\\right)V",
            "\\mathrm{Attention}(Q,K,V)=\\mathrm{softmax}\\left(\\frac{QV^\\top}{\\sqrt{d_k}}\\right)K",
            "\\mathrm{Attention}(Q,K,V)=\\mathrm{softmax}\\left(\\sqrt{d_k}\\,QK^\\top\\right)V",
        ],
        "answer": "A",
    },
    {
        "context_before": (
            "The classifier outputs a distribution $p_\\theta(y \\mid x)$ over $C$ classes. We "
            "train it on $N$ labelled examples $(x_i, y_i)$ by minimising the average negative "
            "log-likelihood of the gold labels,"
        ),
        "context_after": (
            "which is the cross-entropy between the one-hot label distribution and the model's "
            "prediction, averaged over the training set."
        ),
        "options_list": [
            "\\mathcal{L}(\\theta)=\\frac{1}{N}\\sum_{i=1}^{N}\\log p_\\theta(y_i \\mid x_i)",
            "\\mathcal{L}(\\theta)=-\\frac{1}{N}\\sum_{i=1}^{N}\\log p_\\theta(y_i \\mid x_i)",
            "\\mathcal{L}(\\theta)=-\\frac{1}{C}\\sum_{i=1}^{N}\\log p_\\theta(y_i \\mid x_i)",
            "\\mathcal{L}(\\theta)=-\\frac{1}{N}\\sum_{i=1}^{N}p_\\theta(y_i \\mid x_i)",
        ],
        "answer": "B",
    },
    {
        "context_before": (
            "To stabilise training we normalise each hidden vector $h \\in \\mathbb{R}^d$ over "
            "its features. With mean $\\mu = \\frac{1}{d}\\sum_j h_j$, variance "
            "$\\sigma^2 = \\frac{1}{d}\\sum_j (h_j-\\mu)^2$, a small constant $\\epsilon$ and "
            "learned gain $\\gamma$ and bias $\\beta$, layer normalisation computes"
        ),
        "context_after": (
            "so that every token representation has zero mean and unit variance before the "
            "learned affine transform is applied."
        ),
        "options_list": [
            "\\mathrm{LN}(h)=\\gamma\\odot\\frac{h-\\mu}{\\sigma^2+\\epsilon}+\\beta",
            "\\mathrm{LN}(h)=\\beta\\odot\\frac{h-\\mu}{\\sqrt{\\sigma^2+\\epsilon}}+\\gamma",
            "\\mathrm{LN}(h)=\\gamma\\odot\\frac{h-\\mu}{\\sqrt{\\sigma^2+\\epsilon}}+\\beta",
            "\\mathrm{LN}(h)=\\gamma\\odot\\frac{h+\\mu}{\\sqrt{\\sigma^2+\\epsilon}}+\\beta",
        ],
        "answer": "C",
    },
    {
        "context_before": (
            "We regularise the policy $\\pi_\\theta$ towards the reference model $\\pi_{ref}$. "
            "For discrete distributions $P$ and $Q$ over outcomes $x$, the Kullback-Leibler "
            "divergence used in our objective is"
        ),
        "context_after": (
            "which is non-negative and equals zero only when the two distributions coincide; "
            "note that it is not symmetric in its arguments."
        ),
        "options_list": [
            "D_{\\mathrm{KL}}(P\\,\\|\\,Q)=\\sum_x P(x)\\log\\frac{Q(x)}{P(x)}",
            "D_{\\mathrm{KL}}(P\\,\\|\\,Q)=\\sum_x Q(x)\\log P(x)",
            "D_{\\mathrm{KL}}(P\\,\\|\\,Q)=\\sum_x \\log\\frac{P(x)}{Q(x)}",
            "D_{\\mathrm{KL}}(P\\,\\|\\,Q)=\\sum_x P(x)\\log\\frac{P(x)}{Q(x)}",
        ],
        "answer": "D",
    },
    {
        "context_before": (
            "Parameters are updated with Adam. At step $t$, with gradient $g_t$, decay rates "
            "$\\beta_1, \\beta_2$, bias-corrected moment estimates $\\hat m_t$ and $\\hat v_t$, "
            "learning rate $\\eta$ and a small $\\epsilon$ for numerical stability, the update is"
        ),
        "context_after": (
            "We use $\\beta_1 = 0.9$, $\\beta_2 = 0.999$ and $\\epsilon = 10^{-8}$ throughout, and "
            "a linear warm-up of the learning rate over the first 4,000 steps."
        ),
        "options_list": [
            "\\theta_{t}=\\theta_{t-1}-\\eta\\,\\frac{\\hat m_t}{\\sqrt{\\hat v_t}+\\epsilon}",
            "\\theta_{t}=\\theta_{t-1}+\\eta\\,\\frac{\\hat m_t}{\\sqrt{\\hat v_t}+\\epsilon}",
            "\\theta_{t}=\\theta_{t-1}-\\eta\\,\\frac{\\hat v_t}{\\sqrt{\\hat m_t}+\\epsilon}",
            "\\theta_{t}=\\theta_{t-1}-\\eta\\,\\frac{\\hat m_t}{\\hat v_t+\\epsilon}",
        ],
        "answer": "A",
    },
    {
        "context_before": (
            "For contrastive pre-training we pair each anchor embedding $z_i$ with its positive "
            "$z_i^+$ and treat the other $N-1$ positives in the batch as negatives. With cosine "
            "similarity $s(\\cdot,\\cdot)$ and temperature $\\tau$, the InfoNCE loss for anchor "
            "$i$ is"
        ),
        "context_after": (
            "A lower temperature sharpens the distribution over candidates and puts more weight "
            "on hard negatives."
        ),
        "options_list": [
            "\\ell_i=-\\log\\frac{\\exp(s(z_i,z_i^+)\\tau)}{\\sum_{j=1}^{N}\\exp(s(z_i,z_j^+)\\tau)}",
            "\\ell_i=\\log\\frac{\\exp(s(z_i,z_i^+)/\\tau)}{\\sum_{j=1}^{N}\\exp(s(z_i,z_j^+)/\\tau)}",
            "\\ell_i=-\\log\\frac{\\exp(s(z_i,z_i^+)/\\tau)}{\\sum_{j=1}^{N}\\exp(s(z_i,z_j^+)/\\tau)}",
            "\\ell_i=-\\log\\frac{\\sum_{j=1}^{N}\\exp(s(z_i,z_j^+)/\\tau)}{\\exp(s(z_i,z_i^+)/\\tau)}",
        ],
        "answer": "C",
    },
]


def write_demo_eqinfer(directory: Path) -> Path:
    """Write the demo set as ``equation.demo.json`` in ``directory``; returns the file."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "equation.demo.json"
    path.write_text(json.dumps(DEMO_EQINFER, indent=2), encoding="utf-8")
    return path


# What ``research-taste demo`` runs for this family (collected by cli/demo.py).
DEMO_RUNS: tuple[DemoRun, ...] = (
    DemoRun(
        name="eqinfer",
        build=lambda data_dir: eqinfer(data_path=str(write_demo_eqinfer(data_dir / "eqinfer"))),
        model="baseline/all-positive",
        data_arg="data_path",
        write_data=write_demo_eqinfer,
    ),
    # The embedding metrics use the packaged MiniLM explicitly (recorded in the log metadata):
    # the paper's all-mpnet-base-v2 needs the Hub, so these are not paper numbers.
    DemoRun(
        name="expdesign",
        build=lambda data_dir: expdesign(
            data_path=str(write_demo_expdesign(data_dir / "expdesign")),
            embedding_model=OFFLINE_MODEL,
        ),
        model="baseline/copy-input",
        model_roles={"grader": "baseline/word-overlap-judge"},
        data_arg="data_path",
        write_data=write_demo_expdesign,
        # -T data_path=demo scores with it too unless the user names a model (offline).
        demo_arguments={"embedding_model": OFFLINE_MODEL},
    ),
    DemoRun(
        name="paper_weakness",
        build=lambda data_dir: paper_weakness(
            data_path=str(write_demo_weakness(data_dir / "paper_weakness")),
            embedding_model=OFFLINE_MODEL,
            itf_idf_model=OFFLINE_MODEL,
        ),
        model="baseline/generic-weaknesses",
        data_arg="data_path",
        write_data=write_demo_weakness,
        demo_arguments={"embedding_model": OFFLINE_MODEL, "itf_idf_model": OFFLINE_MODEL},
    ),
)
