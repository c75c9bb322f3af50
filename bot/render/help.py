"""/help: how to roll in the channel's ruleset, with examples, and one page per topic."""

from __future__ import annotations

from typing import Final

import discord

from bot.render.lang import N_, _, number, p_
from bot.render.rolls import RULESET_NAMES
from bot.render.text import INFO_COLOUR, safe
from engine.constants import MAX_EXTRA, MAX_POOL
from engine.models import Ruleset
from engine.saved import MAX_SAVED

__all__ = ["COMMAND_TOPICS", "HELP_TOPICS", "help_embed"]

#: The topics /help explains: the values of the command's ``topic`` choices, the same in
#: every language (Discord shows each choice's name in the member's language).
HELP_TOPICS: Final = (
    "roll", "secret", "will", "odds", "characters", "saved", "extended", "teamwork",
    "contest", "multi", "init", "storyteller", "history", "stats", "config",
)

#: The help topic of every command (a test checks each command the bot has is here).
COMMAND_TOPICS: Final = {
    "roll": "roll", "odds": "odds", "will": "will", "character": "characters",
    "extended": "extended", "teamwork": "teamwork", "contest": "contest", "multi": "multi",
    "init": "init", "scene": "storyteller", "turn": "storyteller", "night": "storyteller",
    "history": "history", "stats": "stats", "config": "config", "help": "roll",
    "saved": "saved",
}


def _topic(topic: str) -> str:
    """A help topic as the member's Discord shows it among /help's choices."""
    return p_("choice", topic)


#: Trait words a sheet of each ruleset's template has (RULES.md §6), for the examples: a
#: v20 sheet has no Composure.
_BY_NAME: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("`Wits + Composure`"),
    Ruleset.V20: N_("`Perception + Alertness`"),
    Ruleset.FISTFUL: N_("`Wits + Composure`"),
}

#: How to set several traits at once, with traits of each ruleset's template.
_SET_TRAITS: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("`traits:\"Wits 3, Composure 2, Brawl 2\"`"),
    Ruleset.V20: N_("`traits:\"Perception 3, Alertness 2, Brawl 2\"`"),
    Ruleset.FISTFUL: N_("`traits:\"Wits 3, Composure 2, Brawl 2\"`"),
}


def _pool(ruleset: Ruleset) -> str:
    return _(
        "`pool:7` · `pool:4+3` · `pool:Manipulation 4 + Subterfuge 3 + 1 - 2` · "
        "`pool:[Strength 3 + Brawl 2]`\n"
        "A word followed by a number is a label for it (`Strength 3`); a word alone is read "
        "from your active character's sheet ({example}, see "
        "`/help topic:{characters}`). At most {max_pool} dice.",
        example=_(_BY_NAME[ruleset]), characters=_topic("characters"),
        max_pool=number(MAX_POOL),
    )


_OPTIONS: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "`again` 10/9/8/none (default 10-again) · `rote` (failed dice rerolled once) · "
        "`specialty` (+1 die) · `untrained` mental (-3) / physical or social (-1) · "
        "`resist` (dice to subtract, or Resolve/Stamina/Composure/Defense with "
        "`resist_target:@member` or a character's name: that sheet's trait) · "
        "`extra` (extra successes on a success) · "
        "`exceptional_at` (default 5)\n"
        "Below 1 die you roll a chance die: only a 10 succeeds, a 1 is a dramatic failure."
    ),
    Ruleset.V20: N_(
        "`difficulty` 2 to 10 (default 6) · `specialty` (10s count twice) · "
        "`auto` (automatic success: the pool must be at least the difficulty)\n"
        "Each 1 cancels a success; no success and a 1 is a botch. A pool of 0 or less "
        "cannot be rolled."
    ),
    Ruleset.FISTFUL: N_(
        "`untrained` (the skill has no dots: 1s eat successes) · `risky` (1s eat successes) · "
        "`initiative` (6 to 10 succeed) · `no_botch` (soak and the like) · "
        "`need` (successes required)\n"
        "8 to 10 succeed and 10s roll again. No successes with a 1 standing is a botch. "
        "A pool of 0 or less means the character cannot act now."
    ),
}

_EXAMPLES: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "`/roll pool:Dexterity 3 + Athletics 2 label:climb the wall`\n"
        "`/roll pool:Wits 2 + Investigation 3 again:9 rote:True`\n"
        "`/roll pool:Strength 2 + Brawl 1 untrained:physical will:True`"
    ),
    Ruleset.V20: N_(
        "`/roll pool:Dexterity 3 + Melee 2 difficulty:7 label:parry`\n"
        "`/roll pool:Manipulation 4 + Subterfuge 3 specialty:True`\n"
        "`/roll pool:Strength 4 + Athletics 3 difficulty:5 auto:True`"
    ),
    Ruleset.FISTFUL: N_(
        "`/roll pool:Dexterity 3 + Firearms 2 label:shoot the lock`\n"
        "`/roll pool:Wits 3 + Drive 0 untrained:physical risky:True`\n"
        "`/roll pool:Dexterity 2 + Wits 3 initiative:True`"
    ),
}

#: /odds's example: the second example of /roll, as odds.
_ODDS_EXAMPLES: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("`/odds pool:Wits 2 + Investigation 3 again:9 rote:True`"),
    Ruleset.V20: N_("`/odds pool:Manipulation 4 + Subterfuge 3 specialty:True`"),
    Ruleset.FISTFUL: N_("`/odds pool:Wits 3 + Drive 0 untrained:physical risky:True`"),
}

_WILL: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("Spending 1 Willpower adds 3 dice, once per roll."),
    Ruleset.V20: N_(
        "Spending 1 Willpower adds 1 success that no 1 can cancel, so the roll cannot botch. "
        "Once per roll; not with an automatic success."
    ),
    Ruleset.FISTFUL: N_(
        "Spending 1 Will adds 3 dice, once per action. It cannot rescue a pool of 0 or less. "
        "Your Will pool is Resolve + Composure."
    ),
}

_AGAIN_AND_SAVE: Final = N_(
    "**Roll again**: the same roll with fresh dice (Try again is that button on a failed "
    "labelled roll). **Save this roll**: keep it under a name for `/saved roll`."
)

_BUTTONS: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "**Spend Will**: adds Willpower after the roll, in place.\n"
        "**Take a Beat**: on a failure, make it a dramatic failure and gain a Beat.\n"
        "**Try again**: on a failed labelled roll, roll again with -1 die per earlier failure."
    ),
    Ruleset.V20: N_(
        "**Spend Will**: adds Willpower's success after the roll, in place.\n"
        "**Try again**: on a failed labelled roll, roll again at +1 difficulty per earlier "
        "failure (never reaching 10)."
    ),
    Ruleset.FISTFUL: N_(
        "**Spend Will**: adds 3 dice after the roll, in place; dice already rolled keep "
        "their places.\n"
        "**Try again**: on a failed labelled roll, roll the same request again."
    ),
}


def _buttons(ruleset: Ruleset) -> str:
    return _(_BUTTONS[ruleset]) + "\n" + _(_AGAIN_AND_SAVE)


_EXTENDED: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "Each roll adds its successes. Failure: take a Condition, lose all progress, or "
        "abandon. Exceptional success: reduce the target by your Skill dots, shorten the "
        "interval, or keep the exceptional result. A dramatic failure gives the next roll "
        "-2 dice, even in a fresh attempt at the same task (same label). The roll limit is "
        "Attribute + Skill + Specialty unless you set `max_rolls`."
    ),
    Ruleset.V20: N_(
        "Each roll adds its net successes; there is no roll limit unless you set one. A botch "
        "ends the attempt: start over from 0 or abandon. `against` (with `against_difficulty`) "
        "makes it a resisted action: both sides roll each interval until one reaches the target."
    ),
    Ruleset.FISTFUL: N_(
        "Successes accumulate over the rolls the Storyteller allows (`target`, `max_rolls` or "
        "both). A botch derails the effort: start again from 0 or abandon, unless the "
        "Storyteller waives it. `against` makes it an ongoing contest: the resister's excess "
        "each turn is taken from your progress."
    ),
}

_TEAMWORK: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "Each helper success is +1 die for the primary; any helper's dramatic failure is "
        "-4 dice (once)."
    ),
    Ruleset.V20: N_(
        "Helpers' net successes add dice to the primary's pool. Each helper beyond the "
        "`helper_limit` raises every roll's difficulty by 1."
    ),
    Ruleset.FISTFUL: N_(
        "Each helper success is +1 die for the primary; a helper's botch is -4 dice (once)."
    ),
}


def _plain(text: str) -> str:
    """Text-only mode: plain separators and words instead of symbols, for screen readers
    (every page writes its one arrow as `5→10`)."""
    return text.replace(" · ", "; ").replace("`5→10`", _("`5 rerolled to 10`"))


def help_embed(ruleset: Ruleset, topic: str | None, *, text_only: bool = False) -> discord.Embed:
    """How to use the bot in a channel with ``ruleset``: an overview, or one of HELP_TOPICS
    (``text_only``: without symbols, for screen readers), in the voice in force."""
    embed = _help_embed(ruleset, topic)
    if not text_only:
        return embed
    plain = discord.Embed(
        title=_plain(embed.title or ""),
        description=_plain(embed.description) if embed.description else None,
        colour=embed.colour,
    )
    for field in embed.fields:
        plain.add_field(name=_plain(field.name or ""), value=_plain(field.value or ""),
                        inline=False)
    if embed.footer.text:
        plain.set_footer(text=_plain(embed.footer.text))
    return plain


def _help_embed(ruleset: Ruleset, topic: str | None) -> discord.Embed:
    name = _(RULESET_NAMES[ruleset])
    if topic is None or topic not in HELP_TOPICS:
        description = _(
            "This channel uses **{name}**. Roll with `/roll pool:<dice>`; add "
            "`label:` to name what the roll is for, `will:True` to spend Willpower, "
            "`private:True` for a secret roll.\n"
            "The Storyteller here: {clock}",
            name=name, clock=_(_STORYTELLER_CLOCK[ruleset]),
        )
        if topic is not None:
            description = _(
                "There is no help topic “{topic}”.", topic=safe(topic, limit=50)
            ) + "\n\n" + description
        embed = discord.Embed(title=_("How to roll"), description=description,
                              colour=INFO_COLOUR)
        embed.add_field(name=_("Pool"), value=_pool(ruleset), inline=False)
        embed.add_field(name=_("Options ({ruleset})", ruleset=ruleset.value),
                        value=_(_OPTIONS[ruleset]), inline=False)
        embed.add_field(name=_("Examples"), value=_(_EXAMPLES[ruleset]), inline=False)
        embed.add_field(name=_("Buttons on a roll"), value=_buttons(ruleset), inline=False)
        embed.add_field(
            name=_("More help"),
            value=_("`/help topic:` {topics}",
                    topics=" · ".join(f"`{_topic(each)}`" for each in HELP_TOPICS)),
            inline=False,
        )
        return embed
    embed = discord.Embed(title=_("Help: {topic}", topic=_topic(topic)), colour=INFO_COLOUR)
    embed.set_footer(text=name)
    for field_name, value in _TOPICS[topic](ruleset):
        embed.add_field(name=field_name, value=value, inline=False)
    return embed


def _roll(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (_("Rolling"), _("`/roll pool:<dice> [label] [will] [private] [options]`") + "\n"
         + _pool(ruleset)),
        (_("Options ({ruleset})", ruleset=ruleset.value), _(_OPTIONS[ruleset])),
        (_("Examples"), _(_EXAMPLES[ruleset])),
        (
            _("Reading the reply"),
            _(
                "Successes are **bold**; 1s that cancel and the dice they cancel are struck "
                "through; rote rerolls show as `5→10`; extra dice are named for what drew them "
                "(`10-again`, `10-again, 2nd`); void dice (no longer needed after Will) are "
                "marked. A very large roll is summarised as counts per face. Extra dice stop at "
                "{max_extra}. The text-only setting says all of this in words "
                "(\"8 (success)\"); compact cards and plain messages (no embeds) are channel "
                "settings too.",
                max_extra=number(MAX_EXTRA),
            ),
        ),
        (
            _("Secret rolls"),
            _(
                "`private:True` shows you the dice; the channel sees only that you rolled, "
                "with the label. A full copy goes to the Storyteller channel when one is set."
            ),
        ),
        (_("Buttons"), _buttons(ruleset)),
    ]


def _will(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (_("Willpower"), _(_WILL[ruleset])),
        (
            _("When"),
            _(
                "Declare it with `will:True` on `/roll`, or press **Spend Will** on the roll "
                "afterwards: the same message updates, the Will dice are marked, and your Will "
                "goes down by 1. The button stays until you roll again in the channel, the "
                "turn or scene moves on, or the Storyteller closes it. A channel can require "
                "Will to be declared before rolling "
                "(`/config set option:will_timing value:before`)."
            ),
        ),
        (
            _("Your Will pool"),
            _(
                "`/will show [member]` · `/will set max:<n> [current:<n>]` · `/will rest` "
                "(regain 1) · `/will gain member:<m> amount:<n>` (Storyteller) · "
                "`/night` (Storyteller: everyone regains 1)"
            ),
        ),
    ]


def _odds(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Odds"),
            _(
                "`/odds pool:<dice> [options] [public]` shows you the exact chance of each "
                "outcome and of at least N successes, with a bar chart; `public:True` shows it "
                "to the whole channel. The options are /roll's, `spec` included (not `label` "
                "or `private`). Exact means computed from the rules, not simulated."
            ),
        ),
        (_("Example"), _(_ODDS_EXAMPLES[ruleset])),
    ]


def _config(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Settings"),
            _(
                "`/config show` · `/config ruleset ruleset:<cofd|v20|fistful> "
                "[scope:channel|server]` · `/config set option:<name> value:<value>` · "
                "`/config storyteller [role:<role>] [channel:<channel>] "
                "[clear:role|copies|both]`\n"
                "This channel's ruleset is **{name}**. A channel without one uses the "
                "server's; a server without one uses cofd.",
                name=_(RULESET_NAMES[ruleset]),
            ),
        ),
        (
            _("Channel options"),
            _(
                "`will_timing`: any / before · `pressure`: successive-attempt penalties on or "
                "off · `fistful_step`: dice lost per earlier action in a turn · `text_only`: "
                "words instead of emoji and symbols, for screen readers · `dice_order`: "
                "rolled / sorted · `compact`: short roll cards · `plain`: plain messages "
                "without embeds, for members whose Discord hides embeds · `initiative_pool`: "
                "trait names a fistful sheet rolls for initiative (default Dexterity + "
                "Composure) · `language`: en / pt-BR / es-ES, the language of the table's "
                "messages (with `scope:server`, the whole server's). `value` suggests what "
                "each option takes."
            ),
        ),
        (
            _("Back to the server's value"),
            _(
                "`default` (a value of `/config set`; in `/config ruleset`, the choice "
                "“Follow the server's ruleset”) takes away this channel's own value, so it "
                "follows the server's again (in a thread, its channel's). With "
                "`scope:server`, it takes away the server's own, which goes back to the "
                "default."
            ),
        ),
        (
            _("Who"),
            _(
                "Everyone can read `/config show`. Admins (Manage Server, or Manage Channels "
                "for a channel) change settings; every change is confirmed with the old and "
                "the new value."
            ),
        ),
    ]


def _history(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("History"),
            _(
                "`/history [count] [member]`: the channel's recent rolls, newest first, with "
                "what changed (Will spent, extended progress). Secret rolls are listed only for "
                "their roller and the Storyteller."
            ),
        ),
        (
            _("Voiding"),
            _(
                "The Storyteller voids a roll with `/history void:<roll #>`, the number its "
                "card and the list show: it stays listed and its message says it was voided."
            ),
        ),
        (_("Time"), _(_CLOCK[ruleset])),
    ]


def _extended(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Extended actions"),
            _(
                "`/extended start pool:<dice> target:<n> [max_rolls] [interval] [label] "
                "[skill] [against:<dice>] [options]` posts a card with the progress, the rolls "
                "used and buttons **Roll** and **Abandon**; after each roll the card offers "
                "exactly the choices the rules give. `/extended roll [label] [modifier] "
                "[will]`, `/extended list` and `/extended abandon [label]` do the same by "
                "command. Only the owner or the Storyteller may roll or decide."
            ),
        ),
        (
            _("Willpower"),
            _(
                "Declare it with `will:True` on `/extended roll`, or press **Spend Will** on "
                "the extended roll before anything else is decided: the action is read again "
                "with it."
            ),
        ),
        (_("In {ruleset}", ruleset=ruleset.value), _(_EXTENDED[ruleset])),
    ]


#: What a label makes of a teamwork and of a contest where successive attempts exist
#: (RULES.md §1, §2; `fistful` has none: it penalises actions within a turn instead).
_TEAMWORK_ATTEMPT: Final = N_(
    "A `label` makes the primary's roll their attempt at that action (successive attempts): "
    "it pays for their earlier failures at it and counts as a roll of that label does."
)
_CONTEST_ATTEMPT: Final = N_(
    "A `label` makes the contest your attempt at that action (successive attempts): it pays "
    "for your earlier failures at it; a win starts the count over, a loss or a tie is one "
    "failure more."
)


def _with_attempts(rules: str, ruleset: Ruleset, attempt: str) -> str:
    """A ruleset's page, with what a label makes of the action where successive attempts
    exist."""
    return rules if ruleset is Ruleset.FISTFUL else rules + "\n" + _(attempt)


def _teamwork(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Teamwork"),
            _(
                "`/teamwork start pool:<dice> [label] [helper_limit] [options]` posts a card. "
                "Others press **Help** (or use `/teamwork help pool:<dice>`) and roll at once; "
                "the primary presses **Roll** to roll with the bonus so far, or **Cancel**."
            ),
        ),
        (_("In {ruleset}", ruleset=ruleset.value),
         _with_attempts(_(_TEAMWORK[ruleset]), ruleset, _TEAMWORK_ATTEMPT)),
    ]


_INITIATIVE: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "Initiative = Dexterity + Composure + modifier + one die. Highest first; ties go to "
        "the higher Dexterity + Composure, then to a roll-off of one die."
    ),
    Ruleset.V20: N_(
        "Initiative = Dexterity + Wits + modifier + one die. Highest first; ties go to the "
        "higher Dexterity + Wits, then to a roll-off of one die."
    ),
    Ruleset.FISTFUL: N_(
        "An initiative roll of the pool + modifier (6 to 10 succeed, 10s roll again). Most "
        "successes first, a botch last; ties go to the larger pool, then to a roll-off. "
        "Without a pool, the sheet rolls the channel's `initiative_pool` (default "
        "Dexterity + Composure; `/config set option:initiative_pool value:Wits + Composure`)."
    ),
}


def _init(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Initiative"),
            _(
                "`/init start` (Storyteller) posts the channel's tracker card. Players press "
                "**Join** or `/init join [modifier]`: the active character's initiative from "
                "its sheet (no character: `/init join pool:<n>`); the Storyteller "
                "`/init add name:<name> value:<n> [modifier] [count]` for NPCs (a group's are "
                "rolled one by one). The first **Next** starts round 1; the acting player or "
                "the Storyteller presses **Next** to pass the turn, and past the last one a "
                "new round starts (as `/turn next`). **Delay** steps out of the order; "
                "**Act now** steps back in before whoever is acting. `/init remove name`, "
                "`/init end` and **End** are the Storyteller's; `/scene end` ends the tracker "
                "too."
            ),
        ),
        (_("In {ruleset}", ruleset=ruleset.value), _(_INITIATIVE[ruleset])),
    ]


def _stats(_ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Dice statistics"),
            _(
                "`/stats [member] [scope:channel|server] [ruleset] [since]`: the rolls made, "
                "their outcomes and Will spent; how often each face 1 to 10 came up beside the "
                "10 % a fair die gives, with a chi-square test; and the outcomes as first "
                "rolled beside the exact odds of the very rolls made (big pools are compared "
                "with big-pool odds). A chart shows both, with the range fair dice stay in "
                "95 % of the time."
            ),
        ),
        (
            _("Reading the verdict"),
            _(
                "\"These dice look fair (p = 0.41 over 2,315 dice)\": nothing fair dice would "
                "not do. Below p = 0.01 the reply says what is unusual and how rarely fair dice "
                "do it (\"about 1 time in 300\"); with few rolls it says how many more are "
                "needed. Voided rolls never count."
            ),
        ),
        (
            _("Options"),
            _(
                "`since`: a date (`2025-01-31`) or `7d`, `2w`, `3m`, `1y` back from today "
                "(UTC). `member`: one member's rolls. `scope:server`: the channels you can "
                "read (the Storyteller: every channel; your own rolls, with `member` yourself: "
                "wherever you rolled). Secret rolls count for their roller and "
                "the Storyteller; nobody else's totals include them. `export:True` gives the "
                "roll log as a CSV file: your own rolls, or for the Storyteller the channel's."
            ),
        ),
    ]


_STORYTELLER_CLOCK: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "`/scene end` when a scene ends: successive attempts at a task start over. "
        "`/turn next` closes the open Spend Will buttons of the last turn."
    ),
    Ruleset.V20: N_(
        "`/scene end` when a scene ends: the difficulty added by repeated attempts starts "
        "over. `/turn next` closes the open Spend Will buttons of the last turn."
    ),
    Ruleset.FISTFUL: N_(
        "`/turn next` every turn: the Successive Action Penalty starts over (each earlier "
        "action this turn costs dice until then). `/scene end` at a scene's end."
    ),
}


#: What each of the Storyteller's clock commands does: the Successive Action Penalty is
#: `fistful`'s alone (RULES.md §3), so a `cofd` or `v20` page does not name it, as the
#: channel's `/turn next` message does not (bot.render.state.turn_advanced).
_CLOCK: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "`/scene end`: successive attempts and the turn count start over, open roll buttons "
        "close, unfinished teamwork and waiting contests end, the initiative tracker ends. "
        "`/turn next`: open roll buttons close. `/night`: every tracked Will pool in the "
        "server regains 1."
    ),
    Ruleset.V20: N_(
        "`/scene end`: successive attempts and the turn count start over, open roll buttons "
        "close, unfinished teamwork and waiting contests end, the initiative tracker ends. "
        "`/turn next`: open roll buttons close. `/night`: every tracked Will pool in the "
        "server regains 1."
    ),
    Ruleset.FISTFUL: N_(
        "`/scene end`: successive attempts and the turn count start over, open roll buttons "
        "close, unfinished teamwork and waiting contests end, the initiative tracker ends. "
        "`/turn next`: the Successive Action Penalty starts over and open roll buttons close. "
        "`/night`: every tracked Will pool in the server regains 1."
    ),
}


def _storyteller(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (_("What the Storyteller runs in {ruleset}", ruleset=ruleset.value),
         _(_STORYTELLER_CLOCK[ruleset])),
        (_("The clock"), _(_CLOCK[ruleset])),
        (
            _("More of the Storyteller's"),
            _(
                "`/will gain member amount` · `/history void:<roll #>` · NPC sheets "
                "(`/character create npc:True`) · `/init start|add|remove|end` · deciding "
                "anyone's extended action."
            ),
        ),
        (
            _("Who is the Storyteller"),
            _(
                "Anyone with Manage Channels in the channel, and the role an admin names with "
                "`/config storyteller`. Everyone sees every command; a player who uses a "
                "Storyteller's is told whose it is and nothing changes."
            ),
        ),
    ]


def _secret(_ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Secret rolls"),
            _(
                "`/roll pool:<dice> private:True`: you see the whole roll, only you; the "
                "channel sees one line saying you made a secret roll, with its label, never "
                "the dice."
            ),
        ),
        (
            _("The Storyteller's copy"),
            _(
                "When an admin sets a Storyteller channel (`/config storyteller role:<role> "
                "channel:<channel>`), a full copy of every secret roll goes there, and it "
                "follows Spend Will and the other buttons. `/history` lists a secret roll only "
                "to its roller and the Storyteller; `/stats` counts it only in its roller's and "
                "the Storyteller's totals."
            ),
        ),
    ]


_OPPOSED: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("Both sides roll; more successes wins, a tie is a stalemate."),
    Ruleset.V20: N_(
        "Both sides roll against their difficulty (`difficulty`, `opponent_difficulty`); "
        "more net successes wins and the margin names the degree of success."
    ),
    Ruleset.FISTFUL: N_(
        "Both sides roll; each side's successes cancel the other's, and the side left "
        "with successes carries the consequences."
    ),
}


def _contest(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Contests"),
            _(
                "`/contest pool:<dice> against:<dice>` rolls both sides now (the "
                "Storyteller's NPC), or `/contest pool:<dice> opponent:@member`: the opponent "
                "gets a **Roll to resist** button that opens a form for their pool (read from "
                "their sheet when they name traits). The card names the winner and the margin."
            ),
        ),
        (_("In {ruleset}", ruleset=ruleset.value),
         _with_attempts(_(_OPPOSED[ruleset]), ruleset, _CONTEST_ATTEMPT)),
    ]


def _multi(ruleset: Ruleset) -> list[tuple[str, str]]:
    page = _(
        "`/multi actions:\"Dexterity 3 + Athletics 2; Strength 3 + Brawl 3\" "
        "[difficulty]`: declares the actions of one turn and rolls them with the "
        "multiple-action penalty: action k has k dice fewer and difficulty +k (even the "
        "first one pays). The whole declaration is refused if any action would reach "
        "difficulty 10."
    )
    if ruleset is not Ruleset.V20:
        page += " " + _("This channel uses another ruleset: `/multi` is refused here.")
    return [(_("Several actions in one turn (v20)"), page)]


#: Rolling by trait names, with what each ruleset's sheet decides by itself (RULES.md §6:
#: untrained Skills cost dice only in cofd and make a fistful roll unskilled; Beats are
#: cofd's).
_BY_NAME_ROLLS: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_(
        "`/roll pool:Wits + Composure`: each word is read from your active character "
        "(a unique start is enough: `Dex`), a typed number wins (`Strength 5`). The "
        "sheet's specialty (`spec:Boxing`) and untrained Skills apply by themselves, "
        "and the breakdown says where each number came from. Will, Beats and "
        "Experience are the character's."
    ),
    Ruleset.V20: N_(
        "`/roll pool:Perception + Alertness`: each word is read from your active character "
        "(a unique start is enough: `Dex`), a typed number wins (`Strength 5`). The "
        "sheet's specialty (`spec:Boxing`) applies by itself; an Ability at 0 dots adds no "
        "penalty (the Storyteller sets the difficulty). The breakdown says where each "
        "number came from. Will is the character's."
    ),
    Ruleset.FISTFUL: N_(
        "`/roll pool:Wits + Composure`: each word is read from your active character "
        "(a unique start is enough: `Dex`), a typed number wins (`Strength 5`). The "
        "sheet's specialty (`spec:Boxing`) applies by itself, and a Skill at 0 dots makes "
        "the roll unskilled (1s eat successes). The breakdown says where each number came "
        "from. Will is the character's."
    ),
}


def _characters(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Your sheet"),
            _(
                "`/character create name:<name>` makes a {ruleset} sheet (or `template:`) and "
                "makes it your active character in this server. `/character set "
                "trait:<name> value:<n>` or {traits}, "
                "`/character specialty`, `/character condition`, `/character show`, "
                "`/character use` (`channel:True` pins one to this channel), "
                "`/character list`, `rename`, `delete`, `export`, `import`.",
                ruleset=ruleset.value, traits=_(_SET_TRAITS[ruleset]),
            ),
        ),
        (_("Rolling by name"), _(_BY_NAME_ROLLS[ruleset])),
    ]


def _saved(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [
        (
            _("Saved rolls"),
            _(
                "`/saved add name:<name> pool:<dice> [label] [spec] [options] [replace]` keeps "
                "a roll under a name (up to {max_saved} in this server; a name already used "
                "needs `replace:True`). `/saved roll name:<name> [modifier] [will] [label] "
                "[private]` rolls it; `name` autocompletes yours. `/saved list` · "
                "`/saved delete name:<name>`. **Save this roll** on one of your rolls asks a "
                "name and saves it as you asked it.",
                max_saved=number(MAX_SAVED),
            ),
        ),
        (
            _("Rolled as of now"),
            _(
                "A saved roll keeps its pool as you typed it: trait names ({example}) "
                "are read from your character's sheet when you roll, and the channel's ruleset "
                "applies then (an option it does not have is refused). Will is never saved: "
                "declare it with `will:True` or press **Spend Will** after the roll.",
                example=_(_BY_NAME[ruleset]),
            ),
        ),
        (
            _("Roll again"),
            _(
                "Every roll offers **Roll again**: the same roll, fresh dice, successive-attempt "
                "penalties as for any roll. On a failed labelled roll that button is **Try "
                "again**. Only the roller may press it, once."
            ),
        ),
    ]


_TOPICS: Final = {
    "roll": _roll,
    "secret": _secret,
    "contest": _contest,
    "multi": _multi,
    "characters": _characters,
    "storyteller": _storyteller,
    "will": _will,
    "odds": _odds,
    "config": _config,
    "history": _history,
    "extended": _extended,
    "teamwork": _teamwork,
    "init": _init,
    "stats": _stats,
    "saved": _saved,
}
