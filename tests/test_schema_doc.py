"""docs/schema.md's column tables are the run table's declaration (reversis_sim.columns.SEAT_TABLE,
PAYMENTS_TABLE), row for row, and the Arrow schema, the engines' blocks and the payments' dtypes follow from it: a
column added or changed in one place and not the others fails here."""

import re
from pathlib import Path

import numpy as np
import pytest

from reversis_sim import columns
from reversis_sim.columns import PAYMENTS_TABLE, SEAT_TABLE

DOC = Path(__file__).resolve().parents[1] / "docs" / "schema.md"


def markdown(table) -> list[str]:
    """The doc's rows of a declared table, as docs/schema.md writes them."""
    return [f"| `{c.name}` | {c.dtype} | {c.unit} | {c.meaning} |" for c in table]


def doc_rows(section: str) -> list[str]:
    part = DOC.read_text().split(section, 1)[1].split("\n## ", 1)[0]
    return [line.replace("|  |", "| |") for line in part.splitlines() if re.match(r"\| `\w+` \|", line)]


@pytest.mark.parametrize("section,table", [("## The seat table", SEAT_TABLE),
                                           ("## The payments table", PAYMENTS_TABLE)], ids=["seat", "payments"])
def test_the_doc_table_is_the_declaration(section, table):
    want = [row.replace("|  |", "| |") for row in markdown(table)]
    got = doc_rows(section)
    assert got == want, "docs/schema.md should read, in '" + section + "':\n" + "\n".join(markdown(table))


def test_the_arrow_schema_follows_the_declaration():
    from reversis_sim.record.schema import ARROW_TYPES, PAYMENTS_SCHEMA, SCHEMA

    for schema, table in ((SCHEMA, SEAT_TABLE), (PAYMENTS_SCHEMA, PAYMENTS_TABLE)):
        assert schema.names == [c.name for c in table]
        assert [f.type for f in schema] == [ARROW_TYPES[c.dtype] for c in table]
        assert not any(f.nullable for f in schema)


def test_the_blocks_follow_the_declaration():
    """Each stored column sits in the block of its dtype, in table order; a chunk's column has that dtype."""
    chunk = columns.empty(2)
    for c in SEAT_TABLE:
        if not c.store:
            continue
        col = chunk.column(c.name)
        assert col.dtype == (np.bool_ if c.dtype == "bool" else np.dtype(c.store)), c.name
        assert (c.name in columns.PER_SEAT) == c.per_seat, c.name
    assert columns.SEAT_COLUMNS == tuple(c.name for c in SEAT_TABLE if c.store)
    assert dict(columns.PAYMENT_COLUMNS) == {c.name: c.store for c in PAYMENTS_TABLE if c.store}
    assert {k: v.dtype for k, v in columns.empty(1, n_payments=1).payments.items()} == \
        {k: np.dtype(v) for k, v in columns.PAYMENT_COLUMNS.items()}
