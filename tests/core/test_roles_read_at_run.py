"""Model roles are read only while a task runs: inside a coroutine (``solve()``, ``score()`` or
what they await), never while a task, solver or scorer is built (Inspect binds roles per task
while it runs; a task function is synchronous and cannot await).

A role is read by ``model_roles()`` and ``get_model(role=...)``, and by any synchronous
function that calls one of them (found here transitively, by name). Each read must sit in an
``async def``, or in a synchronous reader that is itself only called that way; module level,
class bodies and the decorated factories (``@task``, ``@solver``, ``@scorer``, ``@metric``) run
at build time. No exception: a task build
reads no model (a missing role is refused by the first solver step, core/roles.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "research_taste_evals"
BUILD_TIME_DECORATORS = {"task", "solver", "scorer", "metric", "task_entry"}


def _reads_directly(call: ast.Call) -> bool:
    name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
    if name == "model_roles":
        return True
    return name == "get_model" and any(k.arg == "role" for k in call.keywords)


def _called_name(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")


def _calls_by_scope(tree: ast.Module) -> list[tuple[ast.AST | None, ast.Call]]:
    """Each call with its nearest enclosing function (None: module level or class body)."""
    found: list[tuple[ast.AST | None, ast.Call]] = []

    def visit(node: ast.AST, scope: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else scope
            if isinstance(child, ast.Call):
                found.append((scope, child))
            visit(child, inner)

    visit(tree, None)
    return found


def _decorators(fn: ast.AST) -> set[str]:
    names = set()
    for decorator in getattr(fn, "decorator_list", []):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        names.add(target.id if isinstance(target, ast.Name) else getattr(target, "attr", ""))
    return names


def role_reads_at_build_time(root: Path = SRC) -> list[str]:
    modules = {path: ast.parse(path.read_text()) for path in sorted(root.rglob("*.py"))}
    calls = {path: _calls_by_scope(tree) for path, tree in modules.items()}
    readers: set[str] = set()  # synchronous functions that read a role (transitively)
    while True:
        before = len(readers)
        for found in calls.values():
            for scope, call in found:
                reads = _reads_directly(call) or _called_name(call) in readers
                if reads and isinstance(scope, ast.FunctionDef):
                    readers.add(scope.name)
        if len(readers) == before:
            break
    bad = []
    for path, found in calls.items():
        for scope, call in found:
            if not (_reads_directly(call) or _called_name(call) in readers):
                continue
            where = f"{path.relative_to(root.parent)}:{call.lineno}"
            if scope is None:
                bad.append(f"{where} at module level")
            elif isinstance(scope, ast.FunctionDef) and _decorators(scope) & BUILD_TIME_DECORATORS:
                bad.append(f"{where} in @{'/@'.join(_decorators(scope))} {scope.name}")
    return bad


def test_roles_are_read_only_inside_solvers_and_scorers() -> None:
    assert role_reads_at_build_time() == []


def test_the_check_finds_a_role_read_while_a_task_is_built(tmp_path: Path) -> None:
    (tmp_path / "family.py").write_text(
        "from inspect_ai import task\n"
        "from inspect_ai.model import get_model, model_roles\n"
        "def grader():\n    return get_model(role='grader')\n"
        "def panel():\n    return grader()\n"
        "@task\ndef built():\n    panel()\n"
        "@solver\ndef ready():\n    model_roles()\n"
        "    if True:\n        grader()\n"
        "    async def solve(state, generate):\n        return grader()\n    return solve\n"
    )
    bad = role_reads_at_build_time(tmp_path)
    assert [line.split(" ", 1)[1] for line in bad] == [
        "in @task built",
        "in @solver ready",
        "in @solver ready",
    ]
