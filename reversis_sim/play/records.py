"""Deal records kept in a file, read strictly and refereed: what ``replay --record`` and ``review --record`` read.
The file is a games file of ``play --out`` (one RULES.md Appendix A record a line, in the order played;
a folder means its ``games.jsonl``), any JSON Lines file of deal records (``replay`` of a whole match writes one), or
one record as a JSON object (``replay --indent``).

Nothing of a bad file is passed over in silence: a line that is not a deal record is refused with its line number;
only a torn last line (a crash while the line was written; ``play`` flushes each record whole) is left out, and
the reader says so.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..game import MISSING, difference, rules_of
from ..game.vocabulary import FORMAT  # the format a deal record names (RULES.md Appendix A)
from ..reference import settle_record
from ..rules import RulesError
from .session import GAMES, HUMAN


class RecordFileError(ValueError):
    """A file of deal records that cannot be read, or a record that does not replay; its message is one sentence
    naming the file (and the line or record)."""


def read_deal_records(path: Path, *, none_yet: bool = False) -> tuple[list[dict], bool]:
    """The deal records of ``path`` in order, and whether a torn last line was left out. With ``none_yet``, a file
    that does not exist or holds no record yet (a games folder ``play`` has not written to) gives no records
    instead of an error."""
    path = Path(path)
    if path.is_dir():
        path = path / GAMES
    if none_yet and not path.exists():
        return [], False
    if not path.exists():
        raise RecordFileError(f"{path} does not exist: give a file of deal records (a games file of 'play --out', "
                              f"or the output of 'replay')")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordFileError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    lines = [(i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()]
    if len(lines) > 1 and lines[0][1].strip() == "{":  # one record written whole over many lines (replay --indent)
        try:
            whole = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordFileError(f"{path}, line {e.lineno}: not a JSON deal record ({e.msg})") from None
        return [_checked(whole, path, "its record")], False
    out, torn = [], False
    for j, (number, line) in enumerate(lines):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            if j == len(lines) - 1 and not text.endswith("\n"):
                torn = True  # the last line, cut short while it was written
                continue
            raise RecordFileError(f"{path}, line {number}: not a JSON deal record ({e.msg} at column {e.colno})") \
                from None
        out.append(_checked(record, path, f"line {number}"))
    if not out and not none_yet:
        raise RecordFileError(f"{path} holds no deal record")
    return out, torn


def read_games(folder: Path) -> list[dict]:
    """The deals kept in a games folder of ``play --out`` (or its games file), in the order played: none while it
    keeps none yet, a torn last line left out (a crash while it was written); any other line that is not a deal
    record is a :class:`RecordFileError`, never passed over."""
    return read_deal_records(folder, none_yet=True)[0]


def _checked(record: object, path: Path, where: str) -> dict:
    """``record`` if it names the deal record's format and its rules; a sentence otherwise."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordFileError(f"{path}, {where}: not a deal record (a JSON object whose format is {FORMAT!r}, "
                              f"RULES.md Appendix A)")
    for field in ("rules", "rules_params", "dealt", "tricks", "result"):
        if field not in record:
            raise RecordFileError(f"{path}, {where}: the deal record has no {field!r}")
    return record


def refereed(record: dict, where: str) -> dict:
    """``record`` once the reference engine has played its cards again and settled every chip the same (A:
    the audit trail); otherwise a sentence naming ``where`` and the first field that differs, or the illegal
    play."""
    try:
        rules = rules_of(record)
        again = settle_record(record, rules)
    except (RulesError, TypeError, KeyError) as e:
        raise RecordFileError(f"{where}: its rules cannot be read ({e})") from None
    except (ValueError, IndexError) as e:  # an illegal play (IllegalPlay), a card not in the hand
        raise RecordFileError(f"{where} does not replay: {e}") from None
    if again != record:
        path, mine, theirs = difference(record, again)
        raise RecordFileError(f"{where} does not replay: its {path} is not what the reference engine settles from "
                              f"its cards ({_shown(mine)} recorded, {_shown(theirs)} settled)")
    return record


def _shown(value) -> str:
    """A value of a record in a sentence: its JSON, cut short past 80 characters; ``nothing`` where it is missing."""
    if value is MISSING:
        return "nothing"
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def people(record: dict) -> list[int]:
    """The seats a person played (named ``human``); every seat where the bots played them all."""
    mine = [s for s, name in enumerate(record["seats"]) if name == HUMAN]
    return mine or list(range(len(record["seats"])))
