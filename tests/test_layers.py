"""The floors of the house: imports run down only, and the engine loads without PettingZoo or Gymnasium.

Lowest first: ``rams_env`` (the engine and its PettingZoo adapter) < ``agents`` < ``evaluation`` <
``training`` (it evaluates its learner) < ``web`` (the browser table) < ``cli`` (every subcommand's command
line). A module may import from its own package or a lower floor, never a higher one, at module level or
inside a function; so no two packages can import each other (no package cycle).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from rams_env.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ("rams_env", "agents", "evaluation", "training", "web", "cli")
"""The packages of the house, lowest floor first."""


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``path``, function-level ones included."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def package_imports() -> dict[tuple[str, str], list[str]]:
    """(importing package, imported package) -> where, for every import between two packages of FLOORS."""
    edges: dict[tuple[str, str], list[str]] = {}
    for package in FLOORS:
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, module in imported_modules(path):
                target = module.split(".")[0]
                if target in FLOORS and target != package:
                    edges.setdefault((package, target), []).append(f"{path.relative_to(ROOT)}:{line} {module}")
    return edges


def test_the_floors_parse_real_imports():
    """The scan sees the imports it must judge (a scan that found nothing would pass anything)."""
    edges = package_imports()
    assert ("agents", "rams_env") in edges and ("cli", "training") in edges and ("training", "evaluation") in edges


def test_no_import_runs_up_the_floors():
    upward = [where for (low, high), places in package_imports().items()
              if FLOORS.index(high) > FLOORS.index(low) for where in places]
    assert not upward, "imports that run up the floors:\n" + "\n".join(upward)


def test_no_two_packages_import_each_other():
    edges = package_imports()
    cycles = sorted({tuple(sorted(pair)) for pair in edges if pair[::-1] in edges})
    assert not cycles, f"package cycles: {cycles}"


def test_every_input_error_names_a_real_exception():
    """cli/usage.py lists the bad-input exceptions by name: a moved module would silently stop matching."""
    import importlib

    from cli.usage import INPUT_ERRORS

    for name in INPUT_ERRORS:
        module, _, cls = name.rpartition(".")
        assert issubclass(getattr(importlib.import_module(module), cls), Exception), name


@pytest.mark.parametrize("game", list(GAMES))
def test_the_engine_loads_without_pettingzoo_or_gymnasium(game):
    code = (f"import sys, rams_env.games.{game}.game; "
            "print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_benchmark_scripts_import_no_sibling_script():
    """``python benchmarks/x.py`` (how every benchmark's docstring runs it) puts ``benchmarks/``, not the
    repository, first on the path: an import of ``benchmarks.<other>`` fails there (env_cost_split.py did).
    What scripts share lives in a package (``evaluation.throughput``)."""
    found = [f"{path.name}:{line} imports {module}" for path in sorted((ROOT / "benchmarks").glob("*.py"))
             for line, module in imported_modules(path) if module.split(".")[0] == "benchmarks"]
    assert not found, found
