"""Imports point one way (STYLE.md "The shape"): cogs and edge → flows → engine, store,
render; render → engine and the custom_id module; store → engine; engine → nothing of bot.

Every import of every module is checked, deferred ones inside functions included, so
no cycle can hide behind a late import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: layer → the layers it may import (besides itself and the standard library).
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "bot.store": {"engine"},
    "bot.render": {"engine", "bot.edge.ids"},
    "bot.flows": {"engine", "bot.store", "bot.render", "bot.edge.ids"},
    "bot.edge": {"engine", "bot.flows", "bot.render", "bot.store", "bot.settings"},
    "bot.cogs": {"engine", "bot.edge", "bot.flows", "bot.client"},
}

#: Modules outside the layers: the composition root and its helpers may import anything.
ROOTS = {"bot.__main__", "bot.client", "bot.settings", "bot.endpoints", "bot.cli", "bot"}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> str | None:
    if module == "bot.edge.ids" or module.startswith("bot.edge.ids."):
        return "bot.edge.ids"
    for layer in sorted(ALLOWED, key=len, reverse=True):
        if module == layer or module.startswith(f"{layer}."):
            return layer
    return None


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or base.joinpath("__init__.py").is_file()


def _imports(path: Path) -> set[str]:
    """The modules of ours a file imports (``from a import b`` is ``a.b`` when b is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.add(name if _is_module(name) else node.module)
    return {name for name in found if name.split(".")[0] in {"bot", "engine"}}


def _sources() -> list[Path]:
    return sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("engine").rglob("*.py")])


def _allowed(layer: str, target: str) -> bool:
    if target in ROOTS:
        # The bot object, for typing and for a cog's setup: the shell's outer layers only.
        return layer in {"bot.cogs", "bot.edge"} and target == "bot.client"
    target_layer = _layer(target)
    if target_layer is None:
        return False
    if target_layer == "bot.edge.ids" and layer == "bot.edge":
        return True
    return target_layer == layer or target_layer in ALLOWED[layer]


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_imports_point_one_way(path: Path) -> None:
    module = _module(path)
    if module in ROOTS:
        return
    layer = _layer(module)
    assert layer is not None, f"{module} belongs to no layer of STYLE.md's shape"
    wrong = sorted(name for name in _imports(path) if not _allowed(layer, name))
    assert not wrong, f"{module} ({layer}) imports {wrong}"


def test_the_layers_exist() -> None:
    for folder in ("engine", "bot/edge", "bot/cogs", "bot/flows", "bot/render", "bot/store"):
        assert ROOT.joinpath(folder).is_dir(), folder


def test_a_wrong_import_is_caught(tmp_path: Path) -> None:
    """The check itself: render importing a flow is refused, the custom_id module is not."""
    assert not _allowed("bot.render", "bot.flows.rolls")
    assert not _allowed("engine", "bot.store")
    assert not _allowed("bot.store", "bot.render.rolls")
    assert _allowed("bot.render", "bot.edge.ids")
    assert not _allowed("bot.render", "bot.edge.buttons")
