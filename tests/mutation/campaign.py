"""Mutation campaigns of the package, one wing at a time, with cosmic-ray (docs/testing.md).

    python tests/mutation/campaign.py map engine                  # the wing's coverage map
    python tests/mutation/campaign.py map engine tests/test_x.py  # re-map a new or changed test file
    python tests/mutation/campaign.py run engine                  # a seeded sample, two mutants at once
    python tests/mutation/campaign.py run engine --recheck        # the survivors, at a later commit
    python tests/mutation/campaign.py report engine --diffs       # its score and its survivors

The wings, the sample size, the seed and the operators left out are in ``tests/mutation/wings.toml``;
the mutants judged equivalent (with the reason) in ``tests/mutation/equivalent.toml``. Everything a
campaign writes is under ``.mutation/`` (ignored by git): the map, one git worktree a wing (cosmic-ray
mutates files in place, so the checkout you work in is never touched) and one session a wing, commit
and seed, which a second ``run`` resumes where the first stopped.
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
STATE = ROOT / ".mutation"
MAP = STATE / "map"


def wings_config() -> dict[str, Any]:
    return tomllib.loads((HERE / "wings.toml").read_text())


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


# ---- the coverage map ---------------------------------------------------------------------------


def junit_durations(junit: Path) -> dict[str, float]:
    """pytest node ids of the tests that passed and their durations, from a JUnit XML report."""
    durations: dict[str, float] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        if any(child.tag in ("failure", "error", "skipped") for child in case):
            continue  # a test that fails unmutated would kill every mutant: never selected
        parts = case.get("classname", "").split(".")
        for cut in range(len(parts), 0, -1):  # the longest prefix that is a test file
            if (ROOT / Path(*parts[:cut])).with_suffix(".py").exists():
                node = "/".join(parts[:cut]) + ".py::" + "::".join([*parts[cut:], case.get("name", "")])
                durations[node] = float(case.get("time", "0") or 0)
                break
    return durations


def wing_tests(wing: dict[str, Any]) -> list[str]:
    files = {p for pattern in wing["tests"] for p in (ROOT / "tests").glob(pattern)}
    return sorted(str(p.relative_to(ROOT)) for p in files)


def cmd_map(args: argparse.Namespace) -> int:
    wing = wings_config()["wings"][args.wing]
    tests = [str(Path(t)) for t in args.tests] or wing_tests(wing)
    folder = MAP / args.wing
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{len(list(folder.glob('*.json'))):03d}-{Path(args.tests[0]).stem if args.tests else 'wing'}"
    with tempfile.TemporaryDirectory() as tmp:
        data, junit = Path(tmp) / "coverage", Path(tmp) / "junit.xml"
        command = [sys.executable, "-m", "pytest", "-n", str(args.workers), "-p", "no:cacheprovider", "-q"]
        command += [f"--cov={path}" for path in wing["paths"]]
        command += ["--cov-context=test", "--cov-report=", f"--junitxml={junit}"]
        done = subprocess.run([*command, *tests], cwd=ROOT, env={**os.environ, "COVERAGE_FILE": str(data)})
        if done.returncode not in (0, 1):
            print(f"pytest stopped (exit {done.returncode}): no map written", file=sys.stderr)
            return 1
        shutil.copyfile(data, folder / f"{name}.sqlite")
        meta = {"test_files": tests, "durations": junit_durations(junit)}
        (folder / f"{name}.json").write_text(json.dumps(meta, indent=0, sort_keys=True))
    print(f"mapped {len(tests)} test files for {args.wing} into {folder / name}.sqlite")
    return 0


# ---- a campaign ---------------------------------------------------------------------------------


def prepare_tree(wing: str, worker: int = 0) -> tuple[Path, str]:
    """A worktree of HEAD for the wing (one a worker), with the compiled core copied in and no mutant
    left in it."""
    head = git("rev-parse", "HEAD")
    tree = STATE / "trees" / (wing if worker == 0 else f"{wing}-{worker}")
    if not tree.exists():
        tree.parent.mkdir(parents=True, exist_ok=True)
        git("worktree", "add", "--detach", str(tree), head)
    else:
        git("checkout", "--force", "--detach", head, cwd=tree)
        git("checkout", "--", ".", cwd=tree)  # a campaign killed mid-mutant leaves its mutant behind
    for native in (ROOT / "brass_stats" / "_core").glob("_native*.so"):
        shutil.copyfile(native, tree / "brass_stats" / "_core" / native.name)
    return tree, head


def known_tests(tree: Path, head: str) -> None:
    """The node ids the tree's suite collects, so that a map entry of a removed test is never run."""
    stamp = MAP / "known-tests.head"
    if stamp.exists() and stamp.read_text() == head:
        return
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-o", "addopts="],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ids = [row for row in out.splitlines() if "::" in row]
    (MAP / "known-tests.txt").write_text("\n".join(ids))
    stamp.write_text(head)


COMPARISON = re.compile(r"^core/ReplaceComparisonOperator_(\w+?)_(\w+)$")


def excluded(operator: str, config: dict[str, Any]) -> bool:
    if any(re.fullmatch(pattern, operator) for pattern in config["operators"]["exclude"]):
        return True
    if (match := COMPARISON.match(operator)) is not None:
        source, target = match.groups()
        return not any(source in family and target in family for family in config["operators"]["comparison_families"])
    return False


Span = tuple[tuple[int, int], tuple[int, int]]


def annotation_spans(path: Path) -> list[Span]:
    """Where a module's annotations are, when ``from __future__ import annotations`` keeps them unevaluated."""
    module = ast.parse(path.read_text())
    imports = [node for node in module.body if isinstance(node, ast.ImportFrom) and node.module == "__future__"]
    futures = {a.name for node in imports for a in node.names}
    postponed = "annotations" in futures
    if not postponed:
        return []
    spans: list[Span] = []
    for node in ast.walk(module):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.arg | ast.AnnAssign):
            found.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        for a in found:
            if a is not None and a.end_lineno is not None and a.end_col_offset is not None:
                spans.append(((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)))
    return spans


def in_annotation(tree: Path, mutation: Any, spans: dict[str, list[Span]]) -> bool:
    path = str(mutation.module_path)
    if path not in spans:
        spans[path] = annotation_spans(tree / path)
    return any(start <= tuple(mutation.start_pos) < end for start, end in spans[path])


def sample(session: Path, tree: Path, config: dict[str, Any], size: int, seed: int) -> int:
    """Mark every mutant outside the seeded sample as skipped; return the sample's size."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    spans: dict[str, list[Span]] = {}
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = sorted(db.pending_work_items, key=lambda item: key_of(item.mutations[0]))
        eligible = [
            item
            for item in items
            if not excluded(item.mutations[0].operator_name, config)
            and not in_annotation(tree, item.mutations[0], spans)
        ]
        chosen = {item.job_id for item in random.Random(seed).sample(eligible, min(size, len(eligible)))}
        unsampled = [item.job_id for item in eligible if item.job_id not in chosen]
        left_out = sorted({item.job_id for item in items} - {item.job_id for item in eligible})
        reasons = ((unsampled, "not in the sample"), (left_out, "operator or annotation left out (wings.toml)"))
        for job_ids, why in reasons:
            if job_ids:
                db.set_multiple_results(job_ids, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=why))
    return len(chosen)


def key_of(mutation: Any) -> tuple[str, int, int, str, int]:
    line, column = mutation.start_pos
    return (str(mutation.module_path), line, column, mutation.operator_name, mutation.occurrence)


def latest_session(wing: str, seed: int) -> Path:
    sessions = sorted(STATE.glob(f"{wing}-*-seed{seed}.sqlite"), key=lambda p: p.stat().st_mtime)
    if not sessions:
        raise SystemExit(f"{wing}: no campaign yet")
    return sessions[-1]


def forget_survivors(session: Path) -> int:
    """Drop the results of the surviving mutants, so that ``cosmic-ray exec`` runs them again."""
    import sqlite3

    with sqlite3.connect(session) as db:
        return db.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'").rowcount


def resumable(wing: str, paths: list[str], head: str, seed: int) -> Path | None:
    """The latest unfinished session of this wing and seed, if the wing's code is unchanged since it began.

    A commit that touches only docs or tests keeps the same mutants, so the campaign goes on
    where it stopped instead of starting again.
    """
    import sqlite3

    sessions = sorted(STATE.glob(f"{wing}-*-seed{seed}.sqlite"), key=lambda p: p.stat().st_mtime)
    if not sessions:
        return None
    latest = sessions[-1]
    with sqlite3.connect(latest) as db:
        (pending,) = db.execute(
            "SELECT COUNT(*) FROM work_items WHERE job_id NOT IN (SELECT job_id FROM work_results)"
        ).fetchone()
    since = latest.name.split("-")[1]
    if not pending or git("diff", "--stat", since, head, "--", *paths):
        return None
    return latest


def first_changed_lines(since: str, head: str, paths: list[str]) -> dict[str, int]:
    """Each file of ``paths`` changed between the commits: its first changed line, as numbered at ``since``."""
    first: dict[str, int] = {}
    path = ""
    for line in git("diff", "-U0", since, head, "--", *paths).splitlines():
        if line.startswith("--- "):
            path = line[6:] if line.startswith("--- a/") else ""
        elif line.startswith("+++ ") and not path:
            path = line[6:]  # a file added since: every line is new
        elif line.startswith("@@") and path:
            start = max(1, int(line.split()[1].lstrip("-").split(",")[0]))
            first[path] = min(first.get(path, start), start)
    return first


def moved_survivors(session: Path, changed: dict[str, int]) -> list[str]:
    """The survivors a recheck cannot run again: those in a changed file at or after its first change.

    cosmic-ray finds a mutant by its operator's occurrence counted from the top of the file, so a
    mutant above the first change is the same mutant at the later commit."""
    import sqlite3

    with sqlite3.connect(session) as db:
        rows = db.execute(
            "SELECT s.module_path, s.start_pos_row FROM mutation_specs s JOIN work_results r USING (job_id)"
            " WHERE r.test_outcome = 'SURVIVED'"
        ).fetchall()
    return [f"{path}:{row}" for path, row in rows if path in changed and row >= changed[path]]


def session_path(wing: str, head: str, seed: int) -> Path:
    return STATE / f"{wing}-{head[:10]}-seed{seed}.sqlite"


def cmd_run(args: argparse.Namespace) -> int:
    STATE.mkdir(exist_ok=True)
    with open(STATE / f"{args.wing}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"{args.wing}: a campaign of this wing is running (its worktree holds one mutant at a time)")
            return 1
        return run_campaign(args)


def run_campaign(args: argparse.Namespace) -> int:
    config = wings_config()
    wing = config["wings"][args.wing]
    settings = {**config["defaults"], **{k: v for k, v in vars(args).items() if k in ("sample", "seed") and v}}
    tree, head = prepare_tree(args.wing)
    known_tests(tree, head)
    folder = MAP / args.wing
    selector = f"{sys.executable} {HERE / 'select_tests.py'} --map {folder} --budget {settings['budget']}"
    cosmic = {
        "module-path": wing["paths"],
        "timeout": float(settings["timeout"]),
        "excluded-modules": [],
        "test-command": selector,
        "distributor": {"name": "local"},
    }
    config_file = STATE / f"{args.wing}.toml"
    config_file.write_text(_toml({"cosmic-ray": cosmic}))
    session = session_path(args.wing, head, int(settings["seed"]))
    if args.recheck:
        session = latest_session(args.wing, int(settings["seed"]))
        since = session.name.split("-")[1]
        stale = moved_survivors(session, first_changed_lines(since, head, wing["paths"]))
        if stale:
            print(
                f"{args.wing}: the wing's code changed since {since} at or before {len(stale)} survivors "
                f"({', '.join(stale[:3])}): start a new campaign",
                file=sys.stderr,
            )
            return 1
        survivors = forget_survivors(session)
        print(f"{args.wing}: {survivors} survivors of {session.name} run again at {head[:10]}")
    elif not session.exists() and (unfinished := resumable(args.wing, wing["paths"], head, int(settings["seed"]))):
        session = unfinished
        print(f"{args.wing}: resuming {session.name} (the wing's code is unchanged at {head[:10]})")
    elif not session.exists():
        subprocess.run(["cosmic-ray", "init", str(config_file), str(session)], cwd=tree, check=True)
        size = sample(session, tree, config, int(settings["sample"]), int(settings["seed"]))
        print(f"{args.wing}: {size} mutants sampled (seed {settings['seed']}) at {head[:10]}")
    execute(args.wing, session, config_file, tree, max(1, args.workers))
    return cmd_report(args)


def execute(wing: str, session: Path, config_file: Path, tree: Path, workers: int) -> None:
    """Run the session's pending mutants, split among ``workers`` worktrees (one cosmic-ray each: it
    mutates files in place), and gather their results into the session."""
    if workers == 1:
        subprocess.run(["cosmic-ray", "exec", str(config_file), str(session)], cwd=tree, check=True)
        git("checkout", "--", ".", cwd=tree)
        return
    shards = split(session, workers)
    running = []
    for k, shard in enumerate(shards):
        where = tree if k == 0 else prepare_tree(wing, k)[0]
        running.append((subprocess.Popen(["cosmic-ray", "exec", str(config_file), str(shard)], cwd=where), where))
    failed = [where for process, where in running if process.wait() != 0]
    for _, where in running:
        git("checkout", "--", ".", cwd=where)
    gather(session, shards)
    if failed:
        raise SystemExit(f"{wing}: cosmic-ray stopped in {', '.join(map(str, failed))} (run again to resume)")


SHARD_MARK = "another worker's share"


def pending_jobs(session: Path) -> list[str]:
    import sqlite3

    with sqlite3.connect(session) as db:
        rows = db.execute(
            "SELECT job_id FROM work_items WHERE job_id NOT IN (SELECT job_id FROM work_results) ORDER BY job_id"
        ).fetchall()
    return [job for (job,) in rows]


def split(session: Path, workers: int) -> list[Path]:
    """One copy of the session a worker, each with every pending mutant but its share (every
    ``workers``-th) marked as skipped, as cosmic-ray marks them; copies left by an interrupted run are
    resumed as they are."""
    import sqlite3

    pending = pending_jobs(session)
    shards = [session.with_name(f"{session.stem}.worker{k}of{workers}.sqlite") for k in range(workers)]
    for k, shard in enumerate(shards):
        if shard.exists():
            continue
        shutil.copyfile(session, shard)
        others = [(SHARD_MARK, job) for i, job in enumerate(pending) if i % workers != k]
        with sqlite3.connect(shard) as db:
            db.executemany(
                "INSERT INTO work_results (worker_outcome, output, test_outcome, diff, job_id) "
                "VALUES ('SKIPPED', ?, NULL, NULL, ?)",
                others,
            )
    return shards


def gather(session: Path, shards: list[Path]) -> int:
    """Copy each worker's results into the session; a worker's copy that is done is removed."""
    import sqlite3

    gathered = 0
    with sqlite3.connect(session) as db:
        for shard in shards:
            db.execute("ATTACH DATABASE ? AS shard", (str(shard),))
            gathered += db.execute(
                "INSERT OR REPLACE INTO work_results (worker_outcome, output, test_outcome, diff, job_id) "
                "SELECT worker_outcome, output, test_outcome, diff, job_id FROM shard.work_results "
                "WHERE output IS NOT ? AND job_id NOT IN (SELECT job_id FROM main.work_results)",
                (SHARD_MARK,),
            ).rowcount
            (left,) = db.execute(
                "SELECT COUNT(*) FROM shard.work_items WHERE job_id NOT IN (SELECT job_id FROM shard.work_results)"
            ).fetchone()
            db.commit()
            db.execute("DETACH DATABASE shard")
            if not left:
                shard.unlink()
    return gathered


def _toml(value: dict[str, Any]) -> str:
    import toml  # cosmic-ray's own dependency writes what it reads

    return str(toml.dumps(value))


# ---- the score ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    path: str
    line: int
    operator: str
    killed: bool
    diff: str


def equivalents() -> dict[tuple[str, int, str], str]:
    listed = tomllib.loads((HERE / "equivalent.toml").read_text()).get("equivalent", [])
    return {(e["path"], int(e["line"]), e["operator"]): e["reason"] for e in listed}


def outcomes(session: Path) -> tuple[list[Outcome], int]:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome

    found: list[Outcome] = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        pending = sum(1 for _ in db.pending_work_items)
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            mutation = item.mutations[0]
            found.append(
                Outcome(
                    path=str(mutation.module_path),
                    line=mutation.start_pos[0],
                    operator=mutation.operator_name,
                    killed=bool(result.is_killed),
                    diff=result.diff or "",
                )
            )
    return sorted(found, key=lambda o: (o.path, o.line, o.operator)), pending


def cmd_report(args: argparse.Namespace) -> int:
    config = wings_config()
    seed = int(getattr(args, "seed", None) or config["defaults"]["seed"])
    session = session_path(args.wing, git("rev-parse", "HEAD"), seed)
    if not session.exists():
        session = latest_session(args.wing, seed)
    found, pending = outcomes(session)
    listed = equivalents()
    killed = sum(o.killed for o in found)
    survivors = [o for o in found if not o.killed]
    equivalent = [o for o in survivors if (o.path, o.line, o.operator) in listed]
    judged = len(found) - len(equivalent)
    score = killed / judged if judged else 0.0
    print(f"{args.wing} ({session.name}): {len(found)} mutants run, {pending} pending")
    print(f"  killed {killed}, survived {len(survivors)} ({len(equivalent)} equivalent)")
    print(f"  score {killed}/{judged} = {score:.1%} of the non-equivalent mutants")
    for outcome in survivors:
        reason = listed.get((outcome.path, outcome.line, outcome.operator))
        head = f"{outcome.path}:{outcome.line} {outcome.operator}"
        print(f"\n  {'equivalent' if reason else 'SURVIVED'}: {head}" + (f"\n    {reason}" if reason else ""))
        if not reason and args.diffs:
            print("    " + "\n    ".join(line for line in outcome.diff.splitlines() if line[:1] in "+-"))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    mapping = commands.add_parser("map", help="the coverage map of a wing: which tests run which lines")
    mapping.add_argument("wing", choices=sorted(wings_config()["wings"]))
    mapping.add_argument("tests", nargs="*", help="test files to (re)map; none: the wing's tests")
    mapping.add_argument("--workers", type=int, default=2)
    mapping.set_defaults(run=cmd_map)
    for name, run in (("run", cmd_run), ("report", cmd_report)):
        sub = commands.add_parser(name)
        sub.add_argument("wing", choices=sorted(wings_config()["wings"]))
        sub.add_argument("--seed", type=int)
        sub.add_argument("--diffs", action="store_true", help="print each survivor's diff")
        if name == "run":
            sub.add_argument("--sample", type=int)
            sub.add_argument("--recheck", action="store_true", help="run the last campaign's survivors again")
            sub.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="mutants run at once (2)")
        sub.set_defaults(run=run)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
