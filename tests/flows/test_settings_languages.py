"""The language setting end to end, and settings, /stats and the clock in Portuguese and
Spanish: public messages in the table's language, a member's own answers in theirs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.flows import clock, config, history
from bot.flows.context import Ctx
from bot.flows.stats import Member, stats
from bot.render import lang
from bot.render import stats as stats_render
from bot.store import Tx
from engine.faces import ScriptedFaces
from engine.models import Again, RollRequest, Ruleset, Term
from engine.offers import will_state_for
from engine.records import ChannelConfig, Language
from engine.roll import roll as roll_dice
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Table

THREAD = 55
OTHER_CHANNEL = 2_000_000_000_000_000_077


def admin(table: Table, **changes: object) -> Ctx:
    return replace(table.ctx(STORYTELLER, **changes), manages_guild=True)  # type: ignore[arg-type]


async def _language(table: Table, value: str, scope: str = "channel",
                    channel_id: int = CHANNEL) -> str:
    said = await table.run(config.set_option(
        table.deps, admin(table, channel_id=channel_id), "language", value, scope))
    assert not said.answer.ephemeral
    return said.answer.text


async def _bulk(table: Table, faces: list[int], times: int, *, user: int = ALICE) -> None:
    """Rolls written straight to the log (no roll card: the words here are /stats')."""
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=len(faces)),),
                          again=Again.NONE)
    settings = ChannelConfig(guild_id=GUILD, channel_id=CHANNEL)

    def write(tx: Tx) -> None:
        for _ in range(times):
            result = roll_dice(request, ScriptedFaces(faces))
            tx.rolls.insert(
                guild_id=GUILD, channel_id=CHANNEL, roller_id=user, result=result,
                will_state=will_state_for(result, settings),
            )

    await table.store.write(write)


# --- which language ---------------------------------------------------------------------------


async def test_a_channel_language_is_confirmed_in_the_new_language_and_shown(table: Table) -> None:
    table.speak("en-US")
    confirmed = await _language(table, "pt-BR")
    assert confirmed == (
        f"Idioma em <#{CHANNEL}> agora é Português (Brasil) (era o idioma do servidor no"
        " Discord)."
    )
    english_member = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert english_member.answer.ephemeral
    assert "**Language:** Português (Brasil)" in english_member.answer.text
    table.speak("pt-BR")
    shown = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert "**Idioma:** Português (Brasil)" in shown.answer.text
    assert "**Regras:**" in shown.answer.text
    assert "**Cargo de Narrador:** não definido (e qualquer um com Gerenciar Canais)" \
        in shown.answer.text


async def test_the_server_language_needs_manage_server_and_channels_keep_their_own(
    table: Table,
) -> None:
    table.speak("en-US")
    refused = await table.run(config.set_option(
        table.deps, table.ctx(STORYTELLER), "language", "es-ES", "server"))
    assert refused.answer.ephemeral
    assert refused.answer.text == "You need the Manage Server permission for this."
    await _language(table, "pt-BR")
    server = await _language(table, "es-ES", "server")
    assert server == (
        "El idioma del servidor ahora es Español (era el idioma del servidor en Discord)."
        " Los canales que eligieron su propio idioma lo mantienen."
    )
    here = await table.run(clock.turn_next(table.deps, table.ctx(STORYTELLER)))
    elsewhere = await table.run(clock.turn_next(
        table.deps, table.ctx(STORYTELLER, channel_id=OTHER_CHANNEL)))
    assert here.answer.text == "**Próximo turno.**"
    assert elsewhere.answer.text == "**Siguiente turno.**"
    again = await _language(table, "es-ES", "server")
    assert again == "El idioma del servidor sigue siendo Español: ya lo era."


async def test_only_the_language_has_a_server_value_said_in_the_members_language(
    table: Table,
) -> None:
    """The scope is named as the member's client shows its choices, in the same language
    as the answer (``canal``, ``servidor``), where the Portuguese and Spanish answers told
    them to leave scope at ``channel``, a choice their list does not show."""
    table.speak("pt-BR")
    said = await table.run(config.set_option(
        table.deps, admin(table), "dice_order", "sorted", "server"))
    assert said.answer.ephemeral
    assert said.answer.text == (
        "Só o idioma tem um valor para o servidor todo em /config definir (as regras têm"
        " /config regras scope:servidor): deixe scope em canal para esta configuração."
    )
    table.speak("es-ES")
    spanish = await table.run(config.set_option(
        table.deps, admin(table), "dice_order", "sorted", "server"))
    assert spanish.answer.text.endswith(
        "/config reglas scope:servidor): deja scope en canal para este ajuste.")
    stored = await table.store.read(lambda tx: tx.settings.config(GUILD, CHANNEL))
    assert stored.dice_order.value == "rolled"


async def test_a_thread_speaks_its_channels_language(table: Table) -> None:
    table.speak("en-US")
    await _language(table, "es-ES")
    said = await table.run(clock.turn_next(
        table.deps, table.ctx(STORYTELLER, channel_id=THREAD, parent_id=CHANNEL)))
    assert said.answer.text == "**Siguiente turno.**"


@pytest.mark.parametrize(("locale", "shown", "changed"), [
    ("en-US", "Dexterity + Composure", "Wits + Self-Control + Stealth"),
    ("pt-BR", "Destreza + Autocontrole", "Raciocínio + Autocontrole + Furtividade"),
    ("es-ES", "Destreza + Compostura", "Astucia + Autocontrol + Sigilo"),
])
async def test_the_initiative_pool_names_its_traits_in_the_tables_language(
    table: Table, locale: str, shown: str, changed: str
) -> None:
    table.speak(locale, locale)
    said = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert f" {shown}\n" in said.answer.text
    confirmed = await table.run(config.set_option(
        table.deps, table.ctx(STORYTELLER), "initiative_pool", "Wits + Self-Control + Stealth"))
    assert f" {changed} " in confirmed.answer.text


async def test_the_servers_discord_locale_is_used_when_nothing_is_set(table: Table) -> None:
    """With no language set, the table hears the server's language on Discord when the bot
    speaks it, else English; /config show says which, where it said "the server's language
    on Discord" of a German server whose table heard English."""
    table.speak("en-US", "pt-BR")
    public = await table.run(clock.turn_next(table.deps, table.ctx(STORYTELLER)))
    own = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert public.answer.text == "**Próximo turno.**"
    assert "**Language:** Português (Brasil) (the server's language on Discord)\n" in (
        own.answer.text)
    table.speak("en-US", "de")  # no language of ours: English
    english = await table.run(clock.turn_next(table.deps, table.ctx(STORYTELLER)))
    assert english.answer.text == "**Next turn.**"
    shown = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert ("**Language:** English (the server's language on Discord is not one the bot"
            " speaks)\n") in shown.answer.text
    table.speak("es-ES", "de")
    spanish = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert ("**Idioma:** English (el idioma del servidor en Discord no es uno que hable el"
            " bot)\n") in spanish.answer.text


async def test_a_refusal_follows_the_members_client_the_table_its_setting(table: Table) -> None:
    table.speak("en-US")
    await _language(table, "pt-BR")
    table.speak("es-ES")
    refused = await table.run(clock.scene_end(table.deps, table.ctx(BOB)))
    assert refused.answer.ephemeral
    assert refused.answer.text.startswith("Solo el Narrador puede hacer esto")
    done = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
    assert not done.answer.ephemeral
    assert done.answer.text == "**A cena termina.** As tentativas sucessivas recomeçam."


def test_value_suggestions_speak_the_members_language() -> None:
    with lang.speaking(lang.voice(Language.ES_ES)):
        suggested = config.value_suggestions("dice_order", "")
        step = config.value_suggestions("fistful_step", "1")
    assert suggested == [
        ("rolled: dados en el orden en que se tiraron", "rolled"),
        ("sorted: dados de mayor a menor", "sorted"),
        ("default: sin valor propio del canal: sigue el del servidor (un hilo: el de su"
         " canal)", "default"),
    ]
    assert step == [("1: 1 dado menos por acción anterior en este turno", "1")]


# --- settings, the clock and the history in each language -------------------------------------


@pytest.mark.parametrize(("language", "expected"), [
    ("pt-BR", (
        f"Ordem dos dados em <#{CHANNEL}> agora é sorted (era rolled).",
        ("**A noite cai.** Nenhuma Vontade é acompanhada neste servidor ainda, então nenhuma foi"
         " recuperada: cada jogador define a sua com /vontade definir max:<n>, e a ficha de um"
         " personagem tem a sua própria."),
        "Ainda não há rolagens neste canal.",
        "Não há rolagem #5 neste canal.",
    )),
    ("es-ES", (
        f"Orden de los dados en <#{CHANNEL}> ahora es sorted (era rolled).",
        ("**Cae la noche.** Aún no se registra ninguna Voluntad en este servidor, así que no se"
         " recuperó ninguna: cada jugador fija la suya con /voluntad fijar max:<n>, y la hoja de"
         " un personaje lleva la suya."),
        "Aún no hay tiradas en este canal.",
        "No hay ninguna tirada #5 en este canal.",
    )),
])
async def test_settings_the_clock_and_the_history_speak_the_language(
    table: Table, language: str, expected: tuple[str, ...]
) -> None:
    table.speak(language, language)
    order = await table.run(config.set_option(
        table.deps, table.ctx(STORYTELLER), "dice_order", "sorted"))
    night = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    log = await table.run(history.history(table.deps, table.ctx(ALICE)))
    void = await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=5))
    said = (order.answer.text, night.answer.text, log.answer.text, void.answer.text)
    assert said == expected


@pytest.mark.parametrize(("language", "ends"), [
    ("pt-BR", "**A cena termina.** As tentativas sucessivas recomeçam (1 ação reiniciada)."),
    ("es-ES", "**La escena termina.** Los intentos sucesivos empiezan de cero (1 acción"
              " reiniciada)."),
])
async def test_the_scene_ends_in_the_tables_language(
    table: Table, language: str, ends: str
) -> None:
    def fail(tx: Tx) -> None:
        tx.attempts.save_failures(GUILD, CHANNEL, ALICE, "climb", old=0, new=1)

    await table.store.write(fail)
    table.speak("en-US", language)
    said = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.text == ends


# --- /stats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "words"), [
    ("pt-BR", ("🎲 Estatísticas dos dados", "Rolagens de todos neste canal. Os resultados",
               "20 rolagens, 200 dados · Vontade nunca gasta",
               "Incomum: o 1 saiu em 30,0% das vezes, quando o esperado era 10,0% (p < 0,0001 em"
               " 200 dados); isso acontece por acaso menos de 1 vez em um milhão.",
               "(10% esperado para cada)", "Resultados contra as chances (cofd)",
               "caem 95% das vezes")),
    ("es-ES", ("🎲 Estadísticas de los dados", "Tiradas de todos en este canal. Los resultados",
               "20 tiradas, 200 dados · Voluntad nunca gastada",
               "Inusual: el 1 salió el 30,0\u00a0% de las veces, cuando se esperaba el 10,0\u00a0%"
               " (p < 0,0001 en 200 dados); esto pasa por azar menos de 1 vez de cada millón.",
               "(10\u00a0% esperado para cada una)",
               "Resultados frente a las probabilidades (cofd)",
               "el 95\u00a0% de las veces")),
])
async def test_stats_speak_the_members_language_chart_included(
    table: Table, language: str, words: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    label = stats_render._label

    def recorded(image: object, xy: tuple[float, float], text: str, **kwargs: object) -> None:
        drawn.append(text)
        label(image, xy, text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(stats_render, "_label", recorded)
    await _bulk(table, [1, 1, 1, 2, 3, 4, 5, 6, 7, 8], 20)
    table.speak(language, "en-US")
    said = await table.run(stats(table.deps, table.ctx(ALICE)))
    text = said.answer.text
    for expected in words:
        assert expected in text
    for english in ("Dice statistics", "rolls", "Unusual", "expected", "Outcomes",
                    "Will spent", "Will never", "time in", "fair dice"):
        assert english not in text
    chart = " | ".join(drawn)
    assert ("cofd: faces" if language == "pt-BR" else "cofd: caras") in chart
    assert ("Falha" if language == "pt-BR" else "Fallo") in chart
    assert ("barras: rolado" if language == "pt-BR" else "barras: tirado") in chart
    for english in ("outcomes", "bars:", "Failure", "Exceptional"):
        assert english not in chart


async def test_stats_refusals_and_export_speak_the_members_language(table: Table) -> None:
    await _bulk(table, [8, 2, 3], 2)
    table.speak("pt-BR")
    nobody = await table.run(stats(table.deps, table.ctx(ALICE), member=Member(BOB, "Bob")))
    refused = await table.run(stats(table.deps, table.ctx(ALICE), member=Member(BOB, "Bob"),
                                    export=True))
    export = await table.run(stats(table.deps, table.ctx(ALICE), export=True))
    assert nobody.answer.text == "Ainda não há rolagens de Bob para contar neste canal."
    assert refused.answer.text == (
        "Você pode exportar as suas próprias rolagens; só o Narrador pode exportar as de"
        " outro membro."
    )
    assert export.answer.text == (
        "O registro das suas rolagens neste canal: 2 rolagens, as mais recentes primeiro,"
        " as anuladas marcadas."
    )
