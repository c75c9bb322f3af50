"""The engine stays pure: no Discord, no database, no bot, no module-level random."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("discord", "aiosqlite", "sqlite3", "bot", "aiohttp", "asyncio", "requests")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_modules_import_nothing_from_discord_the_database_or_the_bot() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "the engine has modules"
    for path in files:
        assert not _imports(path) & set(FORBIDDEN), path


def test_importing_the_engine_loads_no_discord_or_database_module() -> None:
    code = (
        "import sys, pkgutil, importlib, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [n for n in ('discord', 'aiosqlite', 'bot') if n in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        cwd=ENGINE.parent,
    )
    assert out.stdout.strip() == ""


def test_engine_draws_no_faces_from_the_module_level_random() -> None:
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr in {"Random", "SystemRandom"}, (path, node.attr)
