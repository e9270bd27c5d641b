"""The run's ``--cache`` with a scope of the package's own, where one prompt is asked on purpose
more than once (CONTRIBUTING.md, "The runtime layer").

Inspect applies the run's cache policy to every ``Model.generate`` that passes no ``cache``: the
evaluated model's config carries it, and a role model inherits it at each call
(``inspect_ai/model/_model.py``, ``Model._resolve_config``, in 0.3.264 and 0.3.285 alike). Its
cache key holds the model, the input, the config, the epoch and the policy's ``scopes``, so two
calls of one prompt meant to be two answers (a panel's repeats, a re-ask of an unparsed answer,
a task's repeated runs) would read one entry. :func:`scoped_cache` gives such a call the run's
own policy with a scope added, and False when the run caches nothing: a run without
``--cache`` writes nothing to Inspect's cache (tests/core/test_cache_scope.py).
"""

from __future__ import annotations

from inspect_ai.model import CachePolicy, get_model


def run_cache() -> bool | CachePolicy:
    """The run's ``--cache``, as the evaluated model's config holds it (Inspect makes the
    evaluated model from its name with the eval's config). False outside an eval."""
    try:
        return get_model().config.cache or False
    except ValueError:
        return False


def scoped_cache(key: str, value: str) -> bool | CachePolicy:
    """The run's cache policy with the scope ``key: value`` added; False when the run has none."""
    cache = run_cache()
    if cache is False:
        return False
    policy = CachePolicy() if cache is True else cache
    return policy.model_copy(update={"scopes": {**policy.scopes, key: value}})
