"""The floors of the house (docs/architecture.md): every module imports only public names of the floors below it,
and the two engines, siblings over the shared game vocabulary, never import each other."""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "reversis_sim"

FLOORS = {
    # the ground: encodings and tools with no game in them
    "__init__": 0, "cards": 0, "keys": 0,
    # the rules, then the shared game vocabulary and the per-deal columns both engines output
    "rules": 1, "overrides": 1.5, "constraints": 1.75, "game": 2, "columns": 2.5,
    # the numba rules of a deal (compiled rules, arrays, tricks, payments, settlement): the engine and the search
    "kernel": 2.75,
    # the heuristic families, every family's declaration and the deal skeleton; then the search, which rolls out
    # with those heuristics in that skeleton and which the engines seat
    "policies": 3, "search": 3.5,
    "reference": 4, "numba_engine": 4,  # siblings
    "engines": 5, "record": 6, "cluster": 6.5, "simulate": 7,
    "analysis": 8, "compare": 9, "review": 9.25, "learn": 9.3,
    # the bench times every command, the review's included
    "bench": 9.4, "tune": 9.5, "plot": 10, "play": 11,
    "cli": 12, "__main__": 13,
}
SIBLINGS = {"reference", "numba_engine"}


def _component(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path):
    """(imported top-level component, imported names, line) for every import of the package in ``path``."""
    tree = ast.parse(path.read_text())
    package_parts = path.relative_to(PACKAGE).parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
            if node.level:
                target = list(package_parts[: len(package_parts) - (node.level - 1)])
                target += node.module.split(".") if node.module else []
            elif node.module and node.module.startswith("reversis_sim"):
                target = node.module.split(".")[1:]
            else:
                continue
            if target:
                yield target[0], names, node.lineno
            else:  # "from reversis_sim import x": modules of the top package, or its own names (__version__)
                for name in names:
                    is_module = (PACKAGE / f"{name}.py").exists() or (PACKAGE / name).is_dir()
                    yield (name if is_module else "__init__"), [], node.lineno
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("reversis_sim."):
                    yield a.name.split(".")[1], [], node.lineno


MODULES = sorted(p for p in PACKAGE.rglob("*.py"))


def test_every_module_has_a_floor():
    missing = sorted({_component(p) for p in MODULES} - set(FLOORS))
    assert not missing, f"give these modules a floor in FLOORS (and docs/architecture.md): {missing}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_flow_down_the_floors_and_name_only_public_things(path):
    me = _component(path)
    for target, names, line in _imports(path):
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        assert not private, f"{path.relative_to(PACKAGE)}:{line} imports private names {private}"
        if target == me:
            continue  # inside one module or package
        assert target in FLOORS, f"{path.name}:{line} imports unknown {target}"
        assert FLOORS[target] < FLOORS[me] or target == "__init__", \
            f"{path.relative_to(PACKAGE)}:{line}: {me} (floor {FLOORS[me]}) imports {target} (floor {FLOORS[target]})"
        assert not (me in SIBLINGS and target in SIBLINGS), f"{path.name}:{line}: the engines import each other"
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        assert not private, f"{path.relative_to(PACKAGE)}:{line} imports private names {private} of {target}"


def test_the_engines_are_siblings_over_the_game_vocabulary():
    for sibling, other in (("reference", "numba_engine"), ("numba_engine", "reference")):
        for path in (PACKAGE / sibling).rglob("*.py"):
            assert other not in {t for t, _, _ in _imports(path)}, f"{path} imports {other}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_small(path):
    """A module one can read in one sitting (the house style): at most 460 lines."""
    assert len(path.read_text().splitlines()) <= 460


def test_every_jitted_function_is_cached_by_what_it_reaches():
    """Every jitted function of the package is compiled through the decorators of kernel/jit.py (its cache stamped
    by the code it reaches, kernel/cache.py), never by numba's own decorators."""
    bare = [p.relative_to(PACKAGE).as_posix() for p in MODULES if p.name != "jit.py"
            and re.search(r"numba\.n?jit\b|from numba import .*\bn?jit\b", p.read_text())]
    assert not bare, bare


def test_a_lazy_package_exports_no_name_that_is_also_one_of_its_modules():
    """A package whose names are imported when first used (``reversis_sim.lazy_exports``) must not export a function
    under the name of one of its modules: importing that module binds the module to the name (the pitfall that
    ``tune.search`` fell into, the function shadowed by the module)."""
    import importlib

    for init in PACKAGE.rglob("__init__.py"):
        if init.parent == PACKAGE or "lazy_exports(" not in init.read_text():
            continue
        name = "reversis_sim." + ".".join(init.parent.relative_to(PACKAGE).parts)
        package = importlib.import_module(name)
        modules = {p.stem for p in init.parent.glob("*.py")} | {p.name for p in init.parent.iterdir() if p.is_dir()}
        for export in package.__all__:
            value = getattr(package, export)
            assert export not in modules or type(value).__name__ == "module", f"{name}.{export} is also a module"


NUMBA_ROOMS = ("kernel", "policies", "search", "numba_engine", "review")
"""The packages that hold numba code: the kernel, the families' decisions and the skeleton, the search, the engine
and the review's kernels."""
NUMBA_GUESTS = {"reference/seat_policy.py"}
"""Modules outside those rooms that may use the numba floor: the reference engine's seat, which draws a seat's keyed
draws as the kernels do to hand them to the decisions both engines share."""


def test_the_numba_floor_is_one_package_used_by_the_engine_parts_only():
    """jit, the bit helpers and the keys' numba twin live in kernel/, and only the rooms that hold numba code
    (:data:`NUMBA_ROOMS`) and the reference engine's seat import them; every decorator is called by its own name (no
    file renames njit_nrt_free to njit)."""
    floor = {"kernel.jit", "kernel.bits", "kernel.keys_nb"}
    for path in MODULES:
        me = _component(path)
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                dotted = node.module if node.level == 0 else ".".join(
                    list(path.relative_to(PACKAGE).parts[:-1])[: len(path.relative_to(PACKAGE).parts) - node.level]
                    + node.module.split("."))
                dotted = dotted.removeprefix("reversis_sim.")
                if dotted in floor:
                    assert me in NUMBA_ROOMS or path.relative_to(PACKAGE).as_posix() in NUMBA_GUESTS, \
                        f"{path.relative_to(PACKAGE)} imports {dotted}"
                    renamed = [a.name for a in node.names if a.asname and a.name.startswith("njit")]
                    assert not renamed, f"{path.relative_to(PACKAGE)} renames {renamed}"
    assert not (PACKAGE / "jit.py").exists() and (PACKAGE / "kernel" / "jit.py").exists()


def test_the_top_level_keeps_what_a_reader_needs_to_see_first():
    modules = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert len(modules) <= 12, modules


def test_every_family_decision_reads_the_seat_view():
    """The four decisions of every heuristic family take (params, draws, view, tables): the seat's view record is
    all a decision may know (the information-discipline test checks the values, this the shape)."""
    import inspect

    from reversis_sim.policies.heuristics import HEURISTICS

    for fam in HEURISTICS:
        for decision in ("exchange", "declare", "goal", "play"):
            py = getattr(fam.kernel(), decision).py_func
            assert list(inspect.signature(py).parameters) == ["params", "draws", "view", "tables"], (fam.name, decision)


def test_the_map_names_every_module_in_its_floor():
    """docs/architecture.md's table of floors has a row for every top-level module and package, and each package's
    row names every module of it (``name.py``): the map matches the house."""
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    rows = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 3 and cells[2].startswith("`") and cells[1].replace(".", "").replace("-", "").isdigit():
            rows[cells[2].strip("`")] = cells[3]
    missing = []
    for path in MODULES:
        rel = path.relative_to(PACKAGE)
        if len(rel.parts) == 1:
            if rel.name not in rows and rel.name != "__main__.py":
                missing.append(rel.as_posix())
        else:
            row = rows.get(rel.parts[0] + "/")
            if row is None or (rel.name != "__init__.py" and f"`{rel.name}`" not in row):
                missing.append(rel.as_posix())
    assert not missing, f"docs/architecture.md does not name these modules in their floor's row: {missing}"


def _unnamed_slots(path: Path) -> list[str]:
    """Subscripts of a jitted function by an integer literal other than 0: a slot of a packed array read by its
    number (``ws.hold[2]``, ``params[5]``, ``ledger[i, 3]``) rather than by a name."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text())):
        if isinstance(fn, ast.FunctionDef) and any("njit" in ast.unparse(d) for d in fn.decorator_list):
            for node in ast.walk(fn):
                if isinstance(node, ast.Subscript) and not ast.unparse(node.value).endswith(".shape"):
                    index = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                    if any(isinstance(i, ast.Constant) and type(i.value) is int and i.value != 0 for i in index):
                        found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_jitted_function_reads_a_packed_array_by_an_unnamed_slot(path):
    """Records, not packed arrays: a slot of an array whose slots mean different things is read by its name (a
    module-level constant numba freezes: ``ws.lead[LEAD_WORLD]``, ``tricks[ti, TR_WINNER]``, ``params[SEARCH_TAU]``),
    so that one name means one thing and an inserted slot renumbers nothing by hand. Index 0 stays allowed: a
    one-cell array (a counter, a key) has no other slot."""
    found = _unnamed_slots(path)
    assert not found, found


def test_the_unnamed_slot_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("@njit_nrt_free\ndef f(ws):\n    return ws.hold[2] + ws.lead[0][1] + x.shape[1]\n")
    assert _unnamed_slots(bad) == ["3: ws.hold[2]", "3: ws.lead[0][1]"]


def test_the_table_code_does_not_branch_on_the_frame_kind():
    """analysis/tables.py builds every table the same way from any input (a frame, a lazy frame, a run in batches):
    the kinds are told apart in one place, analysis/batches.py (``frames_of``: the batches, or the one frame)."""
    path = PACKAGE / "analysis" / "tables.py"
    kinds = ("DataFrame", "LazyFrame", "Batches")
    branches = [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance"
                and any(k in ast.unparse(node.args[1]) for k in kinds)]
    assert not branches, branches
