"""`transpile lint`: the command line. `main(argv)` takes the arguments after the word `lint`.

Exit status: 0 when clean, 1 when findings remain (or `--diff` has changes to show), 2 on a
usage or configuration error.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from .config import ConfigError, LintConfig, find_config, load_config, selectors_of, validate_selectors
from .fixer import unified_diff
from .reporters import FORMATS, MACHINE_FORMATS, statistics, summary
from .rules import ALL_RULES, KNOWN_CODES, find_rule
from .runner import FileResult, Job, process_source, read_source, run, write_fixed
from .walk import Walker

USAGE_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="transpile lint",
        description="Find code that jit tracing would reject, before anything runs.",
        epilog="Rules: transpile lint --list-rules; details: transpile lint --explain TP101.",
    )
    parser.add_argument("paths", nargs="*", help="files or folders to lint (default: .); '-' reads stdin")
    output = parser.add_argument_group("output")
    output.add_argument("--format", "--output-format", dest="format", choices=sorted(FORMATS), default="text")
    output.add_argument("--statistics", action="store_true", help="count findings per rule instead")
    output.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    output.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    rules = parser.add_argument_group("rule selection")
    rules.add_argument("--select", type=_codes, help="comma-separated codes or prefixes (replaces config)")
    rules.add_argument("--extend-select", type=_codes, default=(), help="add to the selection")
    rules.add_argument("--ignore", type=_codes, default=(), help="comma-separated codes or prefixes to skip")
    rules.add_argument("--max-unroll", type=int, help="TP403: largest Python loop trip count allowed")
    fixing = parser.add_argument_group("fixes")
    fixing.add_argument("--fix", action="store_true", help="apply safe fixes")
    fixing.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes (implies --fix)")
    fixing.add_argument("--diff", action="store_true", help="show the fixes as a diff, write nothing")
    files = parser.add_argument_group("files and configuration")
    files.add_argument("--config", help="pyproject.toml to read [tool.transpile.lint] from")
    files.add_argument("--isolated", action="store_true", help="ignore configuration files")
    files.add_argument("--exclude", type=_codes, help="glob patterns to skip (replaces config)")
    files.add_argument("--extend-exclude", type=_codes, default=(), help="glob patterns to skip as well")
    files.add_argument("--no-respect-gitignore", dest="respect_gitignore", action="store_false", default=None)
    files.add_argument("--stdin-filename", help="the path to report for code read from stdin")
    files.add_argument("--jobs", type=int, help="worker processes (default: by tree size)")
    info = parser.add_argument_group("information")
    info.add_argument("--explain", metavar="CODE", help="print a rule's documentation and exit")
    info.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    return parser


def _codes(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse reports its own errors (status 2) and --help (0)
        return stop.code if isinstance(stop.code, int) else USAGE_ERROR
    try:
        return _dispatch(args)
    except ConfigError as error:
        print(f"transpile lint: error: {error}", file=sys.stderr)
        return USAGE_ERROR


def _dispatch(args: argparse.Namespace) -> int:
    if args.explain:
        return _explain(args.explain)
    if args.list_rules:
        return _list_rules()
    paths = args.paths or ["."]
    missing = [p for p in paths if p != "-" and not Path(p).exists()]
    if missing:
        raise ConfigError(f"no such file or directory: {', '.join(missing)}")
    config = _configure(args, paths)
    return _lint(args, config, paths)


def _explain(code: str) -> int:
    rule = find_rule(code)
    if rule is None:
        print(f"transpile lint: error: unknown rule {code!r} (see --list-rules)", file=sys.stderr)
        return USAGE_ERROR
    print(rule.documentation(), end="")
    return 0


def _list_rules() -> int:
    for rule in ALL_RULES:
        print(f"{rule.code}  {rule.name:<28} fix: {rule.fix:<9} {rule.summary}")
    print("E999  syntax-error                 fix: none      the file does not parse")
    return 0


def _configure(args: argparse.Namespace, paths: list[str]) -> LintConfig:
    if args.isolated:
        config = LintConfig()
    elif args.config:
        pyproject = Path(args.config)
        if not pyproject.is_file():
            raise ConfigError(f"config file not found: {pyproject}")
        config = load_config(pyproject)
    else:
        start = Path(args.stdin_filename or paths[0]) if paths[0] == "-" else Path(paths[0])
        config = load_config(find_config(start if start.exists() else Path.cwd()))
    changes: dict = {}
    # As in ruff, a --select on the command line starts the selection afresh: the config's
    # select and ignore lists no longer apply (per-file-ignores still do).
    select, ignore = (args.select, ()) if args.select is not None else (config.select, config.ignore)
    changes["select"] = select + tuple(args.extend_select)
    changes["ignore"] = ignore + tuple(args.ignore)
    if args.max_unroll is not None:
        if args.max_unroll < 0:
            raise ConfigError("--max-unroll must be non-negative")
        changes["max_unroll"] = args.max_unroll
    if args.exclude is not None:
        changes["exclude"] = args.exclude
    changes["extend_exclude"] = config.extend_exclude + tuple(args.extend_exclude)
    if args.respect_gitignore is not None:
        changes["respect_gitignore"] = args.respect_gitignore
    config = replace(config, **changes)
    validate_selectors(selectors_of(config), KNOWN_CODES)
    return config


def _lint(args: argparse.Namespace, config: LintConfig, paths: list[str]) -> int:
    unsafe = args.unsafe_fixes
    job = Job(config, fix=args.fix or unsafe or args.diff, unsafe=unsafe)
    walker = Walker(config.exclude + config.extend_exclude, config.root, config.respect_gitignore)
    files = [str(p) for p in walker.files(Path(p) for p in paths if p != "-")]
    results = run(files, job, args.jobs)
    if "-" in paths:
        results.append(_stdin_result(args, job))
    for result in results:
        for warning in result.warnings:
            print(f"transpile lint: warning: {warning}", file=sys.stderr)
    if args.diff:
        return _show_diffs(results)
    if job.fix:
        _write(results, "-" in paths)
    return _report(args, results, unsafe)


def _stdin_result(args: argparse.Namespace, job: Job) -> FileResult:
    source, _ = read_source(sys.stdin.buffer.read())
    return process_source(args.stdin_filename or "-", source, job)


def _write(results: list[FileResult], from_stdin: bool) -> None:
    for result in results:
        if from_stdin and result is results[-1]:
            sys.stdout.write(result.fixed if result.fixed is not None else result.source)
        else:
            write_fixed(result)


def _show_diffs(results: list[FileResult]) -> int:
    changed = 0
    for result in results:
        if result.fixed is not None:
            sys.stdout.write(unified_diff(result.source, result.fixed, result.path))
            changed += result.applied
    print(f"Would fix {changed} error{'' if changed == 1 else 's'}.", file=sys.stderr)
    return 1 if changed else 0


def _report(args: argparse.Namespace, results: list[FileResult], unsafe: bool) -> int:
    findings = sorted((f for r in results for f in r.findings), key=lambda f: f.sort_key())
    fixed = sum(r.applied for r in results)
    # With fixed code on stdout, findings go to stderr so they do not mix with it.
    out = sys.stderr if "-" in (args.paths or []) and (args.fix or unsafe) else sys.stdout
    if args.statistics:
        out.write(statistics(findings))
    else:
        sources = {r.path: r.source for r in results} if args.format == "full" else {}
        out.write(FORMATS[args.format](findings, sources, unsafe))
    if args.format not in MACHINE_FORMATS and not args.quiet:
        out.write(summary(findings, unsafe, fixed))
    return 1 if findings and not args.exit_zero else 0
