"""The subset of Discord's request validation that catches real bot bugs.

Each checker returns ``FormError`` records; the fake turns them into a 400 with Discord's
``50035 Invalid Form Body`` shape and records a failure. Limits follow the API docs
(message, embed, component, modal, autocomplete and application-command limits).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .model import FLAG_COMPONENTS_V2, JSON

_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
_MAX = "BASE_TYPE_MAX_LENGTH"
_BAD_LENGTH = "BASE_TYPE_BAD_LENGTH"
_REQUIRED = "BASE_TYPE_REQUIRED"

#: The locales Discord knows (https://discord.com/developers/docs/reference#locales): the
#: only keys ``name_localizations`` and ``description_localizations`` may have.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})


@dataclass(frozen=True)
class FormError:
    path: str
    code: str
    message: str


def form_error_body(errors: list[FormError]) -> JSON:
    tree: JSON = {}
    for error in errors:
        node = tree
        for part in error.path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": tree}


def _too_long(value: Any, limit: int, path: str) -> list[FormError]:
    if isinstance(value, str) and len(value) > limit:
        return [FormError(path, _MAX, f"Must be {limit} or fewer in length.")]
    return []


def _length_between(value: Any, low: int, high: int, path: str) -> list[FormError]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        return [FormError(path, _BAD_LENGTH, f"Must be between {low} and {high} in length.")]
    return []


def message_errors(body: JSON, prefix: str = "") -> list[FormError]:
    """Errors in the message fields of a create/edit body (only keys present are checked)."""
    errors = _too_long(body.get("content"), 2000, f"{prefix}content")
    embeds: list[JSON] = body.get("embeds") or []
    if len(embeds) > 10:
        errors.append(FormError(f"{prefix}embeds", _MAX, "Must be 10 or fewer in length."))
    total = 0
    for index, embed in enumerate(embeds):
        total += _embed_errors(embed, f"{prefix}embeds.{index}", errors)
    if total > 6000:
        errors.append(
            FormError(
                f"{prefix}embeds",
                "MAX_EMBED_SIZE_EXCEEDED",
                "Embed size exceeds maximum size of 6000",
            )
        )
    v2 = bool((body.get("flags") or 0) & FLAG_COMPONENTS_V2)
    if v2 and (body.get("content") or embeds):
        errors.append(
            FormError(
                f"{prefix}content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2",
            )
        )
    errors.extend(
        component_errors(body.get("components") or [], v2=v2, prefix=f"{prefix}components")
    )
    return errors


def _embed_errors(embed: JSON, path: str, errors: list[FormError]) -> int:
    """Append errors for one embed; return its character count towards the 6000 total."""
    title = embed.get("title") or ""
    description = embed.get("description") or ""
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    errors.extend(_too_long(title, 256, f"{path}.title"))
    errors.extend(_too_long(description, 4096, f"{path}.description"))
    errors.extend(_too_long(footer, 2048, f"{path}.footer.text"))
    errors.extend(_too_long(author, 256, f"{path}.author.name"))
    fields: list[JSON] = embed.get("fields") or []
    if len(fields) > 25:
        errors.append(FormError(f"{path}.fields", _MAX, "Must be 25 or fewer in length."))
    size = len(title) + len(description) + len(footer) + len(author)
    for index, embed_field in enumerate(fields):
        name = embed_field.get("name") or ""
        value = embed_field.get("value") or ""
        for key, text, limit in (("name", name, 256), ("value", value, 1024)):
            if not text:
                errors.append(
                    FormError(f"{path}.fields.{index}.{key}", _REQUIRED, "This field is required")
                )
            errors.extend(_too_long(text, limit, f"{path}.fields.{index}.{key}"))
        size += len(name) + len(value)
    return size


#: What notifies someone in a message's content: @everyone and @here, a member's and a
#: role's mention; one after a backslash is shown as text and notifies no one.
_PING = re.compile(r"(?<!\\)(@everyone|@here|<@!?\d+>|<@&\d+>)")


def pings(content: Any, allowed_mentions: JSON | None) -> list[str]:
    """The mentions in ``content`` that would notify someone under ``allowed_mentions``
    (absent: Discord parses every kind): the bot must never ping, whatever names say."""
    if not isinstance(content, str):
        return []
    allowed = allowed_mentions or {"parse": ["everyone", "users", "roles"]}
    parse = set(allowed.get("parse") or ())
    users = {str(user) for user in allowed.get("users") or ()}
    roles = {str(role) for role in allowed.get("roles") or ()}
    found: list[str] = []
    for mention in _PING.findall(content):
        if mention.startswith("@"):
            notifies = "everyone" in parse
        elif mention.startswith("<@&"):
            notifies = "roles" in parse or mention[3:-1] in roles
        else:
            notifies = "users" in parse or mention.strip("<@!>") in users
        if notifies:
            found.append(mention)
    return found


def component_errors(
    components: list[JSON], *, v2: bool, prefix: str = "components"
) -> list[FormError]:
    errors: list[FormError] = []
    if not v2:
        if len(components) > 5:
            errors.append(FormError(prefix, _BAD_LENGTH, "Must be between 1 and 5 in length."))
        for index, row in enumerate(components):
            if row.get("type") != 1:
                errors.append(
                    FormError(
                        f"{prefix}.{index}",
                        "UNION_TYPE_CHOICES",
                        "Top-level components must be action rows",
                    )
                )
    seen: set[str] = set()
    count = _check_tree(components, prefix, seen, errors)
    if v2 and count > 40:
        errors.append(
            FormError(prefix, "MAX_COMPONENTS", "Must be 40 or fewer components in total.")
        )
    return errors


def _check_tree(components: list[JSON], path: str, seen: set[str], errors: list[FormError]) -> int:
    count = 0
    for index, component in enumerate(components):
        here = f"{path}.{index}"
        count += 1
        kind = component.get("type")
        if kind == 1:
            children: list[JSON] = component.get("components") or []
            buttons = sum(1 for child in children if child.get("type") == 2)
            selects = len(children) - buttons
            if not children or buttons > 5 or (selects and len(children) > 1):
                errors.append(
                    FormError(
                        f"{here}.components",
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
                )
        elif kind == 2:
            errors.extend(_too_long(component.get("label"), 80, f"{here}.label"))
            if component.get("style") == 5:
                if not component.get("url"):
                    errors.append(FormError(f"{here}.url", _REQUIRED, "This field is required"))
            elif component.get("style") != 6:
                _custom_id_errors(component, here, seen, errors)
        elif kind in (3, 5, 6, 7, 8):
            _custom_id_errors(component, here, seen, errors)
            errors.extend(_too_long(component.get("placeholder"), 150, f"{here}.placeholder"))
            errors.extend(_select_errors(component, here, options=kind == 3))
        elif kind == 10:
            errors.extend(_too_long(component.get("content"), 4000, f"{here}.content"))
        for key in ("accessory", "component"):
            if key in component:
                count += _check_tree([component[key]], f"{here}.{key}", seen, errors)
        count += _check_tree(component.get("components") or [], f"{here}.components", seen, errors)
    return count


def _select_errors(select: JSON, path: str, *, options: bool) -> list[FormError]:
    """A select menu's bounds: ``min_values`` 0 to 25 and ``max_values`` 1 to 25, and a
    string select's 1 to 25 options, each with a label and a value of 1 to 100 characters
    and a description of at most 100."""
    errors: list[FormError] = []
    for key, low in (("min_values", 0), ("max_values", 1)):
        count = select.get(key)
        if count is not None and not low <= count <= 25:
            code = "NUMBER_TYPE_MAX" if count > 25 else "NUMBER_TYPE_MIN"
            errors.append(FormError(f"{path}.{key}", code, f"int value should be {low} to 25."))
    if not options:
        return errors
    choices: list[JSON] = select.get("options") or []
    if not 1 <= len(choices) <= 25:
        errors.append(
            FormError(f"{path}.options", _BAD_LENGTH, "Must be between 1 and 25 in length.")
        )
    for index, option in enumerate(choices):
        here = f"{path}.options.{index}"
        errors.extend(_length_between(option.get("label"), 1, 100, f"{here}.label"))
        errors.extend(_length_between(option.get("value"), 1, 100, f"{here}.value"))
        errors.extend(_too_long(option.get("description"), 100, f"{here}.description"))
    return errors


def _custom_id_errors(component: JSON, path: str, seen: set[str], errors: list[FormError]) -> None:
    custom_id = component.get("custom_id")
    if not custom_id:
        errors.append(FormError(f"{path}.custom_id", _REQUIRED, "This field is required"))
        return
    errors.extend(_too_long(custom_id, 100, f"{path}.custom_id"))
    if custom_id in seen:
        errors.append(
            FormError(
                f"{path}.custom_id",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        )
    seen.add(custom_id)


def modal_errors(data: JSON) -> list[FormError]:
    errors = _length_between(data.get("title"), 1, 45, "data.title")
    errors.extend(_too_long(data.get("custom_id"), 100, "data.custom_id"))
    components: list[JSON] = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.append(
            FormError("data.components", _BAD_LENGTH, "Must be between 1 and 5 in length.")
        )
    for index, top in enumerate(components):
        path = f"data.components.{index}"
        if top.get("type") == 18:
            errors.extend(_too_long(top.get("label"), 45, f"{path}.label"))
            errors.extend(_too_long(top.get("description"), 100, f"{path}.description"))
            inputs = [(f"{path}.component", top.get("component") or {})]
        else:
            inputs = [
                (f"{path}.components.{i}", c) for i, c in enumerate(top.get("components") or [])
            ]
        for input_path, component in inputs:
            if not component.get("custom_id"):
                errors.append(
                    FormError(f"{input_path}.custom_id", _REQUIRED, "This field is required")
                )
            errors.extend(_too_long(component.get("custom_id"), 100, f"{input_path}.custom_id"))
            errors.extend(_too_long(component.get("label"), 45, f"{input_path}.label"))
            errors.extend(_too_long(component.get("value"), 4000, f"{input_path}.value"))
            errors.extend(_too_long(component.get("placeholder"), 100, f"{input_path}.placeholder"))
            for key in ("min_length", "max_length"):
                if (component.get(key) or 0) > 4000:
                    errors.append(
                        FormError(
                            f"{input_path}.{key}",
                            "NUMBER_TYPE_MAX",
                            "int value should be <= 4000.",
                        )
                    )
    return errors


def autocomplete_errors(data: JSON) -> list[FormError]:
    choices: list[JSON] = data.get("choices") or []
    errors = (
        [FormError("data.choices", _MAX, "Must be 25 or fewer in length.")]
        if len(choices) > 25
        else []
    )
    for index, choice in enumerate(choices):
        errors.extend(_length_between(choice.get("name"), 1, 100, f"data.choices.{index}.name"))
        errors.extend(_too_long(choice.get("value"), 100, f"data.choices.{index}.value"))
    return errors


def command_errors(commands: list[JSON]) -> list[FormError]:
    """Errors in a bulk-overwrite body (PUT .../commands)."""
    errors: list[FormError] = []
    if sum(1 for command in commands if command.get("type", 1) == 1) > 100:
        errors.append(FormError("_", _MAX, "Must be 100 or fewer chat input commands."))
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        key = (command.get("type", 1), command.get("name", ""))
        if key in names:
            errors.append(
                FormError(f"{index}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name")
            )
        names.add(key)
        if key[0] == 1:
            errors.extend(_option_errors(command, str(index), depth=0))
        else:
            errors.extend(_length_between(key[1], 1, 32, f"{index}.name"))
            errors.extend(_localization_errors(
                command, "name_localizations", str(index),
                lambda text, here: _length_between(text, 1, 32, here),
            ))
    chat_input = [(str(index), c) for index, c in enumerate(commands) if c.get("type", 1) == 1]
    errors.extend(_localized_duplicates(chat_input, "APPLICATION_COMMANDS_DUPLICATE_NAME"))
    return errors


def _name_errors(name: Any, path: str) -> list[FormError]:
    """A chat-input command's or option's name, as Discord checks it (in any locale)."""
    if not isinstance(name, str) or not _COMMAND_NAME.match(name) or name != name.lower():
        return [FormError(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")]
    return []


def _description_errors(text: Any, path: str) -> list[FormError]:
    return _length_between(text, 1, 100, path)


def _localization_errors(
    node: JSON, key: str, path: str, check: Callable[[Any, str], list[FormError]]
) -> list[FormError]:
    """Errors in ``node[key]``, a map locale -> text: a key that is no Discord locale, and
    ``check`` (the rule of the field it localises) on every text."""
    localizations = node.get(key)
    if localizations is None:
        return []
    if not isinstance(localizations, dict):
        return [FormError(f"{path}.{key}", "DICT_TYPE_CONVERT", "Only dictionaries may be used")]
    errors: list[FormError] = []
    for locale, text in localizations.items():
        here = f"{path}.{key}.{locale}"
        if locale in LOCALES:
            errors.extend(check(text, here))
        else:
            errors.append(
                FormError(here, "BASE_TYPE_CHOICES", f"Value must be one of {sorted(LOCALES)}.")
            )
    return errors


def _localized_duplicates(siblings: list[tuple[str, JSON]], code: str) -> list[FormError]:
    """Siblings whose names meet in some locale (a localised name, else the name)."""
    locales = sorted(
        {locale for _, node in siblings for locale in node.get("name_localizations") or {}}
        & LOCALES
    )
    errors: list[FormError] = []
    for locale in locales:
        seen: set[str] = set()
        for path, node in siblings:
            localized: JSON = node.get("name_localizations") or {}
            name = str(localized.get(locale, node.get("name", "")))
            if name in seen:
                errors.append(
                    FormError(f"{path}.name_localizations.{locale}", code, "Duplicate name")
                )
            seen.add(name)
    return errors


def _option_errors(node: JSON, path: str, *, depth: int) -> list[FormError]:
    """Name/description/options checks for a chat-input command or one of its options."""
    errors: list[FormError] = []
    name = node.get("name", "")
    if not _COMMAND_NAME.match(name) or name != name.lower():
        errors.append(
            FormError(f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        )
    errors.extend(_length_between(node.get("description"), 1, 100, f"{path}.description"))
    errors.extend(_localization_errors(node, "name_localizations", path, _name_errors))
    errors.extend(
        _localization_errors(node, "description_localizations", path, _description_errors)
    )
    options: list[JSON] = node.get("options") or []
    if len(options) > 25:
        errors.append(FormError(f"{path}.options", _MAX, "Must be 25 or fewer in length."))
    optional_seen = False
    option_names: set[str] = set()
    for index, option in enumerate(options):
        here = f"{path}.options.{index}"
        kind = option.get("type")
        if kind in (1, 2):
            if depth >= 2 or (kind == 2 and depth >= 1):
                errors.append(
                    FormError(
                        f"{here}.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Bad nesting"
                    )
                )
            errors.extend(_option_errors(option, here, depth=depth + 1))
        else:
            errors.extend(_option_errors({**option, "options": []}, here, depth=depth + 1))
            if option.get("required"):
                if optional_seen:
                    errors.append(
                        FormError(
                            f"{here}.required",
                            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                            "Required options must be placed before non-required options",
                        )
                    )
            else:
                optional_seen = True
            choices: list[JSON] = option.get("choices") or []
            if len(choices) > 25:
                errors.append(FormError(f"{here}.choices", _MAX, "Must be 25 or fewer in length."))
            if choices and option.get("autocomplete"):
                errors.append(
                    FormError(
                        f"{here}.autocomplete",
                        "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
                        "Autocomplete cannot be enabled on options with choices",
                    )
                )
            for choice_index, choice in enumerate(choices):
                errors.extend(
                    _length_between(
                        choice.get("name"), 1, 100, f"{here}.choices.{choice_index}.name"
                    )
                )
                errors.extend(_localization_errors(
                    choice, "name_localizations", f"{here}.choices.{choice_index}",
                    lambda text, at: _length_between(text, 1, 100, at),
                ))
        if option.get("name") in option_names:
            errors.append(
                FormError(
                    f"{here}.name", "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", "Duplicate name"
                )
            )
        option_names.add(option.get("name", ""))
    errors.extend(_localized_duplicates(
        [(f"{path}.options.{index}", option) for index, option in enumerate(options)],
        "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
    ))
    return errors
