"""The template traits' names in each language the bot speaks (issue 14, item 5).

A sheet keeps its traits under their canonical English names (the templates of
:mod:`engine.characters`); these tables give each of them its name in the
Brazilian and Spanish editions of the games, so a pool, ``/character set`` or a
resistance may name a trait in any of the bot's languages (``Raciocínio``,
``Astucia`` and ``Wits`` are one trait) and a card can show it in the table's.
They are data, as the English templates are: names of game traits, not wording.

**Decision** (the sheet's language): a sheet remembers no language. Every sheet
matches every language's names (no migration; a sheet moved to a channel of
another language keeps working), which stays unambiguous because within one
template no two traits share a name in any language (tests/engine/test_trait_names.py
checks it); a name two traits of one sheet would share (a custom trait named like
another trait's translation) matches neither, and a sheet's own trait names always
win. A prefix looks at the English names first (``Res`` stays Resolve). The table's
language (the public voice's) is the one cards show names in, autocomplete offers
first and a refusal offers traits in (the closest names, a prefix's choices: one per
trait, whichever of its names matched, in a member's own answer too); a pool's
breakdown shows each name as it was typed.

Languages are keyed by their Discord locale codes, the values of
:class:`engine.records.Language` (which imports this package's sheets, so it
cannot be imported here).
"""

from __future__ import annotations

from typing import Final

__all__ = ["LOCALISED", "localised"]

#: Canonical English name -> (Portuguese (Brazil), Spanish): every attribute, skill,
#: ability and virtue of the `cofd`/`fistful` and `v20` templates and the derived traits.
#: **Decision** where an edition's term was not certain or two traits of one template
#: would share a name (Awareness is Intuição/Intuición: Consciência is Conscience).
_NAMES: Final[dict[str, tuple[str, str]]] = {
    # Attributes (the glossaries, docs/i18n).
    "Intelligence": ("Inteligência", "Inteligencia"),
    "Wits": ("Raciocínio", "Astucia"),
    "Resolve": ("Determinação", "Resolución"),
    "Strength": ("Força", "Fuerza"),
    "Dexterity": ("Destreza", "Destreza"),
    "Stamina": ("Vigor", "Resistencia"),
    "Presence": ("Presença", "Presencia"),
    "Manipulation": ("Manipulação", "Manipulación"),
    "Composure": ("Autocontrole", "Compostura"),
    "Charisma": ("Carisma", "Carisma"),
    "Appearance": ("Aparência", "Apariencia"),
    "Perception": ("Percepção", "Percepción"),
    # `cofd` Skills and `v20` Abilities.
    "Academics": ("Acadêmicos", "Academicismo"),
    "Computer": ("Computação", "Informática"),
    "Crafts": ("Ofícios", "Artesanía"),
    "Investigation": ("Investigação", "Investigación"),
    "Medicine": ("Medicina", "Medicina"),
    "Occult": ("Ocultismo", "Ocultismo"),
    "Politics": ("Política", "Política"),
    "Science": ("Ciência", "Ciencia"),
    "Athletics": ("Esportes", "Atletismo"),
    "Brawl": ("Briga", "Pelea"),
    "Drive": ("Condução", "Conducir"),
    "Firearms": ("Armas de Fogo", "Armas de Fuego"),
    "Larceny": ("Furto", "Latrocinio"),
    "Stealth": ("Furtividade", "Sigilo"),
    "Survival": ("Sobrevivência", "Supervivencia"),
    "Weaponry": ("Armamento", "Armamento"),
    "Animal Ken": ("Trato com Animais", "Trato con Animales"),
    "Empathy": ("Empatia", "Empatía"),
    "Expression": ("Expressão", "Expresión"),
    "Intimidation": ("Intimidação", "Intimidación"),
    "Persuasion": ("Persuasão", "Persuasión"),
    "Socialize": ("Socialização", "Socializar"),
    "Streetwise": ("Manha", "Callejeo"),
    "Subterfuge": ("Lábia", "Subterfugio"),
    "Alertness": ("Prontidão", "Alerta"),
    "Awareness": ("Intuição", "Intuición"),
    "Leadership": ("Liderança", "Liderazgo"),
    "Legerdemain": ("Prestidigitação", "Prestidigitación"),
    "Archery": ("Arquearia", "Tiro con Arco"),
    "Commerce": ("Comércio", "Comercio"),
    "Etiquette": ("Etiqueta", "Etiqueta"),
    "Melee": ("Armas Brancas", "Pelea con Armas"),
    "Performance": ("Performance", "Interpretación"),
    "Ride": ("Cavalgar", "Equitación"),
    "Enigmas": ("Enigmas", "Enigmas"),
    "Hearth Wisdom": ("Sabedoria Popular", "Sabiduría Popular"),
    "Law": ("Direito", "Leyes"),
    "Seneschal": ("Senescal", "Senescal"),
    "Theology": ("Teologia", "Teología"),
    # `v20` Virtues.
    "Conscience": ("Consciência", "Conciencia"),
    "Self-Control": ("Autocontrole", "Autocontrol"),
    "Courage": ("Coragem", "Coraje"),
    # Derived traits (the glossaries: Força de Vontade, Defesa, Deslocamento, Vitalidade).
    "Willpower": ("Força de Vontade", "Fuerza de Voluntad"),
    "Defense": ("Defesa", "Defensa"),
    "Initiative": ("Iniciativa", "Iniciativa"),
    "Speed": ("Deslocamento", "Velocidad"),
    "Health": ("Vitalidade", "Salud"),
}

#: Language code -> canonical English name -> the name in that language's editions.
LOCALISED: Final[dict[str, dict[str, str]]] = {
    code: {english: names[at] for english, names in _NAMES.items()}
    for at, code in enumerate(("pt-BR", "es-ES"))
}

_BY_KEY: Final[dict[str, str]] = {english.casefold(): english for english in _NAMES}


def localised(name: str, language: str) -> str:
    """A trait's name as ``language``'s editions write it (``Wits`` → ``Raciocínio``);
    a name that is no template trait (or English) comes back as it is."""
    names = LOCALISED.get(language)
    english = _BY_KEY.get(name.casefold())
    if names is None or english is None:
        return name
    return names[english]
