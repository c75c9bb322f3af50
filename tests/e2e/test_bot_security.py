"""Security through the real bot and its source.

- Every Storyteller and admin command, and every button that is not the
  member's, is refused to a plain member with an ephemeral message and
  changes nothing. Discord's ``default_member_permissions`` only hides a
  command, and a server admin can undo that, so the fake lets anyone invoke
  anything: the bot's own checks are what is proved. A new command fails
  :func:`test_every_command_is_either_restricted_or_open_to_players` until it
  is classified here.
- No message the bot sends can ping: hostile names and labels (``@everyone``,
  ``@here``, role and user mentions) go through every kind of reply.
- SQL is only ever literal text with parameters (an AST check of bot/store/).
- The token never appears in the bot's output or in any message, at DEBUG
  level, through errors and faults, nor when start-up fails.
"""

from __future__ import annotations

import ast
import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.bot_fixtures import ADMIN, BOT, STORYTELLER, Table, ask, faces
from tests.e2e.db_probe import messages_remembered, table_state
from tests.e2e.harness import BotProcess, FakeDiscord, Message, Role, StartBot

REPO = Path(__file__).resolve().parents[2]
#: A token that cannot occur by chance in any output.
SECRET_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gsecret.token-that-must-never-be-seen-0123456789"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord of conftest.py, with a recognisable token."""
    server = FakeDiscord(token=SECRET_TOKEN)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    if server.failures:
        pytest.fail(
            "fake Discord recorded failures:\n"
            + "\n".join(f"  {failure}" for failure in server.failures),
            pytrace=False,
        )


def output(bot: BotProcess) -> str:
    return bot.stdout_path.read_text(errors="replace") + bot.stderr_path.read_text(
        errors="replace"
    )


def all_messages(fake: FakeDiscord) -> list[Message]:
    """Every message the bot sent anywhere, ephemeral ones included."""
    return [message for channel in fake.channels.values() for message in fake.messages(channel)]


# --- restricted commands and buttons --------------------------------------------------------


@dataclass(frozen=True)
class Restricted:
    """A command that must be refused to a plain member, and a word the refusal says."""

    path: str
    options: dict[str, Any]
    refusal: str


def restricted_commands(table: Table, role: Role) -> list[Restricted]:
    """In an order where each, done by an admin after the others, still changes something."""
    storyteller = "Only the Storyteller"
    return [
        Restricted("turn next", {}, storyteller),
        Restricted("scene end", {}, storyteller),
        Restricted("will gain", {"member": table.bob, "amount": 2}, storyteller),
        Restricted("night", {}, storyteller),
        Restricted("history", {"void": 1}, storyteller),
        Restricted("config ruleset", {"ruleset": "v20"}, "Manage Channels"),
        Restricted("config ruleset", {"ruleset": "v20", "scope": "server"}, "Manage Server"),
        Restricted("config set", {"option": "pressure", "value": "off"}, "Manage Channels"),
        Restricted("config storyteller", {"role": role}, "Manage Server"),
        Restricted("init start", {}, storyteller),
        Restricted("init add", {"name": "Orc", "value": "3"}, storyteller),
        Restricted("init remove", {"name": "Orc"}, storyteller),
        Restricted("init end", {}, storyteller),
    ]


#: Commands any player may use (what they do is checked per member inside: an action's
#: owner or the Storyteller, the roller of a roll, the opponent of a contest).
OPEN_TO_PLAYERS = frozenset(
    {
        "roll", "odds", "help", "history", "multi", "contest",
        "will show", "will set", "will rest", "config show",
        "extended start", "extended roll", "extended list", "extended abandon",
        "teamwork start", "teamwork help", "teamwork roll", "teamwork cancel",
        "init join", "init next",
        # a member's own sheets; npc and others' sheets are checked inside (flow tests)
        "character create", "character set", "character specialty", "character condition",
        "character show", "character use", "character list", "character rename",
        "character delete", "character export", "character import",
        "stats",
        # a member's own saved rolls (per member per server)
        "saved add", "saved roll", "saved list", "saved delete",
    }
)


def synced_paths(fake: FakeDiscord) -> set[str]:
    """Every invocable command path the bot synced (``"config set"``, ``"roll"``, …)."""

    def walk(prefix: str, options: list[dict[str, Any]]) -> Iterator[str]:
        subcommands = [option for option in options if option["type"] in (1, 2)]
        if not subcommands:
            yield prefix
        for option in subcommands:
            yield from walk(f"{prefix} {option['name']}", option.get("options", []))

    return {
        path for command in fake.guild_commands
        for path in walk(command["name"], command.get("options", []))
    }


async def prepared_table(fake: FakeDiscord, table: Table, start_bot: StartBot) -> BotProcess:
    """A table where every restricted command would change something if it were allowed:
    open labelled failures (successive attempts), a Will pool below its maximum (and a die
    for the NPC an admin adds to the initiative tracker)."""
    bot = await start_bot(BOT, env_extra=faces([3, 4, 2, 5, 6]))
    await ask(table.bob, table.channel, "will set", max=5, current=1)
    await ask(table.ada, table.channel, "roll", pool="2", label="pick the lock")
    await ask(table.bob, table.channel, "roll", pool="2", label="climb")
    return bot


async def test_every_command_is_either_restricted_or_open_to_players(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    await start_bot(BOT)
    role = fake.add_role("Narrators")
    restricted = {command.path for command in restricted_commands(table, role)} - {"history"}

    unclassified = synced_paths(fake) - restricted - OPEN_TO_PLAYERS

    assert not unclassified, f"classify these commands in {Path(__file__).name}: {unclassified}"
    assert restricted <= synced_paths(fake)


def synced_descriptions(fake: FakeDiscord) -> dict[str, str]:
    """Every invocable command path the bot synced, with its description."""

    def walk(prefix: str, entry: dict[str, Any]) -> Iterator[tuple[str, str]]:
        subcommands = [option for option in entry.get("options", []) if option["type"] in (1, 2)]
        if not subcommands:
            yield prefix, entry["description"]
        for option in subcommands:
            yield from walk(f"{prefix} {option['name']}", option)

    return {
        path: text for command in fake.guild_commands
        for path, text in walk(command["name"], command)
    }


async def test_the_gating_rule_every_command_is_visible_and_restricted_ones_say_whose(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    """One rule for every command: nothing is hidden by Discord's permissions (the
    Storyteller is a role the bot knows, which Discord cannot express, and players read
    `/config show`); a restricted command says whose it is in its description and is
    refused at run time (the test below)."""
    await start_bot(BOT)
    role = fake.add_role("Narrators")
    restricted = {command.path for command in restricted_commands(table, role)} - {"history"}
    descriptions = synced_descriptions(fake)

    hidden = [c["name"] for c in fake.guild_commands if c.get("default_member_permissions")]
    assert hidden == []
    for path, text in descriptions.items():
        says_whose = text.startswith(("Storyteller:", "Admin:"))
        assert says_whose == (path in restricted), (path, text)


async def test_every_storyteller_and_admin_command_is_refused_to_a_plain_member(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    role = fake.add_role("Narrators")
    bot = await prepared_table(fake, table, start_bot)
    public_before = len(fake.messages(table.channel, visible_to=table.bob))
    before = table_state(bot.db_path)

    for command in restricted_commands(table, role):
        reply = await ask(table.ada, table.channel, command.path, **command.options)

        assert reply.ephemeral, command
        assert command.refusal in reply.text, (command, reply.text)
        assert table_state(bot.db_path) == before, command
    assert len(fake.messages(table.channel, visible_to=table.bob)) == public_before

    for command in restricted_commands(table, role):  # what the refusals prevented
        await ask(table.admin, table.channel, command.path, **command.options)
        after = table_state(bot.db_path)
        assert after != before, f"{command} by an admin changes something"
        before = after


async def test_a_role_that_is_not_the_storyteller_role_grants_nothing(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    narrators = fake.add_role("Narrators")
    players = fake.add_role("Players")
    member = fake.add_member("Carol", roles=[players])
    bot = await prepared_table(fake, table, start_bot)
    await ask(table.admin, table.channel, "config storyteller", role=narrators)
    before = table_state(bot.db_path)

    replies = [
        await ask(member, table.channel, path) for path in ("scene end", "turn next", "night")
    ]

    assert all(reply.ephemeral and "Only the Storyteller" in reply.text for reply in replies)
    assert table_state(bot.db_path) == before


async def test_every_button_on_someone_elses_roll_is_refused_and_changes_nothing(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    bot = await prepared_table(fake, table, start_bot)
    roll = next(
        message for message in fake.messages(table.channel) if "pick the lock" in message.text
    )
    labels = [button["label"] for button in roll.buttons]
    assert labels == ["Spend Will", "Take a Beat", "Try again", "Save this roll"]
    before = table_state(bot.db_path)

    for label in labels:
        for member in (table.bob, table.storyteller, table.admin):
            refusal = await (await member.click(roll, label=label)).reply()

            assert refusal.ephemeral, (label, member)
            assert "Only the member who made this roll" in refusal.text
    assert table_state(bot.db_path) == before
    assert roll.edits == 0


#: Buttons any member may press on someone else's card (Help opens a form for the helper).
FOR_ANYONE = frozenset({"Help"})


async def test_every_button_on_someone_elses_action_is_refused_and_changes_nothing(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    carol = fake.add_member("Carol")
    bot = await start_bot(BOT, dice_seed=4)
    cards = [
        await ask(table.ada, table.channel, path, **options)
        for path, options in (
            ("extended start", {"pool": "3", "target": 5, "label": "pick the lock"}),
            ("teamwork start", {"pool": "3", "label": "lift the gate"}),
            ("contest", {"pool": "3", "opponent": carol}),
        )
    ]
    before = table_state(bot.db_path)

    pressed = []
    for card in cards:
        for button in card.buttons:
            if button["label"] in FOR_ANYONE:
                continue
            refusal = await (await table.bob.click(card, custom_id=button["custom_id"])).reply()
            pressed.append(button["label"])

            assert refusal.ephemeral, button
            assert "Only" in refusal.text, (button, refusal.text)
    assert {"Roll", "Abandon", "Cancel", "Roll to resist"} <= set(pressed)
    assert table_state(bot.db_path) == before
    assert all(card.edits == 0 for card in cards)


# --- nothing pings --------------------------------------------------------------------------


HOSTILE = "@everyone @here <@&{role}> <@{user}>"


def could_ping(message: Message) -> bool:
    """Whether Discord would notify anyone for this message's text.

    Only the content can ping (embeds never do); it pings unless the message was sent
    with ``allowed_mentions`` that parse nothing and list no users or roles."""
    if not message.content:
        return False
    allowed = message.allowed_mentions
    if allowed is None:
        return True
    return bool(allowed.get("parse") or allowed.get("users") or allowed.get("roles"))


async def test_no_message_can_ping_whatever_names_and_labels_say(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    role = fake.add_role("@everyone <@&1>")
    channel = fake.add_channel("table")
    storyteller_channel = fake.add_channel("storyteller")
    target = fake.add_member("target")
    hostile = HOSTILE.format(role=role.id, user=target.id)
    mallory = fake.add_member(f"{hostile} Mallory"[:32])
    admin = fake.add_member(hostile[:32], permissions=ADMIN)
    storyteller = fake.add_member("@here", permissions=STORYTELLER)
    await start_bot(BOT, env_extra=faces([3, 4, 9, 9, 2, 8, 8, 8, 2, 3, 5, 5]))

    await ask(admin, channel, "config storyteller", role=role, channel=storyteller_channel)
    await ask(admin, channel, "config set", option="dice_order", value=hostile[:20])
    await ask(mallory, channel, "will set", max=3, current=1)
    await ask(storyteller, channel, "will gain", member=mallory, amount=1)
    roll = await ask(mallory, channel, "roll", pool="Sneak 2", label=hostile)
    await (await mallory.click(roll, label="Spend Will")).reply()
    await ask(mallory, channel, "roll", pool="2", label=hostile)
    await roll.wait_for(lambda message: message.edits >= 1)  # updated by Spend Will
    refused = await ask(mallory, channel, "roll", pool=hostile)
    secret = await mallory.slash(channel, "roll", pool="2", label=hostile, private=True)
    await secret.followup()
    await fake.wait_for_message(storyteller_channel, lambda message: bool(message.embeds))
    for path in ("history", "will show", "config show", "help"):
        await ask(mallory, channel, path)
    await ask(storyteller, channel, "will show", member=mallory)
    await ask(storyteller, channel, "scene end")

    sent = all_messages(fake)
    assert refused.ephemeral
    assert any(f"<@&{role.id}>" in message.content for message in sent), "a mention was sent"
    pinging = [message for message in sent if could_ping(message)]
    assert not pinging, pinging


def test_could_ping_recognises_a_message_that_pings(fake: FakeDiscord) -> None:
    def message(content: str, allowed: dict[str, Any] | None) -> Message:
        return Message(
            fake.changes, 1, 2, 3, {}, content=content, allowed_mentions=allowed
        )

    assert could_ping(message("@everyone", None))
    assert could_ping(message("<@1>", {"parse": ["users"]}))
    assert could_ping(message("<@&1>", {"parse": [], "roles": ["1"]}))
    assert not could_ping(message("@everyone", {"parse": []}))
    assert not could_ping(message("", None))


# --- SQL only with parameters ---------------------------------------------------------------

STORE = REPO / "bot" / "store"
#: Calls whose first argument is SQL text.
SQL_CALLS = frozenset(
    {"execute", "execute_fetchall", "executemany", "executescript", "execute_insert",
     "_run", "_one", "_all", "_returning", "_expected"}
)
#: Where SQL text legitimately arrives in a variable: (file, function, variable) and why.
PASSED_THROUGH = {
    ("repository.py", "_one", "sql"): "the helpers pass their caller's SQL on",
    ("repository.py", "_all", "sql"): "the helpers pass their caller's SQL on",
    ("repository.py", "_run", "sql"): "the helpers pass their caller's SQL on",
    ("repository.py", "_returning", "sql"): "the helpers pass their caller's SQL on",
    ("repository.py", "_do", "sql"): "the helpers pass their caller's SQL on",
    ("repository.py", "_changes_one", "sql"): "the helpers pass their caller's SQL on",
    ("repository.py", "_expected", "sql"): "the helpers pass their caller's SQL on",
    ("repository.py", "_joined", "sql"): "Queries' SQL, each literal where it is built",
    ("attempts.py", "standing", "query.sql"): "a Query's SQL, literal where it is built",
    ("attempts.py", "owner_failures", "query.sql"): "a Query's SQL, literal where it is built",
    ("rolls.py", "void", "query.sql"): "a Query's SQL, literal where it is built",
    ("repository.py", "_read", "query.sql"): "a Query's SQL, literal where it is built",
    ("repository.py", "_read_rows", "query.sql"): "a Query's SQL, literal where it is built",
    ("settings.py", "_levels", "query.sql"): "a Query's SQL, literal where it is built",
    ("postgres.py", "changes_one", "sql"): "a repository's literal SQL, passed on",
    ("rolls.py", "insert", "_INSERT"): "literal text, shared with close_and_insert (rolls.py)",
    ("rolls.py", "close", "_CLOSE_RETURNING"): "literal text, shared with close_and_insert",
    ("rolls.py", "close_and_insert", "_CLOSE_AND_INSERT"): "literal text: _CLOSE and _INSERT",
    ("stats.py", "_tally", "TALLY"): "literal text: the roll's values joined to its levels",
    ("stats.py", "_shape", "SHAPES"): "literal text: the roll's shape joined to its levels",
    ("stats.py", "samples_query", "statement"): (
        "a Query of literal text, a tally and a shape read per part"
    ),
    ("postgres.py", "_holding", "prepare"): (
        "PREPARE of a repository's literal SQL, translated, named by the store"
    ),
    ("store.py", "_transaction", "begin"): "BEGIN or BEGIN IMMEDIATE, chosen by the caller",
    ("migrations.py", "_apply", "statement"): "a statement of a migration file in the repo",
    ("postgres.py", "run", "statement"): "COMMIT, chosen by the store",
    ("postgres.py", "open", "script"): "a worker's BEGIN (READ or WRITE), after COMMIT or ROLLBACK",
    ("postgres.py", "_status", "sql"): "a repository's literal SQL, translated (dialect.py)",
    ("postgres.py", "_many", "sql"): "a repository's literal SQL, translated (dialect.py)",
    ("postgres.py", "send", "text"): (
        "repositories' literal SQL, translated, with parameters written in by literal()"
    ),
    ("postgres.py", "_apply", "script"): "a migration file in the repo (migrations/postgres)",
}


def _is_literal(node: ast.expr) -> bool:
    """Literal text: a string constant, or literals joined with ``+``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_literal(node.left) and _is_literal(node.right)
    return False


def _sql_argument(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((keyword.value for keyword in call.keywords if keyword.arg == "sql"), None)


def sql_problems(source: str, filename: str) -> list[str]:
    """Every SQL call whose text is not literal (nor a known pass-through)."""
    problems: list[str] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = (
                child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                else function
            )
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Name)
                and child.func.id == "Query"
                and not (child.args and (_is_literal(child.args[0]) or (
                    isinstance(child.args[0], ast.Name | ast.Attribute)
                    and (filename, function, ast.unparse(child.args[0])) in PASSED_THROUGH
                )))
            ):
                problems.append(f"{filename}:{child.lineno} Query(...) of text not literal")
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr in SQL_CALLS
            ):
                sql = _sql_argument(child)
                passed = (
                    isinstance(sql, ast.Name | ast.Attribute)
                    and (filename, function, ast.unparse(sql)) in PASSED_THROUGH
                )
                if sql is None or not (_is_literal(sql) or passed):
                    text = ast.unparse(sql) if sql is not None else "(no SQL)"
                    problems.append(f"{filename}:{child.lineno} {child.func.attr}({text}, ...)")
            visit(child, inner)

    visit(ast.parse(source), "")
    return problems


def _calls_of(function: str) -> Iterator[tuple[str, ast.Call]]:
    for path in sorted(STORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else (
                    node.func.id if isinstance(node.func, ast.Name) else ""
                )
                if name == function:
                    yield path.name, node


def test_the_store_runs_only_literal_sql_with_parameters() -> None:
    problems = [
        problem
        for path in sorted(STORE.glob("*.py"))
        for problem in sql_problems(path.read_text(encoding="utf-8"), path.name)
    ]

    assert not problems, problems


def test_the_begin_statements_passed_to_the_store_are_literal() -> None:
    calls = [call for _, call in _calls_of("_in_thread")]

    assert calls, "the store opens its transactions through _in_thread"
    assert all(_is_literal(call.args[0]) for call in calls), [
        ast.unparse(call) for call in calls
    ]


def test_every_pass_through_is_still_in_the_code() -> None:
    for filename, function, variable in PASSED_THROUGH:
        tree = ast.parse((STORE / filename).read_text(encoding="utf-8"))
        functions = [
            node for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == function
        ]
        assert functions, (filename, function)
        names = {
            ast.unparse(node) for node in ast.walk(functions[0])
            if isinstance(node, ast.Name | ast.Attribute)
        }
        assert variable in names, (filename, function, variable)


@pytest.mark.parametrize(
    "statement",
    [
        'conn.execute(f"SELECT * FROM rolls WHERE id = {roll_id}")',
        'self._one("SELECT * FROM rolls WHERE id = %s" % roll_id)',
        'self._all("SELECT * FROM rolls WHERE label = {}".format(label))',
        'self._run("DELETE FROM rolls WHERE id = " + str(roll_id))',
        'self._returning(sql, (roll_id,))',
        "conn.executescript(script)",
        'Query(f"SELECT * FROM rolls WHERE id = {roll_id}", (), parse)',
        'Query(statement, (), parse)',
        'self._one(other.sql, ())',
    ],
)
def test_the_sql_check_catches_text_built_from_values(statement: str) -> None:
    assert sql_problems(f"async def query():\n    await {statement}\n", "rolls.py")


def test_no_sql_runs_outside_the_store() -> None:
    outside = [
        path for path in sorted((REPO / "bot").rglob("*.py")) if STORE not in path.parents
    ]
    calls = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path in outside
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"execute", "execute_fetchall", "executemany", "executescript"}
    ]
    imports = [
        f"{path.relative_to(REPO)}"
        for path in outside
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (alias.name if isinstance(node, ast.Import) else node.module or "") == "aiosqlite"
            for alias in node.names
        )
    ]

    assert len(outside) > 10
    assert not calls, calls
    assert not imports, imports


# --- the token ------------------------------------------------------------------------------


async def test_the_token_never_appears_in_the_output_or_a_message_at_debug_level(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    # Two faces: the second roll runs out of dice, an unexpected error with a traceback.
    bot = await start_bot(BOT, env_extra=faces([3, 4]) | {"LOG_LEVEL": "DEBUG"})
    roll = await ask(table.ada, table.channel, "roll", pool="2", label="secretive")
    await ask(table.ada, table.channel, "roll", pool="Strength")
    await (await table.bob.click(roll, label="Spend Will")).reply()
    apology = await ask(table.ada, table.channel, "roll", pool="5")
    await messages_remembered(bot.db_path)
    with closing(sqlite3.connect(bot.db_path, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")  # the database error path, logged in detail
        busy = await ask(table.ada, table.channel, "will set", max=3)
        other.execute("ROLLBACK")
    assert await bot.stop() == 0

    logged = output(bot)
    assert " DEBUG " in logged, "the bot logged at DEBUG level"
    assert "Traceback" in logged, "an unexpected error was logged in full"
    assert "database is busy" in busy.text
    assert "went wrong" in apology.text
    assert SECRET_TOKEN not in logged
    assert not [message for message in all_messages(fake) if SECRET_TOKEN in message.text]


async def run_to_the_end(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """Run ``python -m bot`` in ``cwd`` (not the checkout, whose `.env` it would read) until
    it exits by itself; its exit code and all its output."""
    process = await asyncio.create_subprocess_exec(
        *BOT, cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    async with asyncio.timeout(30):
        out, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(errors="replace")


def start_up_env(fake: FakeDiscord, tmp_path: Path, **overrides: str) -> dict[str, str]:
    env = {
        key: value for key, value in os.environ.items()
        if key not in {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "DICE_FACES"}
    }
    return env | {
        "DISCORD_TOKEN": SECRET_TOKEN,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "LOG_LEVEL": "DEBUG",
        "PYTHONUNBUFFERED": "1",
    } | overrides


@pytest.mark.parametrize(
    ("overrides", "said"),
    [
        ({"DISCORD_TOKEN": SECRET_TOKEN + "-revoked"}, "Discord rejected DISCORD_TOKEN"),
        ({"DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}, "127.0.0.1"),
        ({"DATABASE_PATH": "{tmp}"}, "The database cannot be used"),
        ({"DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID"),
    ],
    ids=["rejected", "discord unreachable", "database unusable", "invalid setting"],
)
async def test_the_token_never_appears_when_start_up_fails(
    fake: FakeDiscord, tmp_path: Path, overrides: dict[str, str], said: str
) -> None:
    env = start_up_env(
        fake, tmp_path, **{key: value.format(tmp=tmp_path) for key, value in overrides.items()}
    )

    code, out = await run_to_the_end(env, tmp_path)
    fake.take_failures()  # the rejected token's 401 is what this test provokes

    assert code != 0
    assert said in out
    assert SECRET_TOKEN not in out
