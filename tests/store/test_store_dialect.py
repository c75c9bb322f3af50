"""The dialect layer: SQLite's SQL text turned into PostgreSQL's (bot/store/dialect.py)."""

from __future__ import annotations

import pytest

from bot.store.dialect import POSTGRES_NOW, SQLITE_NOW, arguments, translate


def test_positional_parameters_are_numbered_in_order() -> None:
    translated = translate("SELECT * FROM rolls WHERE id = ? AND roller_id = ?")

    assert translated.sql == "SELECT * FROM rolls WHERE id = $1 AND roller_id = $2"
    assert translated.names is None
    assert arguments(translated, (7, 8)) == [7, 8]


def test_named_parameters_are_numbered_once_each_and_laid_out_by_name() -> None:
    translated = translate("INSERT INTO t (a, b) VALUES (:a, :b) ON CONFLICT DO UPDATE SET a = :a")

    assert translated.sql == "INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT DO UPDATE SET a = $1"
    assert arguments(translated, {"b": 2, "a": 1, "unused": 3}) == [1, 2]


def test_quoted_text_and_casts_are_kept() -> None:
    translated = translate(
        "SELECT '?', 'it''s :x', \"odd?name\", x::text FROM t WHERE a = ? AND b = '%H:%M'"
    )

    assert translated.sql == (
        "SELECT '?', 'it''s :x', \"odd?name\", x::text FROM t WHERE a = $1 AND b = '%H:%M'"
    )


def test_the_time_stamp_becomes_postgresqls_same_text() -> None:
    translated = translate("UPDATE t SET updated_at = %s WHERE id = ?".replace("%s", SQLITE_NOW))

    expected = "UPDATE t SET updated_at = %s WHERE id = $1".replace("%s", POSTGRES_NOW)
    assert translated.sql == expected


def test_a_set_of_ids_given_as_a_json_array_is_read_by_postgresqls_json_function() -> None:
    """SQLite's ``json_each(?)`` has no PostgreSQL twin of the same name: a set of ids
    (one parameter, a JSON array, so the text is literal whatever the count) is read
    with ``json_array_elements_text``, as BIGINT, its parameter numbered in its place."""
    translated = translate(
        "SELECT * FROM t WHERE a = ? AND id IN (SELECT value FROM json_each(?)) AND b = ?"
    )

    assert translated.sql == (
        "SELECT * FROM t WHERE a = $1 AND id IN (SELECT CAST(value AS BIGINT) FROM"
        " json_array_elements_text(CAST($2 AS json))) AND b = $3"
    )


def test_a_parameter_only_tested_for_null_is_given_as_text() -> None:
    translated = translate("SELECT * FROM t WHERE (? IS NULL OR roller_id = ?)")

    assert translated.sql == "SELECT * FROM t WHERE ($1::text IS NULL OR roller_id = $2)"
    assert arguments(translated, (None, None)) == [None, None]
    assert arguments(translated, (42, 42)) == ["-", 42]


def test_positional_and_named_parameters_do_not_mix() -> None:
    with pytest.raises(ValueError, match="not both"):
        translate("SELECT ? , :name")


def test_text_ordered_by_code_point_is_so_whatever_the_servers_collation() -> None:
    """SQLite's ``COLLATE BINARY`` (code points) is PostgreSQL's ``COLLATE "C"``, which no
    database's own collation (en_US, ICU) changes."""
    translated = translate("SELECT name FROM t WHERE a = ? ORDER BY name_key COLLATE BINARY, id")

    assert translated.sql == 'SELECT name FROM t WHERE a = $1 ORDER BY name_key COLLATE "C", id'
