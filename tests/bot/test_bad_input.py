"""Bad input everywhere: Hypothesis-generated options for every command, button and form.

Two layers:

- **The command layer, in process** (fast, many examples): any `pool:` text
  through the option's transformer, any option combination through
  ``build_request``, the engine and the roll message (within Discord's
  limits), any `/config set` value through ``parse_option`` and the store's
  model. Each is either accepted or refused with a :class:`UserError`, the
  message the member sees; nothing else may escape.
- **The real bot through the fake Discord** (hundreds of interactions, one bot per
  test, examples fixed so that runs repeat):
  sessions of generated actions: every synced command with generated options
  (players, the Storyteller, an admin, in every ruleset and a thread),
  autocomplete, presses of every button the bot's messages show (own, other
  members', out-of-date ones) and the forms they open, filled with generated
  text.

Through the fake, always: every interaction is acknowledged exactly once within
Discord's 3 s (the fake records a late or second acknowledgement as a failure),
never with the apology for an unexpected error, and the bot logs no traceback.
Every refusal is an ephemeral message, and the database (every table,
bookkeeping columns aside) is exactly as it was before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cogs.rolling import Rolling
from bot.edge.transformers import PoolTransformer
from bot.flows.config import parse_option
from bot.flows.reply import UserError
from bot.flows.rolls import ResistTarget, build_request, resist_option, resisted
from bot.render.messages import APOLOGY
from bot.render.refusals import refusal_text
from bot.render.rolls import roll_embed
from bot.render.state import SETTING_NAMES
from bot.render.state import SETTING_VALUES as SETTABLE
from engine.faces import seeded_faces
from engine.models import Again, RollRequest, Ruleset, SkillCategory, Term
from engine.records import ChannelOption, ChannelSettings, OptionValue
from engine.roll import roll
from tests.e2e.bot_fixtures import ADMIN, BOT, STORYTELLER
from tests.e2e.db_probe import table_state
from tests.e2e.harness import (
    BotProcess,
    Channel,
    FakeDiscord,
    Interaction,
    Member,
    Message,
    Role,
    Upload,
)
from tests.e2e.harness.process import Zygote

#: Wait for one answer (the fake itself refuses acknowledgements later than 3 s).
ANSWER = 5.0

# --- text a member might type ---------------------------------------------------------------

#: Text that reads as a pool or a number, so generated cases also get past the parsing.
plausible = st.one_of(
    st.integers(1, 12).map(str),
    st.builds(
        "{} {} + {} {}".format,
        st.sampled_from(["Strength", "Wits", "Resolve"]), st.integers(0, 5),
        st.sampled_from(["Brawl", "Occult", "Survival"]), st.integers(0, 5),
    ),
)

#: Text that is nearly a pool, so generated cases reach past the first character.
pool_like = st.lists(
    st.sampled_from(
        [
            *"0123456789+-[]() .,",
            *("\u2212", "\u00a0", "\u200b", "٣", "３", "½"),
            *("Strength ", "Brawl ", "Animal Ken ", "100", "99", "101", "0", "-3", "+ 2"),
            *("1" * 25, "@everyone", "<@&1>", "'", '"', "\\", ";"),
        ]
    ),
    min_size=1,
    max_size=40,
).map("".join)

#: Classic trouble: markup, mentions, SQL, numbers out of every range, odd spacing.
hostile = st.sampled_from(
    [
        " ", "0", "-1", "1e9", "NaN", "∞", "99999999999999999999", "-99999999999999999999",
        "@everyone", "@here", "<@&1>", "<@1>", "<#1>", "`", "**", "||x||",
        "'; DROP TABLE rolls; --", "%s", "{}", "{0}", "\\", "\n", "\t7", "7\n8", "\u200b",
        "on", "OFF", "Yes", "sorted", "rolled", "before", "any", "5", "6", " 3 ",
    ]
)


def typed_text(min_size: int = 1, max_size: int = 100) -> st.SearchStrategy[str]:
    anything = st.text(
        st.characters(exclude_categories=["Cs"], exclude_characters="\x00"),
        min_size=min_size,
        max_size=max_size,
    )
    texts = st.one_of(plausible, pool_like, hostile, anything)
    return texts.map(lambda text: text[:max_size]).filter(lambda text: len(text) >= min_size)


# --- the command layer ----------------------------------------------------------------------

ROLL_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    # As the /roll definition lets Discord send them (ranges and choices).
    "will": st.booleans(),
    "again": st.none() | st.sampled_from([again.value for again in Again]),
    "rote": st.booleans(),
    "specialty": st.booleans(),
    "untrained": st.none() | st.sampled_from([category.value for category in SkillCategory]),
    "resist": st.none() | st.integers(0, 100).map(str) | typed_text(max_size=32),
    "resist_target": st.none() | typed_text(max_size=72),
    "extra": st.integers(0, 100),
    "exceptional_at": st.none() | st.integers(1, 10),
    "difficulty": st.none() | st.integers(2, 10),
    "auto": st.booleans(),
    "risky": st.booleans(),
    "initiative": st.booleans(),
    "no_botch": st.booleans(),
    "need": st.none() | st.integers(1, 1000),
}


async def read_pool(text: str) -> tuple[Term, ...] | UserError:
    """The `pool:` option as the command receives it, or the member's refusal."""
    try:
        # The transformer does not look at the interaction.
        return await PoolTransformer().transform(cast("discord.Interaction", None), text)
    except UserError as error:
        return error


def assert_fits_discord(embed: discord.Embed) -> None:
    assert len(embed) <= 6000
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    assert all(len(f.name or "") <= 256 and len(f.value or "") <= 1024 for f in embed.fields)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("3d10", "“3d10” is another dice bot's notation: here every die is a d10 and a pool is"
                 " its number of dice, so write “3”"),
        ("7 dice", "write just the number of dice: “7”"),
    ],
)
async def test_a_newcomers_dice_notation_is_answered_with_what_to_write(
    text: str, says: str
) -> None:
    read = await read_pool(text)

    assert isinstance(read, UserError)
    assert says in str(read)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(pool_like, typed_text(max_size=300)))
async def test_any_pool_text_is_read_or_refused_with_a_message(text: str) -> None:
    read = await read_pool(text)

    if isinstance(read, UserError):
        assert str(read).startswith("I could not read that pool")
    else:
        assert read, "a pool read from text has at least one term"


def request_for(
    ruleset: Ruleset, terms: tuple[Term, ...], options: dict[str, Any]
) -> RollRequest | UserError:
    """As ByName builds it, with no sheet in the server: a named resist or a target is
    refused (their rules: tests/flows/test_resist_flows.py)."""
    given = {k: v for k, v in options.items() if k not in {"resist", "resist_target"}}
    try:
        resist = resist_option(options["resist"])
        if isinstance(resist, int):
            given["resist"] = resist
        request = build_request(ruleset, terms, **given)
        target = options["resist_target"]
        if isinstance(resist, str) or target is not None:
            trait = resist if isinstance(resist, str) else None
            request = resisted(request, trait, None if target is None else ResistTarget.of(target),
                               (), "en")
    except UserError as error:
        return error
    return request


def config_value(option: ChannelOption, text: str) -> OptionValue | UserError:
    try:
        return parse_option(option, text)
    except UserError as error:
        return error


@settings(max_examples=400, deadline=None)
@given(
    text=pool_like,
    ruleset=st.sampled_from(list(Ruleset)),
    options=st.fixed_dictionaries(ROLL_OPTIONS),
    seed=st.integers(0, 2**32),
)
async def test_any_roll_options_are_rolled_and_shown_or_refused_with_a_message(
    text: str, ruleset: Ruleset, options: dict[str, Any], seed: int
) -> None:
    read = await read_pool(text)
    if isinstance(read, UserError):
        return
    request = request_for(ruleset, read, options)
    if isinstance(request, UserError):
        assert str(request)
        return

    result = roll(request, seeded_faces(seed))
    embed = roll_embed(result, roller="Ada " * 8, label="x" * 100, roll_id=2**53)

    if result.refused:
        assert refusal_text(result.refusal), "a refused roll says why"
    assert_fits_discord(embed)


@settings(max_examples=300, deadline=None)
@given(option=st.sampled_from(list(SETTABLE)), text=typed_text(max_size=20))
def test_any_config_value_is_accepted_by_the_store_or_refused_with_a_message(
    option: ChannelOption, text: str
) -> None:
    value = config_value(option, text)

    if isinstance(value, UserError):
        assert SETTING_NAMES[option] in str(value), "the refusal names the setting as shown"
        assert SETTABLE[option] in str(value), "the refusal says what is accepted"
    else:
        ChannelSettings.model_validate(
            {"guild_id": 1, "channel_id": 2, option.value: value}, strict=True
        )


def test_the_roll_options_here_are_the_ones_the_command_takes() -> None:
    """Keeps ROLL_OPTIONS honest: a new /roll option must get a strategy here."""
    parameters = {parameter.name for parameter in Rolling.roll.parameters}

    # spec names a specialty on the sheet: tests/flows/test_character_roll_flows.py
    assert parameters - {"pool", "label", "private", "spec"} == set(ROLL_OPTIONS)


# --- through the fake Discord ---------------------------------------------------------------


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord; the test fails at teardown if it recorded any failure."""
    server = FakeDiscord()
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


@dataclass
class Live:
    """A running bot at a table with every ruleset, a thread, and every kind of member."""

    fake: FakeDiscord
    bot: BotProcess
    channels: list[Channel]
    members: list[Member]
    roles: list[Role]
    #: custom_ids each message ever showed, to press them once they are gone.
    seen: dict[int, set[str]] = field(default_factory=dict)

    def log(self) -> str:
        return self.bot.stderr_path.read_text(errors="replace")


@pytest.fixture
async def live(fake: FakeDiscord, tmp_path: Path, zygote: Zygote) -> AsyncIterator[Live]:
    cofd, v20, fistful = (fake.add_channel(name) for name in ("cofd", "v20", "fistful"))
    thread = fake.add_channel("scene", parent=v20)
    narrators = fake.add_role("Narrators")
    members = [
        fake.add_member("Ada"),
        fake.add_member("Bob"),
        fake.add_member("Narrator", roles=[narrators]),
        fake.add_member("Storyteller", permissions=STORYTELLER),
        fake.add_member("Admin", permissions=ADMIN),
    ]
    bot = BotProcess(
        fake, BOT, None, tmp_path / "bot.sqlite3", dice_seed=3, name="bot", zygote=zygote
    )
    await bot.start()
    admin = members[-1]
    for channel, ruleset in ((v20, "v20"), (fistful, "fistful")):
        await (await admin.slash(channel, "config ruleset", ruleset=ruleset)).reply()
    await (await admin.slash(cofd, "config storyteller", role=narrators)).reply()
    await (await members[0].slash(cofd, "will set", max=3)).reply()
    try:
        yield Live(
            fake, bot, [cofd, v20, fistful, thread], members,
            [fake.everyone_role, narrators, fake.add_role("Players")],
        )
    finally:
        code = await bot.stop()
        print(bot.output())
    assert code == 0


#: Commands that only read: whatever the answer, the database stays as it was.
READ_ONLY = frozenset({"will show", "config show", "help", "odds", "extended list",
                       "saved list"})


def is_refusal(reply: Message) -> bool:
    """The error path's answer: ephemeral text, nothing else."""
    return reply.ephemeral and not reply.embeds and not reply.components


def may_change(path: str, options: dict[str, Any], reply: Message) -> bool:
    """Whether an answered command may have changed the database: not a read, not a refusal.

    Some commands succeed with ephemeral text too, so their refusals are told by what
    the success always says (a void is confirmed, a Will change shows "old → new")."""
    if path in READ_ONLY:
        return False
    if path == "history":
        return "void" in options and "void." in reply.text
    if path in {"will set", "will rest"}:
        return "→" in reply.text
    if path.startswith("character "):
        # Every confirmation names the sheet in bold; no refusal does.
        return "**" in reply.text or not is_refusal(reply)
    if path in {"saved add", "saved delete"}:
        # Confirmations say what was done first; no refusal starts so.
        return reply.text.startswith(("Saved ", "Replaced ", "Deleted "))
    return not is_refusal(reply)


async def settled(live: Live, interaction: Interaction) -> Message | None:
    """The interaction's answer (None: it opened a form), checked against the invariants."""
    callback = await interaction.ack(ANSWER)
    reply = None if callback.type == 9 else await interaction.reply(ANSWER)
    assert not live.fake.failures, live.fake.failures
    if reply is not None:
        assert APOLOGY not in reply.text, (interaction, reply)
        for message in (reply, *interaction.followups):
            live.seen.setdefault(message.id, set()).update(
                button["custom_id"] for button in message.buttons if button["custom_id"]
            )
    log = live.log()
    assert "Traceback" not in log
    assert "Unhandled error" not in log
    return reply


def option_values(
    definition: dict[str, Any], live: Live, channel: Channel, *, plain: bool = False
) -> st.SearchStrategy[Any]:
    """Values a Discord client lets a member send for one option definition
    (``plain``: the modest values of a member who means it, to make things to press)."""
    choices = definition.get("choices")
    if choices:
        return st.sampled_from([choice["value"] for choice in choices])
    kind = definition["type"]
    if kind == 3:
        if plain:
            return plausible
        low = max(1, definition.get("min_length", 1))
        return typed_text(low, min(definition.get("max_length", 6000), 120))
    if kind in (4, 10):
        low = definition.get("min_value", -(2**53))
        high = definition.get("max_value", 2**53)
        if plain:
            low, high = max(low, 1), min(high, max(low, 1) + 9)
        edges = [value for value in (low, high, 0, 1, -1, 2) if low <= value <= high]
        numbers = st.one_of(st.sampled_from(edges), st.integers(int(low), int(high)))
        return numbers if kind == 4 else numbers.map(float)
    if kind == 5:
        return st.booleans()
    if kind == 6:
        return st.sampled_from(live.members)
    if kind == 8:
        return st.sampled_from(live.roles)
    if kind == 7:
        allowed = definition.get("channel_types")
        usable = [c for c in live.channels if not allowed or c.type in allowed]
        return st.sampled_from(usable or [channel])
    if kind == 11:
        return st.sampled_from([Upload("sheet.json", b'{"schema_version": 1}'),
                                Upload("notes.txt", b"not json \xff")])
    raise AssertionError(f"no strategy for option type {kind}: {definition}")


def command_paths(fake: FakeDiscord) -> dict[str, list[dict[str, Any]]]:
    """Every invocable command path and its option definitions."""
    paths: dict[str, list[dict[str, Any]]] = {}

    def walk(prefix: str, options: list[dict[str, Any]]) -> None:
        subcommands = [option for option in options if option["type"] in (1, 2)]
        if not subcommands:
            paths[prefix] = options
        for option in subcommands:
            walk(f"{prefix} {option['name']}", option.get("options", []))

    for command in fake.guild_commands:
        walk(command["name"], command.get("options", []))
    return paths


#: Optional options that a plain use of the command needs all the same (an extended
#: action needs its target, a contest the other side).
PLAIN_NEEDS: dict[str, tuple[str, ...]] = {"extended start": ("target",), "contest": ("against",)}


def command_options(
    data: st.DataObject, live: Live, path: str, channel: Channel, *, plain: bool
) -> dict[str, Any]:
    """Generated options for ``/path``: any of them, or (``plain``) the required ones and
    at most one more, with modest values, as a member who means it would give."""
    definitions = command_paths(live.fake)[path]
    required = {
        d["name"]: option_values(d, live, channel, plain=plain)
        for d in definitions if d.get("required")
    }
    optional = {
        d["name"]: option_values(d, live, channel, plain=plain)
        for d in definitions if not d.get("required")
    }
    if plain:
        needed = {
            name: optional.pop(name) for name in PLAIN_NEEDS.get(path, ()) if name in optional
        }
        required |= needed
        extra = data.draw(st.none() | st.sampled_from(sorted(optional)), label="one more option")
        optional = {} if extra is None else {extra: optional[extra]}
    drawn: dict[str, Any] = data.draw(
        st.fixed_dictionaries(required, optional=optional), label=f"/{path} options"
    )
    return drawn


async def run_command(
    data: st.DataObject, live: Live, path: str | None = None, *, plain: bool = False
) -> None:
    paths = sorted(command_paths(live.fake))
    path = path or data.draw(st.sampled_from(paths), label="command")
    member = data.draw(st.sampled_from(live.members), label="member")
    channel = data.draw(st.sampled_from(live.channels), label="channel")
    options = command_options(data, live, path, channel, plain=plain)
    before = table_state(live.bot.db_path)

    reply = await settled(live, await member.slash(channel, path, **options))

    if reply is not None and not may_change(path, options, reply):
        assert table_state(live.bot.db_path) == before, (path, options, reply.text)


async def run_autocomplete(data: st.DataObject, live: Live) -> None:
    completable = [
        (path, definition["name"])
        for path, definitions in command_paths(live.fake).items()
        for definition in definitions
        if definition.get("autocomplete")
    ]
    if not completable:  # (the commands are the same in every example)
        return
    path, focused = data.draw(st.sampled_from(completable), label="autocomplete")
    member = data.draw(st.sampled_from(live.members), label="member")
    channel = data.draw(st.sampled_from(live.channels), label="channel")
    before = table_state(live.bot.db_path)

    choices = await member.autocomplete(
        channel, path, focused=focused, value=data.draw(typed_text(0, 100)), timeout=ANSWER
    )

    assert len(choices) <= 25
    assert not live.fake.failures, live.fake.failures
    assert table_state(live.bot.db_path) == before


def pressable(live: Live, member: Member) -> list[tuple[Message, str]]:
    """Every (message, custom_id) the member can press: shown now, or shown once."""
    found = []
    for channel in live.channels:
        for message in live.fake.messages(channel, visible_to=member):
            ids = sorted(live.seen.get(message.id, ()))
            found.extend((message, custom_id) for custom_id in ids)
    return found


def pick(data: st.DataObject, items: list[Any], label: str) -> Any:
    """One of ``items``, drawn so that what Hypothesis draws does not depend on how many
    there are (they depend on the bot's state, which carries over between examples)."""
    return items[data.draw(st.integers(0, 2**16), label=label) % len(items)]


#: Text for the fields of a form a press may open (drawn whether or not one opens: what
#: Hypothesis draws must not depend on the bot's answers).
form_texts = st.lists(st.just("") | typed_text(1, 100), min_size=3, max_size=3)


async def press_any(data: st.DataObject, live: Live) -> None:
    member = pick(data, live.members, "presser")
    button = data.draw(st.integers(0, 2**16), label="button")
    texts = data.draw(form_texts, label="form texts")
    choices = pressable(live, member)
    if not choices:
        return
    message, custom_id = choices[button % len(choices)]
    before = table_state(live.bot.db_path)
    shown = any(shown["custom_id"] == custom_id for shown in message.buttons)
    if shown:
        press = await member.click(message, custom_id=custom_id)
    else:  # a client that missed the edit still shows the old button
        press = await live.fake.dispatch_interaction(
            member, kind=3, channel=live.fake.channels[message.channel_id],
            data={"custom_id": custom_id, "component_type": 2}, message=message,
        )

    reply = await settled(live, press)

    if reply is None:
        await fill_form(live, member, press, texts)
    elif press.callbacks[0].type == 4 and is_refusal(reply):
        assert table_state(live.bot.db_path) == before, (custom_id, reply.text)
        if not shown:
            assert "out of date" in reply.text or "no longer" in reply.text, reply.text


async def fill_form(live: Live, member: Member, opener: Interaction, texts: list[str]) -> None:
    """Submit the form a press opened, its text fields filled with ``texts``."""
    assert opener.modal is not None
    values: dict[str, str | list[str]] = {}
    fields = [form_field for form_field in opener.modal.fields if form_field.type == 4]
    for form_field, drawn in zip(fields, [*texts, *["x"] * len(fields)], strict=False):
        text = drawn[: form_field.max_length or 4000]
        low = form_field.min_length or (1 if form_field.required else 0)
        values[form_field.custom_id] = text if len(text) >= low else "x" * low
    before = table_state(live.bot.db_path)

    reply = await settled(live, await member.submit_modal(opener, values))

    # Save this roll's form succeeds with ephemeral text too: its confirmation says "Saved".
    saved = reply is not None and reply.text.startswith(("Saved ", "Replaced "))
    if reply is not None and is_refusal(reply) and not saved:
        assert table_state(live.bot.db_path) == before, (opener.modal.custom_id, reply.text)


#: Commands that make things with buttons, so sessions have something to press.
MAKERS = ("roll", "extended start", "teamwork start", "contest")

HYPOTHESIS_LIVE = settings(
    deadline=None,
    derandomize=True,  # the bot's state carries over between examples: repeatable runs
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@settings(HYPOTHESIS_LIVE, max_examples=300)
@given(data=st.data())
async def test_every_command_with_generated_options_is_answered_and_refusals_change_nothing(
    live: Live, data: st.DataObject
) -> None:
    await run_command(data, live)


@settings(HYPOTHESIS_LIVE, max_examples=150)
@given(data=st.data())
async def test_roll_with_generated_options_is_answered_and_refusals_change_nothing(
    live: Live, data: st.DataObject
) -> None:
    await run_command(data, live, "roll")


@settings(HYPOTHESIS_LIVE, max_examples=60)
@given(
    data=st.data(),
    steps=st.lists(
        st.sampled_from(["make", "press", "press", "complete"]), min_size=3, max_size=12
    ),
)
async def test_sessions_of_commands_button_presses_and_forms_never_fail_a_member(
    live: Live, data: st.DataObject, steps: list[str]
) -> None:
    makers = [path for path in MAKERS if path in command_paths(live.fake)]
    for step in steps:
        if step == "make":
            maker = data.draw(st.sampled_from(makers), label="maker")
            await run_command(data, live, maker, plain=data.draw(st.booleans(), label="plain"))
        elif step == "press":
            await press_any(data, live)
        else:
            await run_autocomplete(data, live)
