"""/help as a flow: this channel's ruleset, one topic, text-only, in every language."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

from bot.client import EXTENSIONS, StorytellerBot
from bot.cogs.rolling import Rolling
from bot.edge.options import ROLL_OPTIONS
from bot.flows import characters
from bot.flows.help import TOPICS, show_help
from bot.render.lang import voice
from bot.render.message import embed_text
from bot.render.rolls import RULESET_NAMES
from bot.render.state import SETTING_NAMES
from bot.settings import Settings
from bot.store import Store, Tx
from engine.characters import new_sheet, resolve, template
from engine.faces import ScriptedFaces
from engine.models import Ruleset
from engine.parser import parse_pool_names
from engine.records import ChannelOption, Language
from engine.refusals import Refusal
from tests.flows.conftest import ALICE, CHANNEL, GUILD, STORYTELLER, Said, Table


async def test_help_explains_rolling_in_this_channels_ruleset(table: Table) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20)

    await table.store.write(write)
    said = await table.run(show_help(table.deps, table.ctx()))
    assert said.answer.ephemeral
    assert "difficulty" in said.answer.text
    assert "Classic World of Darkness" in said.answer.text


@pytest.mark.parametrize("topic", [None, *(each for each in TOPICS if each != "config")])
async def test_v20_help_names_only_what_a_v20_sheet_has(table: Table, topic: str | None) -> None:
    """RULES.md §6: the v20 template has no Composure (nor any cofd-only trait), no
    untrained penalty and no Beats: its pages' examples and rules name only its own (the
    config page names the fistful initiative_pool's default, said as fistful's)."""
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20)

    await table.store.write(write)
    text = (await table.run(show_help(table.deps, table.ctx(), topic))).answer.text
    v20 = {trait.name for trait in template(Ruleset.V20)}
    foreign = {trait.name for trait in template(Ruleset.COFD)} - v20
    assert [name for name in foreign if re.search(rf"\b{name}\b", text)] == []
    assert "Beat" not in text
    assert "untrained" not in text


@pytest.mark.parametrize("npc", [False, True])
async def test_a_new_v20_sheet_is_told_to_set_and_roll_v20_traits(
    table: Table, npc: bool
) -> None:
    """The guidance a new sheet gets names its template's traits (RULES.md §6): a v20
    sheet has no Composure, so it is told to set and roll Perception and Alertness."""
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20)

    await table.store.write(write)
    table.speak(None)
    created = await table.run(characters.create(
        table.deps, table.ctx(STORYTELLER if npc else ALICE), "Marcus", npc=npc))
    text = created.answer.text
    assert 'traits:"Perception 3, Alertness 2, Brawl 2"' in text
    assert text.endswith("then roll /roll pool:Perception + Alertness.")
    assert "Composure" not in text


async def test_fistful_help_on_sheets_has_no_beats(table: Table) -> None:
    """RULES.md §6: Beats and Experience are cofd's; a fistful sheet's Skill at 0 dots makes
    the roll unskilled (1s eat successes), not a dice penalty."""
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.FISTFUL)

    await table.store.write(write)
    text = (await table.run(show_help(table.deps, table.ctx(), "characters"))).answer.text
    assert "Beats" not in text
    assert "unskilled (1s eat successes)" in text


async def test_the_secret_and_stats_pages_agree_on_what_stats_counts(table: Table) -> None:
    """Another member's secret roll is left out of a player's /stats (only its roller's and
    the Storyteller's totals count it: tests/flows/test_stats_flows.py); both pages say so."""
    secret = (await table.run(show_help(table.deps, table.ctx(), "secret"))).answer.text
    stats = (await table.run(show_help(table.deps, table.ctx(), "stats"))).answer.text
    assert "`/stats` counts it only in its roller's and the Storyteller's totals" in secret
    assert "without showing who" not in secret
    assert "nobody else's totals include them" in stats


@pytest.mark.parametrize(
    ("locale", "history"),
    [("en-US", "/history"), ("pt-BR", "/historico"), ("es-ES", "/historial")],
)
async def test_the_history_page_says_how_the_storyteller_voids_a_roll(
    table: Table, locale: str, history: str
) -> None:
    """A Storyteller who reads `/help topic:history` learns the command that voids a roll
    (`/history void:<roll #>`, the number on the roll's card), where the page said only
    that they can, and the option was on another page."""
    table.speak(locale)
    page = (await table.run(show_help(table.deps, table.ctx(), "history"))).answer.text
    assert f"`{history} void:<" in page


async def test_the_odds_page_names_the_options_odds_has_and_says_who_sees_the_odds(
    table: Table,
) -> None:
    """/odds answers the asker alone unless `public:True` (bot.flows.rolls.odds); its page
    said it took "the same options as /roll", which /odds's label and private are not, and
    never named public, so a member who wanted to show the table the odds had no way to
    learn how. Every option /odds has beyond the roll options is named on its page."""
    table.speak("en-US")
    page = (await table.run(show_help(table.deps, table.ctx(), "odds"))).answer.text
    own = {p.name for p in Rolling.odds.parameters} - set(ROLL_OPTIONS)
    assert own == {"pool", "spec", "public"}
    assert [name for name in own if not re.search(rf"[` ]{name}[:`]", page)] == []
    assert "`public:True` shows it to the whole channel" in page
    assert "same options as /roll" not in page


@pytest.mark.parametrize("ruleset", list(Ruleset))
async def test_the_storyteller_page_names_the_successive_action_penalty_only_where_it_is_a_rule(
    table: Table, ruleset: Ruleset
) -> None:
    """RULES.md §3: the Successive Action Penalty is fistful's; `/turn next` at a cofd or
    v20 table resets none and says none (bot.render.state.turn_advanced), and the page
    said it started over at every table."""
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)

    await table.store.write(write)
    table.speak("en-US")
    page = (await table.run(show_help(table.deps, table.ctx(), "storyteller"))).answer.text
    assert ("Successive Action Penalty" in page) is (ruleset is Ruleset.FISTFUL)
    assert "`/turn next`: " in page and "open roll buttons close" in page


@pytest.mark.parametrize("ruleset", list(Ruleset))
async def test_the_history_page_says_what_the_clock_does_in_this_channels_ruleset(
    table: Table, ruleset: Ruleset
) -> None:
    """The history page's Time is the storyteller page's clock: `/turn next` starts a
    penalty over only in fistful (RULES.md §3), and both commands close every open roll
    button, not only Spend Will (bot.flows.clock). It said at every table that `/turn
    next` and `/scene end` "reset penalties and close open Will buttons"."""
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)

    await table.store.write(write)
    table.speak("en-US")
    page = (await table.run(show_help(table.deps, table.ctx(), "history"))).answer.text
    assert "reset penalties" not in page
    assert ("Successive Action Penalty" in page) is (ruleset is Ruleset.FISTFUL)
    assert "`/turn next`: " in page and "open roll buttons close" in page


async def test_an_unknown_topic_is_said_above_the_overview(table: Table) -> None:
    said = await table.run(show_help(table.deps, table.ctx(), "dragons"))
    assert "There is no help topic “dragons”" in said.answer.text
    assert "How to roll" in said.answer.text


#: What /help says a label makes of a contest and of a teamwork, by the member's language.
_LABELLED = {
    "en-US": {"contest": "a win starts the count over, a loss or a tie is one failure more",
              "teamwork": "makes the primary's roll their attempt at that action"},
    "pt-BR": {"contest": "uma vitória recomeça a contagem, e uma derrota ou um empate é uma "
                         "falha a mais",
              "teamwork": "a rolagem do ator principal é a tentativa dele nessa ação"},
    "es-ES": {"contest": "una victoria reinicia la cuenta, y una derrota o un empate es un "
                         "fallo más",
              "teamwork": "la tirada del actor principal es su intento de esa acción"},
}


@pytest.mark.parametrize("locale", list(_LABELLED))
@pytest.mark.parametrize("ruleset", list(Ruleset))
async def test_help_says_a_labelled_contest_or_teamwork_is_an_attempt_at_its_action(
    table: Table, locale: str, ruleset: Ruleset
) -> None:
    """RULES.md §1, §2 (successive attempts, README "Contests" and "Teamwork"): a labelled
    contest is an attempt at its action counted by its verdict (a win resets, a loss or a
    tie is one failure more), and a labelled teamwork's primary roll is an attempt as a
    roll of that label is. The contest and teamwork pages say so where successive attempts
    exist; `fistful` has none (its penalty is per turn), so its pages do not."""
    table.speak(locale, locale)

    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)

    await table.store.write(write)
    for topic, words in _LABELLED[locale].items():
        text = (await table.run(show_help(table.deps, table.ctx(), topic))).answer.text
        assert (words in text) is (ruleset is not Ruleset.FISTFUL), (topic, text)


@pytest.mark.parametrize("topic", [None, *TOPICS])
async def test_text_only_help_has_no_arrows_or_dots(table: Table, topic: str | None) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY, True)

    await table.store.write(write)
    said = await table.run(show_help(table.deps, table.ctx(), topic))
    text = said.answer.text
    assert "·" not in text
    assert "→" not in text
    if topic == "roll":
        assert "`5 rerolled to 10`" in text



@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
async def test_help_on_settings_names_every_channel_option(table: Table, locale: str) -> None:
    """Every channel option is on the settings page: in English by its value, in
    Portuguese and Spanish as the member's Discord lists it among /config set's `option`
    choices (`Momento da Vontade`), the name they pick."""
    table.speak(locale, locale)

    text = (await table.run(show_help(table.deps, table.ctx(), "config"))).answer.text

    spoken = voice(LANGUAGES[locale]) if locale in LANGUAGES else None
    missing = [option.value for option in ChannelOption
               if option is not ChannelOption.RULESET
               and (f"`{option.value}`" if spoken is None
                    else f"`{spoken.pgettext('choice', SETTING_NAMES[option])}`") not in text]
    assert missing == []


#: Each choice a help page writes, as a Portuguese or Spanish client lists it.
SHOWN_CHOICES = {
    "pt-BR": ("[scope:canal|servidor]", "`scope:servidor`", "[clear:cargo|cópias|ambos]",
              "untrained:física", "again:Regra do 9", "option:Momento da Vontade",
              "option:Parada de iniciativa do fistful"),
    "es-ES": ("[scope:canal|servidor]", "`scope:servidor`", "[clear:rol|copias|ambos]",
              "untrained:física", "again:Regla del 9", "option:Momento de la Voluntad",
              "option:Reserva de iniciativa de fistful"),
}


@pytest.mark.parametrize("locale", SHOWN_CHOICES)
async def test_help_names_each_choice_as_the_members_client_shows_it(
    table: Table, locale: str
) -> None:
    """A help page in Portuguese or Spanish writes a choice as the member's Discord lists
    it (`scope:servidor`, `untrained:física`, `option:Momento da Vontade`), as a refusal of
    /config set does, where it wrote the English value (`scope:server`), a choice their
    list does not show; English pages keep the values."""
    table.speak(locale, locale)
    pages = []
    for ruleset in Ruleset:
        await table.store.write(lambda tx, ruleset=ruleset: tx.settings.set_channel_option(
            GUILD, CHANNEL, ChannelOption.RULESET, ruleset))
        for topic in TOPICS:
            pages.append((await table.run(show_help(table.deps, table.ctx(), topic))).answer.text)
    text = "\n".join(pages)
    assert [shown for shown in SHOWN_CHOICES[locale] if shown not in text] == []
    english = re.findall(r"(?:scope|clear|untrained|again|option):(?:channel|server|role|"
                         r"physical|mental|social|9|will_timing|initiative_pool)\b", text)
    assert english == []

# --- in Portuguese and Spanish ---------------------------------------------------------------

LANGUAGES = {"pt-BR": Language.PT_BR, "es-ES": Language.ES_ES}

#: English words no Portuguese or Spanish sentence has: one of them outside `code` is a
#: sentence left in English ("dice" is left out: Spanish "dice" is "says").
ENGLISH = re.compile(
    r"\b(the|and|of|to|with|your|you|is|are|for|from|when|each|this|that|roll|rolls|"
    r"pool|by|at|its|not|after|only|it|be|can|or|on|in|an|help|how|more|who|what)\b",
    re.IGNORECASE,
)
CODE = re.compile(r"`[^`]*`")


def _embed_of(said: Said) -> discord.Embed:
    assert said.message.embed is not None
    return said.message.embed


def _texts(embed: discord.Embed) -> list[str]:
    return [embed.title or "", embed.description or "", embed.footer.text or "",
            *(f"{field.name}\n{field.value}" for field in embed.fields)]


def _english_left(embed: discord.Embed, language: Language, ruleset: Ruleset,
                  topic: str | None) -> list[str]:
    """The English words of the page, outside `code` and the words other parts of the
    catalogue give it (the ruleset's title, the topic's name among /help's choices)."""
    spoken = voice(language)
    borrowed = [spoken.gettext(RULESET_NAMES[ruleset])]
    if topic is not None:
        borrowed.append(spoken.pgettext("choice", topic))
    left = []
    for text in _texts(embed):
        prose = CODE.sub("", text)
        for words in borrowed:
            prose = prose.replace(words, "")
        left += ENGLISH.findall(prose)
    return left


def _fits_discord(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert len(field.name or "") <= 256
        assert 0 < len(field.value or "") <= 1024, (field.name, len(field.value or ""))
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= 6000


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("topic", [None, *TOPICS])
async def test_every_help_page_speaks_the_members_language_and_fits(
    table: Table, locale: str, topic: str | None
) -> None:
    table.speak(locale, "en-US")
    language = LANGUAGES[locale]
    for ruleset in Ruleset:
        for text_only in (False, True):
            def write(tx: Tx, ruleset: Ruleset = ruleset, text_only: bool = text_only) -> None:
                tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)
                tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY,
                                               text_only)

            await table.store.write(write)
            said = (await table.run(show_help(table.deps, table.ctx(), topic))).answer
            embed = _embed_of(said)
            assert said.ephemeral
            assert _english_left(embed, language, ruleset, topic) == [], (ruleset, text_only)
            _fits_discord(embed)
            if text_only:
                assert "·" not in said.text
                assert "→" not in said.text


@pytest.mark.parametrize("locale", ["en-US", *LANGUAGES])
async def test_the_characters_pages_unique_start_rolls_on_every_template(
    table: Table, locale: str
) -> None:
    """The characters page's example of "a unique start is enough" names one trait of
    every template of the channel's ruleset, in every language (`Int` was Intelligence
    or Intimidation, so the roll it taught was refused)."""
    table.speak(locale, locale)
    for ruleset in Ruleset:
        def write(tx: Tx, ruleset: Ruleset = ruleset) -> None:
            tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)

        await table.store.write(write)
        text = (await table.run(show_help(table.deps, table.ctx(), "characters"))).answer.text
        starts = re.findall(r"`(\w+)`\)", text)
        assert len(starts) == 1, (ruleset, starts)
        resolved = resolve(parse_pool_names(starts[0]), new_sheet("Mara", ruleset))
        assert not isinstance(resolved, Refusal), (ruleset, resolved)


async def test_help_answers_in_the_members_own_language_not_the_tables(table: Table) -> None:
    table.speak("pt-BR", "es-ES")

    said = (await table.run(show_help(table.deps, table.ctx()))).answer

    assert said.ephemeral
    assert "Como rolar" in said.text
    assert "`/rolar pool:<dados>`" in said.text
    assert "Cómo tirar" not in said.text


async def test_help_in_spanish_names_the_spanish_commands(table: Table) -> None:
    table.speak("es-ES", "es-ES")

    said = (await table.run(show_help(table.deps, table.ctx(), "will"))).answer

    assert "Fuerza de Voluntad" in said.text
    assert "`/voluntad fijar max:<n> [current:<n>]`" in said.text
    assert "**Gastar Voluntad**" in said.text


async def test_an_unknown_topic_is_said_in_the_members_language(table: Table) -> None:
    table.speak("pt-BR")

    said = (await table.run(show_help(table.deps, table.ctx(), "dragões"))).answer

    assert "Não há um tópico de ajuda “dragões”." in said.text
    assert "Como rolar" in said.text


# --- the commands a page names -----------------------------------------------------------------

GLOSSARIES = Path(__file__).resolve().parents[2] / "docs" / "i18n"
#: A command named in a page: `/word`, and the word after it (a subcommand, or several
#: joined by |), unless that word is an option (`pool:`).
NAMED = re.compile(r"(?<![\w/])/([a-z]+)((?: [a-z|]+(?![:\w]))?)")


def _glossary_commands(locale: str) -> tuple[dict[str, str], dict[str, str]]:
    """The glossary's commands: English root → root, English subcommand → subcommand."""
    text = (GLOSSARIES / f"{locale}.md").read_text(encoding="utf-8").split("\n## ")[-1]
    roots: dict[str, str] = {}
    subs: dict[str, str] = {}
    for row in re.findall(r"^\| (/[^|]+) \| (/[^|]+) \|$", text, re.MULTILINE):
        english, spoken = ([item.split() for item in side.split(", ")] for side in row)
        for said_english, said_spoken in zip(english, spoken, strict=True):
            if said_english[0].startswith("/"):
                roots[said_english[0][1:]] = said_spoken[0][1:]
            if not said_english[-1].startswith("/"):
                subs[said_english[-1]] = said_spoken[-1]
    common = re.search(r"Subcomandos comun\w*: (.*?)\. ", " ".join(text.split()))
    assert common is not None
    for pair in common.group(1).split(" · "):
        english_word, spoken_word = pair.split()
        subs[english_word] = spoken_word
    return roots, subs


async def _commands(store: Store) -> dict[str, set[str]]:
    """Every command of the bot: root → its subcommands (none for a plain command)."""
    bot = StorytellerBot(settings=Settings(discord_token="test-token"), store=store,
                         faces=ScriptedFaces([]))
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    commands: dict[str, set[str]] = {}
    for command in bot.tree.walk_commands():
        root, *sub = command.qualified_name.split()
        commands.setdefault(root, set()).update(sub)
    return commands


def _in_language(commands: dict[str, set[str]], locale: str) -> dict[str, set[str]]:
    """The commands as the glossary of ``locale`` names them. One word is one catalogue
    message whatever it names, so the subcommands `roll` and `help` are named as the
    commands /roll and /help are."""
    roots, subs = _glossary_commands(locale)
    return {roots[root]: {subs.get(sub) or roots[sub] for sub in each}
            for root, each in commands.items()}


def _named(embed: discord.Embed) -> list[tuple[str, list[str]]]:
    named = []
    for text in _texts(embed):
        for root, sub in NAMED.findall(text):
            named.append((root, sub.strip().split("|") if sub.strip() else []))
    return named


def _misnamed(embed: discord.Embed, commands: dict[str, set[str]]) -> list[str]:
    wrong = []
    for root, subs in _named(embed):
        if root not in commands:
            wrong.append(f"/{root}")
        elif commands[root]:
            wrong += [f"/{root} {sub}".strip() for sub in subs or [""]
                      if sub not in commands[root]]
    return wrong


@pytest.mark.parametrize("locale", [None, *LANGUAGES])
async def test_every_command_a_help_page_names_is_a_command_of_its_language(
    table: Table, locale: str | None
) -> None:
    english = await _commands(table.store)
    commands = english if locale is None else _in_language(english, locale)
    table.speak(locale)
    for ruleset in Ruleset:
        def write(tx: Tx, ruleset: Ruleset = ruleset) -> None:
            tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)

        await table.store.write(write)
        for topic in [None, *TOPICS]:
            said = (await table.run(show_help(table.deps, table.ctx(), topic))).answer
            embed = _embed_of(said)
            assert _named(embed), topic
            assert _misnamed(embed, commands) == [], (ruleset, topic)


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
@pytest.mark.parametrize("topic", [None, *TOPICS])
async def test_plain_help_arrives_whole_in_as_many_messages_as_it_needs(
    table: Table, locale: str, topic: str | None
) -> None:
    table.speak(locale)
    embed = (await table.run(show_help(table.deps, table.ctx(), topic))).answer.message.embed
    assert embed is not None

    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.PLAIN, True)

    await table.store.write(write)
    said = (await table.run(show_help(table.deps, table.ctx(), topic))).said
    assert [s.kind for s in said] == ["respond"] + ["followup"] * (len(said) - 1)
    assert all(s.ephemeral and s.message.embed is None for s in said)
    assert all(len(s.message.content or "") <= 2000 for s in said)
    assert "\n".join(s.message.content or "" for s in said) == embed_text(embed)
