"""`/character`: create, set, specialty, condition, show, use, list, rename, delete (with
its confirm button), export and import (RULES.md §6, COMMANDS.md "Characters").

A change is one write transaction: the channel's settings and the sheet as they are,
the engine's decision, the sheet saved over the version read (so two edits at once
never lose one). A member edits only their own sheets, a Storyteller any in the server;
a sheet is never reached from another server. Trips: 1 per command (2 for the button).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.edge.ids import Press
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, UserError, say
from bot.render import characters as words
from bot.render.lang import _, speaking, trait_language
from bot.render.message import Attachment, Message, shaped
from bot.store import Tx
from bot.store.characters import SERVER_WIDE, CharacterRepository, by_name
from bot.store.settings import SettingsRepository
from engine import characters as sheets
from engine.characters import MAX_CHARACTERS, Character, fold
from engine.models import Ruleset
from engine.near_miss import near_miss
from engine.records import ChannelConfig, CharacterName, CharacterRecord
from engine.refusals import Refusal, RefusalCode


@dataclass(frozen=True, slots=True)
class Member:
    """A member named in a command."""

    user_id: int
    name: str


def _trait_language(ctx: Ctx, config: ChannelConfig) -> str:
    """The language a sheet's trait names are shown in: the table's (the public voice's),
    whoever asks (issue 14: the sheet's language is the table's)."""
    return trait_language(ctx.public_voice(config))


def _refuse(answer: object) -> None:
    """Raise the words of an engine refusal, if ``answer`` is one."""
    if isinstance(answer, Refusal):
        raise UserError(words.refused(answer))


def find(
    tx: Tx, ctx: Ctx, text: str | None, *, owner: Member | None = None, edit: bool = False,
) -> tuple[ChannelConfig, CharacterRecord]:
    """Inside a transaction: the settings, and the sheet a command names or the member's
    active one, read in one statement (a Storyteller's look beyond their own sheets by
    name, in a second).

    By name: the member's own (or ``owner``'s) sheet of that name; without ``owner``, a
    Storyteller also reaches any sheet of the server of that name (and anyone does, to
    look at it). Without a name, the member's (or ``owner``'s) active sheet here.
    ``edit``: only the owner or a Storyteller.
    """
    owner_id = ctx.user_id if owner is None else owner.user_id
    if text is None:  # the active sheet, with the settings
        config, record = tx.queries.one(SettingsRepository.config_query(
            ctx.guild_id, ctx.channel_id, ctx.parent_id, owner_id))
        if record is None:
            raise UserError(_(words.NO_CHARACTER) if owner is None
                            else words.no_active_of(owner.name))
    else:
        (config, _nobody), named = tx.queries.beside_rows(
            ctx.config_query(),
            CharacterRepository.named_query(ctx.guild_id, text, owner_id))
        storyteller = ctx.storyteller(config)
        beyond = owner is None and (storyteller or not edit)  # ``owner``'s alone
        found = sorted(named, key=lambda record: record.id) or (
            tx.characters.named(ctx.guild_id, text) if beyond else [])
        if not found:
            raise UserError(words.not_found(text))
        if len(found) > 1:
            raise UserError(words.several(text, len(found), member_option=not edit))
        record = found[0]
    if edit and record.owner_id != ctx.user_id and not ctx.storyteller(config):
        raise UserError(_(words.NOT_YOURS))
    return config, record


def _save(tx: Tx, record: CharacterRecord, sheet: Character) -> CharacterRecord:
    saved = tx.characters.save(record, sheet)
    if saved is None:  # only a rename can meet the owner's other sheet of that name
        raise UserError(words.name_taken(sheet.name))
    return saved


async def create(
    deps: Deps, ctx: Ctx, name: str, template: Ruleset | None = None, *, npc: bool = False
) -> Reply:
    """A new sheet from the channel's ruleset template (or ``template``), made active in
    the server and here (where a pin applied, it is pinned here: :func:`use`)."""
    _refuse(sheets.name_refusal(name))

    def write(tx: Tx) -> Character:
        (config, _nobody), count = tx.queries.both(  # in one statement
            ctx.config_query(), CharacterRepository.count_query(ctx.guild_id, ctx.user_id))
        if npc and not ctx.storyteller(config):
            raise UserError(_(words.NPC_ONLY_STORYTELLER))
        if count >= MAX_CHARACTERS:
            raise UserError(words.too_many())
        sheet = sheets.new_sheet(name, template or config.ruleset, npc=npc)
        record = tx.characters.insert(ctx.guild_id, ctx.user_id, sheet)
        if record is None:
            raise UserError(words.name_taken(name))
        tx.characters.use(ctx.guild_id, ctx.user_id, record.id)
        tx.characters.repin(ctx.guild_id, ctx.user_id, record.id, ctx.channel_id, ctx.parent_id)
        return sheet

    return say(words.created(await deps.store.write(write)))


async def set_traits(
    deps: Deps, ctx: Ctx, *, character: str | None = None, trait: str | None = None,
    value: int | None = None, traits: str | None = None,
) -> Reply:
    """One trait (``trait`` and ``value``) or several (``traits``: "Strength 3, Brawl 2")."""
    pairs: list[tuple[str, int]] = []
    if trait is not None and value is not None:
        pairs.append((trait, value))
    elif trait is not None or value is not None:
        raise UserError(_(words.NOTHING_TO_SET))
    if traits:
        parsed = sheets.parse_assignments(traits)
        if isinstance(parsed, Refusal):
            raise UserError(words.refused(parsed))
        pairs.extend(parsed)
    if not pairs:
        raise UserError(_(words.NOTHING_TO_SET))

    def write(tx: Tx) -> str:
        config, record = find(tx, ctx, character, edit=True)
        answer = sheets.set_traits(record.sheet, pairs)
        if isinstance(answer, Refusal):
            raise UserError(words.refused(answer, _trait_language(ctx, config)))
        sheet, changes = answer
        if not all(change.unchanged for change in changes):  # else nothing to keep
            _save(tx, record, sheet)
        language = _trait_language(ctx, config)
        # a new trait named nearly as a known one ("Strenght"): added, and said so
        near = [(change.name, meant) for change in changes if change.old is None
                and (meant := near_miss(record.sheet, change.name)) is not None]
        return words.with_near_misses(
            words.traits_changed(sheet, changes, language, text_only=config.text_only),
            near, language)

    return say(await deps.store.write(write))


async def specialty(
    deps: Deps, ctx: Ctx, skill: str, *, add: str | None = None, remove: str | None = None,
    character: str | None = None,
) -> Reply:
    """Add or remove a specialty of a Skill."""
    if (add is None) == (remove is None):
        raise UserError(_(words.SPECIALTY_WHAT))

    def write(tx: Tx) -> str:
        config, record = find(tx, ctx, character, edit=True)
        if add is not None:
            answer = sheets.add_specialty(record.sheet, skill, add)
        else:
            answer = sheets.remove_specialty(record.sheet, skill, remove or "")
        if isinstance(answer, Refusal):
            raise UserError(words.refused(answer, _trait_language(ctx, config)))
        _save(tx, record, answer)
        # The Skill as the sheet names it, however it was typed (``Bra``: Brawl), and a
        # removed specialty as the sheet kept it (``Boxe``, whoever typed ``boxe``).
        shown = sheets.skill_named(record.sheet, skill)
        text = add or ""
        if not isinstance(shown, Refusal) and remove is not None:
            text = sheets.named_text(shown.specialties, remove) or remove
        return words.specialty_changed(answer, skill if isinstance(shown, Refusal) else shown.name,
                                       text, _trait_language(ctx, config), added=add is not None)

    return say(await deps.store.write(write))


async def condition(
    deps: Deps, ctx: Ctx, *, add: str | None = None, remove: str | None = None,
    character: str | None = None,
) -> Reply:
    """Add or resolve a Condition."""
    if (add is None) == (remove is None):
        raise UserError(_(words.CONDITION_WHAT))

    def write(tx: Tx) -> str:
        record = find(tx, ctx, character, edit=True)[1]
        answer = (sheets.add_condition(record.sheet, add) if add is not None
                  else sheets.remove_condition(record.sheet, remove or ""))
        if isinstance(answer, Refusal):
            raise UserError(words.refused(answer))
        _save(tx, record, answer)
        # A resolved Condition as the sheet kept it (``Shaken``, whoever typed ``shaken``).
        text = add or sheets.named_text(record.sheet.conditions, remove or "") or remove or ""
        return words.condition_changed(answer, text, added=add is not None)

    return say(await deps.store.write(write))


async def show(
    deps: Deps, ctx: Ctx, character: str | None = None, member: Member | None = None, *,
    public: bool = False,
) -> Reply:
    """The sheet as one embed; ephemeral unless ``public``. Someone else's sheet is the
    owner's and the Storyteller's, unless its owner showed it publicly once (which marks
    it public: **Decision**)."""

    def look(tx: Tx) -> tuple[ChannelConfig, CharacterRecord]:
        config, record = find(tx, ctx, character, owner=member)
        mine = record.owner_id == ctx.user_id
        if not (mine or ctx.storyteller(config) or record.sheet.public):
            raise UserError(_(words.NOT_VISIBLE))
        if public and mine and not record.sheet.public:
            record = _save(tx, record, record.sheet.model_copy(update={"public": True}))
        return config, record

    # Only a public show may change the sheet: a private look is a read, which an answer
    # Discord loses lets the member simply ask again (bot.flows.reply.run).
    config, record = await (deps.store.write if public else deps.store.read)(look)
    language = _trait_language(ctx, config)
    if not public:
        sheet = Message(embed=words.sheet_embed(record, language, text_only=config.text_only))
        return Reply(message=shaped(sheet, config), ephemeral=True)
    with speaking(ctx.public_voice(config)):
        sheet = Message(embed=words.sheet_embed(record, language, text_only=config.text_only))
        return Reply(message=shaped(sheet, config), ephemeral=False)


async def use(deps: Deps, ctx: Ctx, name: str, *, channel: bool = False) -> Reply:
    """Switch the member's active character: pinned to this channel, or in the server.
    A member's own sheet; a Storyteller's also any NPC of the server (COMMANDS.md: npc
    "makes a non-player character usable by Storytellers"), whoever made it.

    **Decision**: a choice made for the server applies in the channel it is made in too:
    where a pin applied here (this channel's, or its parent's seen from a thread), the
    sheet is pinned here instead, so the reply's word holds; other channels' pins stay.
    """

    def write(tx: Tx) -> Character:
        config, record = find(tx, ctx, name, edit=True)
        if record.owner_id != ctx.user_id and not (record.sheet.npc and ctx.storyteller(config)):
            raise UserError(_(words.USE_NOT_YOURS))
        if channel:
            tx.characters.use(ctx.guild_id, ctx.user_id, record.id, ctx.channel_id)
        else:
            tx.characters.use(ctx.guild_id, ctx.user_id, record.id, SERVER_WIDE)
            tx.characters.repin(ctx.guild_id, ctx.user_id, record.id, ctx.channel_id,
                                ctx.parent_id)
        return record.sheet

    return say(words.now_active(await deps.store.write(write), pinned=channel))


async def list_(deps: Deps, ctx: Ctx, member: Member | None = None) -> Reply:
    """A member's characters in this server (default: the one asking)."""
    whose = member or Member(ctx.user_id, ctx.user_name)

    def read(tx: Tx) -> tuple[ChannelConfig, list[CharacterName], CharacterRecord | None]:
        # The settings, the member's active sheet and their names, in one statement.
        (config, active), names = tx.queries.beside_rows(
            SettingsRepository.config_query(
                ctx.guild_id, ctx.channel_id, ctx.parent_id, whose.user_id),
            CharacterRepository.names_query(ctx.guild_id, whose.user_id))
        return config, by_name(names), active

    config, names, active = await deps.store.read(read)
    return say(words.listing(whose.name, names, None if active is None else active.id,
                             text_only=config.text_only))


async def rename(deps: Deps, ctx: Ctx, new_name: str, character: str | None = None) -> Reply:
    """Rename a sheet (its past rolls keep the old name in the log)."""

    def write(tx: Tx) -> str:
        config, record = find(tx, ctx, character, edit=True)
        answer = sheets.renamed(record.sheet, new_name)
        if isinstance(answer, Refusal):
            raise UserError(words.refused(answer))
        _save(tx, record, answer)
        return words.renamed(record.name, answer.name, text_only=config.text_only)

    return say(await deps.store.write(write))


async def delete(deps: Deps, ctx: Ctx, character: str | None = None) -> Reply:
    """Ask to confirm with a button; nothing is deleted yet."""

    def read(tx: Tx) -> CharacterRecord:
        return find(tx, ctx, character, edit=True)[1]

    record = await deps.store.read(read)
    return Reply(message=words.confirm_delete(record), ephemeral=True)


async def pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """The Delete button: deletes the sheet only if it is still as confirmed."""

    def write(tx: Tx) -> Reply:
        record = tx.characters.get(press.key)
        if record is None or record.guild_id != ctx.guild_id or record.version != press.version:
            raise UserError(_(words.CHARACTER_GONE))
        config = ctx.config(tx)
        if record.owner_id != ctx.user_id and not ctx.storyteller(config):
            raise UserError(_(words.NOT_YOURS))
        tx.characters.delete(record.id, record.version)
        with speaking(ctx.public_voice(config)):
            return Reply(message=Message(content=words.deleted(record.name)), update=True)

    return await deps.store.write(write)


async def export(deps: Deps, ctx: Ctx, character: str | None = None) -> Reply:
    """The sheet as a JSON file (to the member alone)."""

    def read(tx: Tx) -> CharacterRecord:
        return find(tx, ctx, character, edit=True)[1]

    record = await deps.store.read(read)
    data = sheets.exported(record.sheet).encode()
    filename = f"{fold(record.name)[:40] or 'character'}.json"
    return Reply(message=Message(content=words.name(record.name), file=Attachment(filename, data)),
                 ephemeral=True)


async def import_(
    deps: Deps, ctx: Ctx, data: bytes, *, replace: bool = False, size: int | None = None
) -> Reply:
    """A sheet file read back as the importer's own sheet: every problem listed, nothing
    changed on error; a name the member already uses only with ``replace``. ``size``: the
    attachment's size as Discord gives it (a file too large is not downloaded)."""
    if size is not None and size > sheets.MAX_IMPORT_BYTES:
        raise UserError(words.refused(Refusal.of(
            RefusalCode.IMPORT_TOO_LARGE, size=size, max=sheets.MAX_IMPORT_BYTES)))
    answer = sheets.imported(data)
    if isinstance(answer, tuple):
        raise UserError(words.problems(answer))
    sheet = answer

    def write(tx: Tx) -> bool:
        (config, _nobody), count, same = tx.queries.with_rows(  # in one statement
            ctx.config_query(), CharacterRepository.count_query(ctx.guild_id, ctx.user_id),
            CharacterRepository.named_query(ctx.guild_id, sheet.name, ctx.user_id))
        if sheet.npc and not ctx.storyteller(config):
            raise UserError(_(words.NPC_ONLY_STORYTELLER))
        if same and not replace:
            raise UserError(words.name_taken(sheet.name))
        if same:
            _save(tx, same[0], sheet)
            return True
        if count >= MAX_CHARACTERS:
            raise UserError(words.too_many())
        record = tx.characters.insert(ctx.guild_id, ctx.user_id, sheet)
        if record is None:  # the name check above ran in this transaction
            raise UserError(words.name_taken(sheet.name))
        return False

    replaced = await deps.store.write(write)
    return say(words.imported_sheet(sheet, replaced=replaced))


# --- autocomplete ---------------------------------------------------------------------


async def pool_suggestions(deps: Deps, ctx: Ctx, typed: str) -> list[tuple[str, str]]:
    """Autocomplete of a ``pool`` option: the active character's trait names with their
    values (``Wi`` → ``Wits 3``), the pool typed so far kept; none without a character.
    A template trait is offered in the table's language first (``Ra`` → ``Raciocínio 3``)."""

    config, record = await deps.store.read(ctx.config_and_character)
    if record is None:
        return []
    return list(sheets.suggestions(record.sheet, typed, _trait_language(ctx, config)))


async def character_suggestions(deps: Deps, ctx: Ctx, typed: str) -> list[tuple[str, str]]:
    """Autocomplete of a ``character`` option: the member's sheets (a Storyteller's: every
    sheet of the server, with NPCs marked), names containing ``typed`` first by prefix."""

    found = await deps.store.read(lambda tx: tx.characters.names_seen(ctx.viewer()))
    key = fold(typed)
    first = [n for n in found if fold(n.name).startswith(key)]
    more = [n for n in found if key in fold(n.name) and not fold(n.name).startswith(key)]
    return [
        (words.character_choice(n)[:100], n.name[:100])
        for n in (first + more)[:sheets.MAX_SUGGESTIONS]
    ]
