"""The command reference (``docs/reference/commands.md``), written from the CLI itself: every
command and subcommand, its arguments and options (type, default, help) and its exit codes.

``python scripts/docs_reference.py`` rewrites the page; ``tests/test_docs.py`` fails when the page
and the CLI disagree.

>>> text = commands_markdown()
>>> "## minttt verify" in text and "`--move-timeout`" in text
True
"""

from __future__ import annotations

from typing import Any

import typer

from minttt.cli import build_app

# when a command exits 1 (the contract: 1 only for a defect found); every command exits 0 on
# success, 2 for bad input in one line, 130 on Ctrl-C and 143 on SIGTERM with no result written
EXIT_ONE = {
    "verify": "the table or player fails: the first counterexample is printed",
    "check-proof": "the proof is invalid (the first lemma that fails is named)",
    "evolve": "no strategy that loses no game within the budget (nothing written to `--out`)",
    "certify": "a proof fails its check or a table fails verification (nothing written)",
    "solve": "a solver's table fails its own check (a defect of minttt, never seen)",
    "reproduce": "a computed result fails its own check (nothing written)",
    "recheck": "a record fails its recheck (its CNF or proof; the results file says which)",
}
INTRO = """# Commands

Every command of `minttt`, written from the command line itself (`python
scripts/docs_reference.py`; a test keeps this page in step). Each follows one contract: exit 0 on
success; 1 only for a defect found (below, where a command can find one); 2 for bad input, an
argument or a path, as one line on stderr with no traceback; 130 on Ctrl-C and 143 on SIGTERM, with
no result written. See [errors and limits](errors.md). Every command takes `-h` (or `--help`);
cells are numbered 0-8 (0..N-1 on a larger board), row by row from the top left, everywhere; a
command that writes a file says so (`wrote PATH`).
"""


def _kind(param: Any) -> str:
    if param.metavar:
        return str(param.metavar)
    name = type(param.type).__name__.replace("ParamType", "").lower()
    return {"string": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "", "path": "PATH",
            "func": "VALUE", "choice": "CHOICE"}.get(name, name.upper())  # fmt: skip


def _row(param: Any) -> str:
    if param.param_type_name == "argument":
        flags = f"`{param.human_readable_name}`"
    else:
        flags = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
    default = param.default
    shown = "" if default is None or default is False or param.required else f"`{default}`"
    helptext = " ".join(str(getattr(param, "help", "") or "").split()).replace("|", "\\|")
    kind = _kind(param).replace("|", "\\|")
    return f"| {flags} | {kind} | {shown} | {helptext} |"


def _command(path: str, command: Any) -> list[str]:
    doc = (command.help or "").strip()
    summary, _, details = doc.partition("\n\n")
    lines = [f"## {path}", "", " ".join(summary.split())]
    if details:
        lines += ["", " ".join(details.split())]
    # an old spelling kept for a release is hidden from --help, and from this page
    params = [p for p in command.params if p.name != "help" and not getattr(p, "hidden", False)]
    if params:
        lines += ["", "| argument / option | value | default | |", "| --- | --- | --- | --- |"]
        lines += [_row(p) for p in params]
    name = path.split()[-1]
    if name in EXIT_ONE:
        lines += ["", f"Exit 1: {EXIT_ONE[name]}."]
    return lines + [""]


def commands_markdown() -> str:
    """The page: the intro, then one section per command (subcommands under their group)."""
    root = typer.main.get_command(build_app())
    lines = [INTRO, *_command("minttt", root)]  # --version, shell completion
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for sub, subcommand in subcommands.items():
                lines += _command(f"minttt {name} {sub}", subcommand)
        else:
            lines += _command(f"minttt {name}", command)
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["EXIT_ONE", "commands_markdown"]
