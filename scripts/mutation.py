"""Mutation testing of the trust anchors: the verifier and the two proof checkers.

A mutant is the module with one small change, made on its syntax tree (``ast``) and compiled
with the original line numbers: a comparison turned (``==``/``!=``, ``<``/``<=``, ``>``/``>=``,
``in``/``not in``, ``is``/``is not``), ``and``/``or`` swapped, an arithmetic or bit operator swapped
(``+``/``-``, ``*``/``//``, ``<<``/``>>``, ``&``/``|``), ``min``/``max`` swapped, an integer
constant off by one (up and down), ``True``/``False`` swapped, a ``not`` or a unary minus
dropped, a condition negated (``if``, ``while``, ``assert``, conditional expressions), a
``return`` deleted, ``break``/``continue`` swapped. Type annotations are left alone.

First every test of the module runs once under a line tracer (``-m "not slow"``), recording which
lines of the module each test executes and how long it takes; that map is cached (in the system's
temporary folder, keyed by the sources of the modules and of the tests). Then each sampled mutant
runs in a pytest process of its own against only the tests that execute its line (a line run
only at import: every test of the module), fastest first, stopping at the first failure. A
mutant is killed when a test fails (or the run exceeds its time limit: a mutant that loops),
and survives when every test passes. Equivalent mutants (no test can tell them from the module)
are listed with the reason in the module's first test file, as ``EQUIVALENT_MUTANTS``: the
mutant's source line (stripped) and its change, as this script prints them.

The score per module is killed / (sampled - equivalent), written to ``results/bench.json``
under ``mutation`` (with ``--write``). Usage::

    python scripts/mutation.py [--sample 60] [--seed 0] [--jobs 2] [--write] [MODULE ...]

MODULE is a path such as ``minttt/proof/drat.py`` (default: the three). ``--sample 0`` runs
every mutant. About ten minutes on two cores for 60 mutants per module.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: module -> its tests (the first holds EQUIVALENT_MUTANTS); the module's doctests run too
MODULES: dict[str, tuple[str, ...]] = {
    "minttt/table/verify.py": ("tests/test_verify.py", "tests/test_players_verify.py"),
    "minttt/proof/drat.py": (
        "tests/test_drat.py",
        "tests/test_drat_checks.py",
        "tests/test_lrat.py",
        "tests/test_hostile.py",
        "tests/test_checker_fast_paths.py",
    ),
    "minttt/proof/lrat.py": (
        "tests/test_lrat.py",
        "tests/test_hostile.py",
        "tests/test_checker_fast_paths.py",
    ),
}
TRACE_ENV = "MINTTT_MUTATION_TRACE"  # the tracer's output file (the coverage pass)
MUTANT_ENV = "MINTTT_MUTANT"  # a JSON mutant to install before the tests import the module
GOAL = 0.95

_COMPARE = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BINARY = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
}
_SWAP_NAMES = {"min": "max", "max": "min"}


# ------------------------------------------------------------------------------------ mutants


@dataclass(frozen=True)
class Mutant:
    """One change: the ``index``-th node of ``ast.walk`` over the module, changed by ``kind``."""

    module: str  # path from the repository root
    index: int
    kind: str
    line: int
    change: str  # "old -> new", as the source reads

    def key(self, source_lines: list[str]) -> str:
        """How EQUIVALENT_MUTANTS names it: the stripped source line, then the change."""
        return f"{source_lines[self.line - 1].strip()}  # {self.change}"


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """ids of every node inside a type annotation (never mutated)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            roots.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            roots.append(node.returns)
    return {id(n) for root in roots for n in ast.walk(root)}


def _sites(node: ast.AST) -> Iterator[tuple[str, str]]:  # noqa: C901 - one case per operator
    """``(kind, change)`` for each mutation this node admits."""
    show = ast.unparse
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _COMPARE:
                new = copy.deepcopy(node)
                new.ops[i] = _COMPARE[type(op)]()
                yield f"compare:{i}", f"{show(node)} -> {show(new)}"
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield "boolop", f"{show(node)} -> {show(new)}"
    elif isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        new = copy.deepcopy(node)
        new.op = _BINARY[type(node.op)]()
        yield "binop", f"{show(node)} -> {show(new)}"
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield "const:+1", f"{node.value} -> {node.value + 1}"
        yield "const:-1", f"{node.value} -> {node.value - 1}"
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield "bool", f"{node.value} -> {not node.value}"
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in _SWAP_NAMES:
            yield "name", f"{node.func.id}(...) -> {_SWAP_NAMES[node.func.id]}(...)"
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield "unary", f"{show(node)} -> {show(node.operand)}"
    elif isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
        yield "negate", f"{show(node.test)} -> not ({show(node.test)})"
    elif isinstance(node, ast.Return):
        yield "delete", f"{show(node)} -> pass"
    elif isinstance(node, ast.Break | ast.Continue):
        yield "flow", f"{show(node)} -> {'continue' if isinstance(node, ast.Break) else 'break'}"


def mutants(module: str) -> list[Mutant]:
    """Every mutant of ``module`` (a path from the root), in a fixed order."""
    tree = ast.parse((ROOT / module).read_text("utf-8"))
    skip = _annotation_nodes(tree)
    out = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip or not hasattr(node, "lineno"):
            continue
        for kind, change in _sites(node):
            out.append(Mutant(module, index, kind, node.lineno, change))
    return out


def mutated_tree(mutant: Mutant) -> ast.Module:
    """The module's tree with the mutant's change made (line numbers as in the source)."""
    tree = ast.parse((ROOT / mutant.module).read_text("utf-8"))
    nodes = list(ast.walk(tree))
    node = nodes[mutant.index]
    kind = mutant.kind
    if kind.startswith("compare:"):
        assert isinstance(node, ast.Compare)
        i = int(kind.split(":")[1])
        node.ops[i] = _COMPARE[type(node.ops[i])]()
    elif kind == "boolop":
        assert isinstance(node, ast.BoolOp)
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "binop":
        assert isinstance(node, ast.BinOp)
        node.op = _BINARY[type(node.op)]()
    elif kind.startswith("const:"):
        assert isinstance(node, ast.Constant)
        node.value += 1 if kind == "const:+1" else -1
    elif kind == "bool":
        assert isinstance(node, ast.Constant)
        node.value = not node.value
    elif kind == "name":
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        node.func.id = _SWAP_NAMES[node.func.id]
    else:
        _replace(tree, node, kind)
    return ast.fix_missing_locations(tree)


def _replace(tree: ast.Module, node: ast.AST, kind: str) -> None:
    """The changes that replace a node in its parent (or wrap a condition)."""
    if kind == "negate":
        assert isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert)
        node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)
        return
    if kind == "flow":
        new: ast.AST = ast.Continue() if isinstance(node, ast.Break) else ast.Break()
    elif kind == "delete":
        new = ast.Pass()
    else:
        assert kind == "unary" and isinstance(node, ast.UnaryOp)
        new = node.operand
    ast.copy_location(new, node)
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is node:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(v is node for v in value):
                value[[i for i, v in enumerate(value) if v is node][0]] = new
                return
    raise AssertionError(f"no parent for {kind} at line {getattr(node, 'lineno', '?')}")


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def install(mutant: Mutant) -> None:
    """Put the mutated module in ``sys.modules`` (before anything imports the real one)."""
    name = module_name(mutant.module)
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(mutated_tree(mutant), spec.origin, "exec"), module.__dict__)  # noqa: S102
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)


# ------------------------------------------------------------------------ the pytest plugin


class _Tracer:
    """Lines of the target files each test executes (sys.settrace, this thread and new ones)."""

    def __init__(self, targets: set[str], out: str) -> None:
        self.targets, self.out = targets, out
        self.current: set[tuple[str, int]] = set()
        self.tests: dict[str, dict[str, Any]] = {}

    def _local(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            self.current.add((frame.f_code.co_filename, frame.f_lineno))
        return self._local

    def _global(self, frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename in self.targets:
            self.current.add((frame.f_code.co_filename, frame.f_lineno))
            return self._local
        return None

    def start(self) -> None:
        self.current = set()
        sys.settrace(self._global)
        threading.settrace(self._global)

    def stop(self, nodeid: str, seconds: float) -> None:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
        lines: dict[str, list[int]] = {}
        for path, line in self.current:
            lines.setdefault(path, []).append(line)
        self.tests[nodeid] = {"seconds": seconds, "lines": lines}

    def save(self) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(f"{self.out}.{worker}").write_text(json.dumps(self.tests), "utf-8")


_TRACER: _Tracer | None = None
if os.environ.get(MUTANT_ENV):  # a mutant run: the module is replaced before any test imports it
    install(Mutant(**json.loads(os.environ[MUTANT_ENV])))
elif os.environ.get(TRACE_ENV):
    _TRACER = _Tracer({str(ROOT / m) for m in MODULES}, os.environ[TRACE_ENV])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    """Trace one test (setup, call, teardown) when the coverage pass asks for it."""
    if _TRACER is None:
        yield
        return
    start = time.perf_counter()
    _TRACER.start()
    yield
    _TRACER.stop(item.nodeid, time.perf_counter() - start)


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    if _TRACER is not None:
        _TRACER.save()


# ---------------------------------------------------------------------------------- running


def _pytest(args: list[str], env: dict[str, str], timeout: float) -> tuple[int | None, float]:
    """Run pytest with this file as a plugin; (exit code or None on timeout, seconds)."""
    env = {**os.environ, **env, "PYTHONPATH": str(Path(__file__).parent)}
    cmd = [sys.executable, "-m", "pytest", "-p", "mutation", "-p", "no:cacheprovider", *args]
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        code: int | None = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        code = None
    return code, time.perf_counter() - start


def coverage(modules: list[str], jobs: int) -> dict[str, dict[str, Any]]:
    """nodeid -> {"seconds", "lines": {path: [line, ...]}} for every test of ``modules``."""
    tests = sorted({t for m in modules for t in MODULES[m]})
    digest = hashlib.sha256()
    for path in [*MODULES, *tests, Path(__file__).relative_to(ROOT)]:
        digest.update((ROOT / path).read_bytes())
    cache = Path(tempfile.gettempdir()) / f"minttt-mutation-{digest.hexdigest()[:16]}.json"
    if cache.exists():
        return json.loads(cache.read_text("utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "trace")
        args = ["-q", "-m", "not slow", "-n", str(jobs), *tests, *modules]
        code, seconds = _pytest(args, {TRACE_ENV: out}, 7200)
        if code != 0:
            raise SystemExit(f"the tests fail before any mutation (exit {code}): fix them first")
        found: dict[str, dict[str, Any]] = {}
        for part in Path(tmp).glob("trace.*"):
            found |= json.loads(part.read_text("utf-8"))
    print(f"coverage: {len(found)} tests traced in {seconds:.0f} s", flush=True)
    cache.write_text(json.dumps(found), "utf-8")
    return found


def _selected(mutant: Mutant, tests: dict[str, dict[str, Any]]) -> list[str]:
    """The tests that execute the mutant's line, fastest first (a line run only at import,
    such as a module constant: every test of the module)."""
    path = str(ROOT / mutant.module)
    own = [t for t in tests if _of_module(t, mutant.module)]
    hit = [t for t in own if mutant.line in tests[t]["lines"].get(path, ())]
    if not hit and not any(mutant.line in tests[t]["lines"].get(path, ()) for t in tests):
        hit = own if _module_level(mutant) else []
    return sorted(hit, key=lambda t: tests[t]["seconds"])


def _of_module(nodeid: str, module: str) -> bool:
    return nodeid.split("::")[0] in (*MODULES[module], module)


def _module_level(mutant: Mutant) -> bool:
    tree = ast.parse((ROOT / mutant.module).read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and (
            node.lineno <= mutant.line <= (node.end_lineno or node.lineno)
        ):
            return isinstance(node, ast.ClassDef) and _in_class_body(node, mutant.line)
    return True


def _in_class_body(node: ast.ClassDef, line: int) -> bool:
    """A line of a class body outside its methods (a field default: run at import)."""
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and (
            item.lineno <= line <= (item.end_lineno or item.lineno)
        ):
            return False
    return True


def run_mutant(mutant: Mutant, tests: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Run ``mutant`` against its tests: killed, timeout or survived (or not covered)."""
    chosen = _selected(mutant, tests)
    if not chosen:
        return {"outcome": "not covered", "tests": 0, "seconds": 0.0}
    limit = 60 + 3 * sum(tests[t]["seconds"] for t in chosen)
    payload = json.dumps(mutant.__dict__)
    code, seconds = _pytest(["-x", "-q", "-p", "no:xdist", *chosen], {MUTANT_ENV: payload}, limit)
    if code is None:
        outcome = "timeout"
    elif code in (1, 2, 3):
        outcome = "killed"
    elif code == 0:
        outcome = "survived"
    else:
        raise SystemExit(f"{mutant}: pytest exit {code} (no tests run?)")
    return {"outcome": outcome, "tests": len(chosen), "seconds": round(seconds, 1)}


def equivalents(module: str) -> dict[str, str]:
    """EQUIVALENT_MUTANTS of the module's first test file: mutant key -> why."""
    tree = ast.parse((ROOT / MODULES[module][0]).read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "EQUIVALENT_MUTANTS" for t in targets):
                assert node.value is not None
                return dict(ast.literal_eval(node.value))
    return {}


def score(module: str, sample: int, seed: int, jobs: int, tests: dict) -> dict[str, Any]:
    """Run a sample of ``module``'s mutants; the counts, the score and every survivor."""
    every = mutants(module)
    chosen = every if not sample else random.Random(seed).sample(every, min(sample, len(every)))
    lines = (ROOT / module).read_text("utf-8").splitlines()
    known = equivalents(module)
    with ThreadPoolExecutor(jobs) as pool:
        outcomes = list(pool.map(lambda m: run_mutant(m, tests), chosen))
    counts = {"killed": 0, "timeout": 0, "survived": 0, "not covered": 0, "equivalent": 0}
    survivors, equivalent = [], []
    for mutant, outcome in zip(chosen, outcomes, strict=True):
        key = mutant.key(lines)
        if outcome["outcome"] in ("survived", "not covered") and key in known:
            counts["equivalent"] += 1
            equivalent.append({"line": mutant.line, "mutant": key, "why": known[key]})
            continue
        counts[outcome["outcome"]] += 1
        if outcome["outcome"] in ("survived", "not covered"):
            survivors.append({"line": mutant.line, "mutant": key, **outcome})
        print(f"   {module}:{mutant.line} {key}: {outcome['outcome']}", flush=True)
    judged = len(chosen) - counts["equivalent"]
    killed = counts["killed"] + counts["timeout"]
    return {
        "mutants": len(every),
        "sampled": len(chosen),
        **counts,
        "score": round(killed / judged, 4) if judged else None,
        "survivors": survivors,
        "equivalents": equivalent,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", default=list(MODULES))
    parser.add_argument("--sample", type=int, default=60, help="mutants per module (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="write results/bench.json")
    args = parser.parse_args(argv)
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        print(f"error: not a module this script mutates: {unknown[0]}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    load = os.getloadavg()[0]
    tests = coverage(args.modules, args.jobs)
    report: dict[str, Any] = {
        "what": "mutation score of the trust anchors (scripts/mutation.py): killed / (sampled - "
        "equivalent), each mutant run against the tests that execute its line",
        "sample": args.sample,
        "seed": args.seed,
        "goal": GOAL,
        "modules": {m: score(m, args.sample, args.seed, args.jobs, tests) for m in args.modules},
    }
    report["seconds"] = round(time.perf_counter() - start)
    report["load_average_1min"] = {"start": round(load, 2), "end": round(os.getloadavg()[0], 2)}
    for module, result in report["modules"].items():
        print(f"{module}: score {result['score']} ({result['sampled']} sampled)")
    if args.write:
        sys.path.insert(0, str(ROOT))
        from minttt.fileio import write_json_atomic

        bench = ROOT / "results" / "bench.json"
        data = json.loads(bench.read_text("utf-8")) if bench.exists() else {}
        data["mutation"] = report
        write_json_atomic(bench, data)
    below = [m for m, r in report["modules"].items() if (r["score"] or 0) < GOAL]
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
