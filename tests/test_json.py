"""Every JSON the toolkit prints is strict JSON (RFC 8259): a number it cannot give (an interval refused for too few
matches, a rate without trials, a variance reduction with nothing to reduce) is null, never a bare NaN or
Infinity, which strict parsers (JavaScript's JSON.parse, jq, most languages' libraries) refuse. Each command's
``--format json`` output is parsed here with a parser that refuses them, on runs small enough that intervals are
refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from reversis_sim.cli import main

SEED = "3"


def strict(text: str):
    """``text`` parsed as JSON, refusing NaN, Infinity and -Infinity as the standard does."""

    def refuse(token: str):
        raise ValueError(f"{token} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """A small run folder (every interval refused: too few matches) and a games folder of kept deals."""
    root = tmp_path_factory.mktemp("json")
    run_dir = root / "run"
    r = CliRunner().invoke(main, ["simulate", "--deals", "2400", "--seed", SEED, "--out", str(run_dir),
                                  "--no-figures", "--quiet"])
    assert r.exit_code == 0, r.output
    games = root / "games"
    games.mkdir()
    r = CliRunner().invoke(main, ["replay", "--seed", SEED, "--match", "0", "--seat", "tuned"])
    (games / "games.jsonl").write_text("\n".join(r.stdout.splitlines()[:2]) + "\n")
    return {"RUN": str(run_dir), "GAMES": str(games), "RECORDS": str(games / "games.jsonl"), "ROOT": str(root)}


COMMANDS = {
    "simulate": ["simulate", "--deals", "2400", "--seed", SEED, "--out", "{ROOT}/sim", "--no-figures", "--quiet"],
    "analyze": ["analyze", "{RUN}", "--hand", "guards"],
    "hands": ["hands", "{RUN}", "--feature", "hearts", "--no-figures"],
    "replay": ["replay", "--seed", SEED, "--match", "1", "--deal", "2"],
    "compare": ["compare", "--candidate", "avoid", "--baseline", "random", "--deals", "240"],
    "compare --sprt": ["compare", "--candidate", "avoid", "--baseline", "random", "--sprt", "--delta", "50",
                       "--deals", "14400", "--batch-deals", "2400"],
    "tournament": ["tournament", "--policy", "avoid", "--policy", "lowest", "--deals", "120"],
    "sweep": ["sweep", "--base", "avoid", "--param", "take=2,20", "--baseline", "avoid", "--deals", "120"],
    "tune": ["tune", "--base", "avoid", "--param", "take=0..8", "--budget-deals", "120000", "--eval-deals", "4800",
             "--confirm-deals", "48000"],
    "best-response": ["best-response", "--field", "lowest", "--param", "take=0..8", "--budget-deals", "120000",
                      "--eval-deals", "4800", "--confirm-deals", "48000"],
    "review": ["review", "--seed", SEED, "--deal", "1", "--worlds", "4", "--luck-samples", "2"],
    "review --policy": ["review", "--policy", "random", "--field", "tuned", "--deals", "24", "--seed", SEED,
                        "--worlds", "4", "--luck-samples", "0", "--out", "{ROOT}/review", "--no-figures",
                        "--quiet"],
    "review --record": ["review", "--record", "{RECORDS}", "--worlds", "4"],
    "play --summary": ["play", "--summary", "--out", "{GAMES}", "--worlds", "4"],
    "play --show": ["play", "--show", "1", "--out", "{GAMES}", "--worlds", "4"],
    "bench": ["bench", "--deals", "1200"],
    "learn": ["learn", "--deals", "480", "--worlds", "2", "--seed", SEED, "--declaration-deals", "0", "--out",
              "{ROOT}/weights.npz"],
    "rules": ["rules", "modern"],
    "policies": ["policies"],
}


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_prints_strict_json(folders, name):
    args = [re.sub(r"\{(\w+)\}", lambda m: folders[m.group(1)], a) for a in COMMANDS[name]]
    r = CliRunner().invoke(main, [*args, "--format", "json"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines() if name in ("review", "review --record", "replay") else [r.stdout]
    for text in lines:
        strict(text)
    assert "NaN" not in r.stdout and "Infinity" not in r.stdout
    if name in ("tune", "best-response"):  # each says what it is (best-response said it was a tune)
        assert json.loads(r.stdout)["kind"] == name


def test_every_command_with_a_json_format_is_covered():
    """A command that gains ``--format json`` is added above."""
    from reversis_sim.cli import main as group

    ctx = group.make_context("reversis-sim", ["--help"], resilient_parsing=True)
    with_json = set()
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        for p in command.params:
            if p.name == "fmt" and "json" in getattr(p.type, "choices", ()):
                with_json.add(name)
    assert with_json <= {n.split()[0] for n in COMMANDS}, with_json - {n.split()[0] for n in COMMANDS}


def test_manifests_written_are_strict_json(folders):
    for path in Path(folders["ROOT"]).rglob("manifest.json"):
        strict(path.read_text())
