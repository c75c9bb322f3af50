"""Command line: try the rules without Discord (``python -m bot.cli``).

``roll`` rolls a pool (scripted faces, a seed, or the system's randomness),
optionally spends Will after it exactly as the button does (RULES.md §4), or
rolls it many times and counts the outcomes. ``odds`` prints the exact odds.
Both print readable text, or JSON with ``--json``.

The command line is an edge like the bot's cogs: it parses arguments, asks the
engine, and shows the answer, worded by :mod:`bot.render.refusals` (it prints
words, so it lives in the bot; it imports no Discord). Every rule, range and
refusal is the engine's: the pool is parsed without the parser's dice caps, so
a pool over ``MAX_POOL`` dice is the engine's refusal (``pool_too_large``), not
a usage error. Only what the engine cannot represent (a negative ``--resist``,
too few ``--faces``) is refused here, as a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn

from bot.render.refusals import refusal_text, uncapitalised
from engine.constants import (
    DIFFICULTY,
    DIFFICULTY_RANGE,
    EXCEPTIONAL_AT,
    EXCEPTIONAL_RANGE,
    MAX_TARGET,
)
from engine.faces import (
    FacesExhaustedError,
    FaceSource,
    ScriptedFaces,
    seeded_faces,
    system_faces,
)
from engine.models import (
    Adjustment,
    Again,
    Breakdown,
    Die,
    DieKind,
    Fate,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    SkillCategory,
    WillUse,
)
from engine.odds import Odds, odds
from engine.parser import PoolSyntaxError, format_pool, parse_pool
from engine.prepare import prepare
from engine.refusals import Refusal
from engine.roll import RuleError, roll, spend_will

#: Most rolls one ``--count`` may ask for: bounds the time one command can take.
MAX_COUNT: Final = 1_000_000
#: Exit status of a malformed command line (argparse's own).
USAGE: Final = 2

PROG: Final = "python -m bot.cli"

EPILOG: Final = """\
exit status:
  0  the engine answered. A refusal by the rules is an answer too: the
     outcome is "refused" with the reason (a fistful pool of 0,
     --difficulty 11, an option the ruleset does not have, a pool over 100
     dice, ...). A refused --spend-will leaves the roll as it was and says
     why ("will_refused" in JSON).
  2  a malformed command line (unknown option, a value that is not a number,
     pool syntax, --faces too short for the roll): one line on stderr.

JSON (--json):
  roll     ruleset, outcome, successes, dice_successes, botch_degree, degree,
           will, automatic, capped, need_met, refusal (when refused: code,
           params, cause), message (the refusal in words),
           dice (face, round, kind, fate, successes, explodes, pair) and pool
           (the breakdown); with --spend-will also before_will (the roll as
           first read) or will_refused and will_refusal (why the spend was
           refused: words, and code with params)
  --count  {"count": N, "outcomes": {name: n}, "successes": {k: n}, ...}
  odds     {"outcomes": {name: p}, "successes": {k: p}, "at_least": {k: p},
            "refusal": {code, params, cause}, "message": words, when refused}

dice (text output), in draw order by round:
  8✓  a success (10✓✓: counts two)   10✓↻  grants an extra die
  1!  a 1 that stands                 2 → 9✓  a rote reroll of the 2
  1 cancels 8 / 8 cancelled           9 void  drawn before Will, no longer needed

examples:
  python -m bot.cli roll "Strength 3 + Brawl 2" --faces "3 8 10 1 9 10 4"
  python -m bot.cli roll 2 --ruleset fistful --untrained physical \\
      --faces "10 5 9 1 8 3" --spend-will
  python -m bot.cli roll 5 --rote --seed 7 --count 10000 --json
  python -m bot.cli odds 7 --ruleset v20 --difficulty 7
"""


class UsageError(Exception):
    """A malformed command line; ``str()`` is the one line shown on stderr."""


class _Parser(argparse.ArgumentParser):
    """Reports errors on one line by raising :class:`UsageError` instead of exiting.

    argparse's own ``error`` prints the usage block and exits; a one-line
    message is easier to read for a command with this many options, and
    raising lets :func:`main` return the status instead of exiting the process.
    """

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message}")


# --- Argument types -------------------------------------------------------------------------


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _natural(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _count(text: str) -> int:
    value = _whole(text)
    if not 1 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_COUNT}, not {value}")
    return value


def _faces(text: str) -> ScriptedFaces:
    """``"3 8 10"`` or ``"3,8,10"``: the faces every draw takes, in order.

    ``""`` scripts no faces: enough for a roll that draws none (a refused
    pool, a `v20` automatic success); any other roll finds it too short.
    """
    words = text.replace(",", " ").split()
    try:
        return ScriptedFaces(_whole(word) for word in words)
    except ValueError as error:  # a face outside 1–10
        raise argparse.ArgumentTypeError(str(error)) from None


# --- Parser ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``roll`` and ``odds`` subcommands, sharing the pool and every rules option."""
    rules = _Parser(add_help=False)
    rules.add_argument("pool", help='pool expression, e.g. "Strength 3 + Brawl 2 - 1" or "7"')
    rules.add_argument(
        "--ruleset", choices=[ruleset.value for ruleset in Ruleset], default=Ruleset.COFD.value,
        help="default: %(default)s",
    )
    options = rules.add_argument_group(
        "rules options", "an option the ruleset does not have is refused by the engine"
    )
    options.add_argument(
        "--again", choices=[again.value for again in Again],
        help="cofd: which faces roll again (default 10)",
    )
    options.add_argument("--rote", action="store_true", help="cofd: reroll failed dice once")
    options.add_argument(
        "--specialty", action="store_true", help="cofd: +1 die; v20: a 10 counts two successes"
    )
    options.add_argument(
        "--untrained", choices=[category.value for category in SkillCategory],
        help="cofd: -3 dice (mental) or -1 (physical, social); "
        "fistful: unskilled, 1s eat successes",
    )
    options.add_argument(
        "--resist", type=_natural, default=0, metavar="N",
        help="cofd: subtract the opponent's resisting trait",
    )
    options.add_argument(
        "--extra", type=_natural, default=0, metavar="N",
        help="cofd: extra successes added to a success",
    )
    options.add_argument(
        "--exceptional-at", type=_whole, metavar="N",
        help=f"cofd: successes for an exceptional success "
        f"({EXCEPTIONAL_RANGE[0]}-{EXCEPTIONAL_RANGE[1]}, default {EXCEPTIONAL_AT})",
    )
    options.add_argument(
        "--difficulty", type=_whole, metavar="N",
        help=f"v20: {DIFFICULTY_RANGE[0]}-{DIFFICULTY_RANGE[1]}, default {DIFFICULTY}",
    )
    options.add_argument(
        "--auto", action="store_true", help="v20: automatic success (pool >= difficulty)"
    )
    options.add_argument(
        "--will", action="store_true",
        help="Willpower declared with the roll (cofd, fistful: +3 dice; v20: +1 success)",
    )
    options.add_argument("--risky", action="store_true", help="fistful: 1s eat successes")
    options.add_argument(
        "--initiative", action="store_true", help="fistful: initiative roll, 6-10 succeed"
    )
    options.add_argument(
        "--no-botch", action="store_true", help="fistful: a botch reads as a plain failure"
    )
    options.add_argument(
        "--need", type=_whole, metavar="N",
        help=f"fistful: successes required for full effect (1-{MAX_TARGET})",
    )
    rules.add_argument("--json", action="store_true", help="print JSON instead of text")

    parser = _Parser(
        prog=PROG, description="Try the Storyteller dice rules without Discord.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{roll,odds}")
    roller = commands.add_parser(
        "roll", parents=[rules], help="roll a pool", description="Roll a pool once or many times.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = roller.add_mutually_exclusive_group()
    source.add_argument(
        "--faces", type=_faces, metavar='"F F ..."',
        help="scripted faces, drawn in order (RULES.md §0); default: the system's randomness",
    )
    source.add_argument("--seed", type=_whole, metavar="N", help="reproducible random faces")
    roller.add_argument(
        "--spend-will", action="store_true",
        help="after the roll, spend Will as the button does (RULES.md §4); "
        "with --count, after every roll",
    )
    roller.add_argument(
        "--count", type=_count, metavar="N",
        help=f"roll N times (1-{MAX_COUNT}) and count outcomes and successes",
    )
    roller.set_defaults(run=_roll_command, parser=roller)
    chances = commands.add_parser(
        "odds", parents=[rules], help="exact odds of a pool",
        description="Exact odds of a pool's outcomes and successes.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    chances.set_defaults(run=_odds_command, parser=chances)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see ``EPILOG``)."""
    try:
        args = build_parser().parse_args(argv)
        run: Callable[[argparse.Namespace], str] = args.run
        output = run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return USAGE
    except SystemExit:  # --help, argparse's only exit left: its errors raise UsageError
        return 0
    print(output)
    return 0


def _fail(args: argparse.Namespace, message: str) -> NoReturn:
    """A usage error of the subcommand being run, worded like argparse's own."""
    parser: argparse.ArgumentParser = args.parser
    parser.error(message)


def _request(args: argparse.Namespace) -> RollRequest:
    try:
        terms = parse_pool(args.pool, capped=False)
    except PoolSyntaxError as error:
        _fail(args, uncapitalised(refusal_text(error.refusal)))  # after argparse's "error:"
    return RollRequest(
        ruleset=args.ruleset, terms=terms, will=args.will, again=args.again, rote=args.rote,
        resist=args.resist, extra=args.extra, exceptional_at=args.exceptional_at,
        specialty=args.specialty, untrained=args.untrained, difficulty=args.difficulty,
        auto=args.auto, risky=args.risky, initiative=args.initiative, no_botch=args.no_botch,
        need=args.need,
    )


# --- roll -----------------------------------------------------------------------------------


def _roll_command(args: argparse.Namespace) -> str:
    request = _request(args)
    source: FaceSource
    if args.faces is not None:
        source = args.faces
    elif args.seed is not None:
        source = seeded_faces(args.seed)
    else:
        source = system_faces()
    if args.count is not None:
        return _roll_many(args, request, source)
    try:
        first, final, will_refused = _roll_once(request, source, spend=args.spend_will)
    except FacesExhaustedError as error:
        _fail(args, f"--faces: {error}")
    if args.json:
        data = _roll_json(final)
        if final is not first:
            data["before_will"] = _roll_json(first)
        if will_refused is not None:
            data.update(_will_refused_json(will_refused))
        return json.dumps(data)
    lines = _roll_lines(first)
    if final is not first:
        lines += ["", "Will spent after the roll:", *_roll_lines(final)]
    if will_refused is not None:
        lines.append(f"Will not spent: {refusal_text(will_refused)}")
    return "\n".join(lines)


def _roll_once(
    request: RollRequest, source: FaceSource, *, spend: bool
) -> tuple[RollResult, RollResult, Refusal | None]:
    """A roll, then Will spent after it when asked: (as rolled, final, why a spend was refused)."""
    first = roll(request, source)
    if spend:
        try:
            return first, spend_will(first, source), None
        except RuleError as error:
            return first, first, error.refusal
    return first, first, None


def _refusal_json(refusal: Refusal | None) -> dict[str, Any]:
    """``refusal`` (code, params, cause) and ``message`` (it in words); None when not refused."""
    return {
        "refusal": None if refusal is None else refusal.model_dump(mode="json"),
        "message": refusal_text(refusal) or None,
    }


def _will_refused_json(refusal: Refusal) -> dict[str, Any]:
    """Why a Will spend was refused: ``will_refused`` in words, ``will_refusal`` as data."""
    return {"will_refused": refusal_text(refusal), "will_refusal": refusal.model_dump(mode="json")}


def _roll_json(result: RollResult) -> dict[str, Any]:
    """The result's fields, with ``dice`` as objects and the breakdown as ``pool``."""
    fields = result.model_dump(
        mode="json", exclude={"request", "dice", "breakdown", "beat", "refusal"}
    )
    return {
        "ruleset": result.request.ruleset.value,
        **fields,
        **_refusal_json(result.refusal),
        "dice": [die._asdict() for die in result.dice],
        "pool": None if result.breakdown is None else result.breakdown.model_dump(mode="json"),
    }


def _roll_many(args: argparse.Namespace, request: RollRequest, source: FaceSource) -> str:
    """``--count``: how often each outcome and each number of successes came up."""
    count: int = args.count
    outcomes: Counter[Outcome] = Counter()
    successes: Counter[int] = Counter()
    for number in range(1, count + 1):
        try:
            _, result, will_refused = _roll_once(request, source, spend=args.spend_will)
        except FacesExhaustedError as error:
            _fail(args, f"--faces: roll {number} of {count}: {error}")
        outcomes[result.outcome] += 1
        successes[result.successes] += 1
    # Whether a roll or a Will spend is refused, and the pool rolled, depend on the
    # request alone, never on the faces: the last roll speaks for all of them.
    rolled = [(outcome, outcomes[outcome]) for outcome in Outcome if outcomes[outcome]]
    counts = sorted(successes.items())
    if args.json:
        data: dict[str, Any] = {
            "ruleset": request.ruleset.value,
            "count": count,
            "outcomes": {outcome.value: n for outcome, n in rolled},
            "successes": {str(k): n for k, n in counts},
            **_refusal_json(result.refusal),
        }
        if will_refused is not None:
            data.update(_will_refused_json(will_refused))
        return json.dumps(data)
    rolls = _plural(count, "roll", "rolls")
    if result.breakdown is None:
        return f"{rolls}, all refused: {refusal_text(result.refusal)}"
    lines = [f"{rolls} of {_pool_text(request.ruleset, result.breakdown)}"]
    if will_refused is not None:
        lines.append(f"Will not spent: {refusal_text(will_refused)}")
    lines += _table(
        ("outcome", "rolls", "share"),
        [(_words(outcome), str(n), _percent(n / count)) for outcome, n in rolled],
    )
    lines += _table(
        ("successes", "rolls", "share"),
        [(str(k), str(n), _percent(n / count)) for k, n in counts],
    )
    return "\n".join(lines)


# --- odds -----------------------------------------------------------------------------------


def _odds_command(args: argparse.Namespace) -> str:
    request = _request(args)
    if args.json:
        chances = odds(request)
        return json.dumps({**chances.model_dump(mode="json"), **_refusal_json(chances.refusal)})
    prepared = prepare(request)
    if isinstance(prepared, Refusal):  # odds(request) would answer this same refusal
        return f"refused: {refusal_text(prepared)}"
    return "\n".join(
        [_pool_text(request.ruleset, prepared.breakdown), *_odds_lines(odds(request))]
    )


def _odds_lines(chances: Odds) -> list[str]:
    """Outcome table, then successes exactly and at least, until both show 0.00%."""
    lines = _table(
        ("outcome", "chance"),
        [(_words(outcome), _percent(p)) for outcome, p in chances.outcomes.items()],
    )
    rows: list[tuple[str, ...]] = []
    for k in sorted(chances.successes):
        at_least = chances.at_least.get(k, 1.0)
        if _percent(at_least) == _percent(0.0):
            rows.append((f"{k}+", "", _percent(0.0)))
            break
        rows.append((str(k), _percent(chances.successes[k]), _percent(at_least)))
    return lines + _table(("successes", "exactly", "at least"), rows)


# --- Text -----------------------------------------------------------------------------------


def _roll_lines(result: RollResult) -> list[str]:
    if result.breakdown is None:  # refused: nothing was rolled
        return [f"refused: {refusal_text(result.refusal)}"]
    lines = [_pool_text(result.request.ruleset, result.breakdown)]
    for round_ in sorted({die.round for die in result.dice}):
        lines.append(f"round {round_}: {_round_text(result.dice, round_)}")
    lines.append(_outcome_text(result))
    if result.capped:
        lines.append("extra dice stopped at the safety cap; the outcome is read from what rolled")
    return lines


def _pool_text(ruleset: Ruleset, breakdown: Breakdown) -> str:
    """``cofd pool: Strength 3 + Brawl 2, specialty +1 → 6 dice``."""
    parts = [format_pool(breakdown.terms), *map(_adjustment_text, breakdown.adjustments)]
    if breakdown.chance:
        total = f"{breakdown.dice}, below 1: a chance die"
    else:
        total = _plural(breakdown.dice, "die", "dice")
    if breakdown.difficulty is not None:
        total += f" at difficulty {breakdown.difficulty}"
    return f"{ruleset} pool: {', '.join(parts)} → {total}"


def _adjustment_text(adjustment: Adjustment) -> str:
    """``untrained -3``, ``multiple action -1 difficulty +1``, or a `v20` ``willpower`` alone."""
    words = [_words(adjustment.kind)]
    if adjustment.dice:
        words.append(f"{adjustment.dice:+d}")
    if adjustment.difficulty:
        words.append(f"difficulty {adjustment.difficulty:+d}")
    return " ".join(words)


def _round_text(dice: tuple[Die, ...], round_: int) -> str:
    """The round's dice in draw order, Will's last; a rote reroll follows the die it replaced."""
    pool: list[str] = []
    will: list[str] = []
    for die in dice:
        if die.round == round_ and not _is_replacement(die, dice):
            (will if die.kind is DieKind.WILL else pool).append(_die_text(die, dice))
    text = " · ".join(pool)
    if will:
        text += (" | " if pool else "") + "Will: " + " · ".join(will)
    return text


def _is_replacement(die: Die, dice: tuple[Die, ...]) -> bool:
    return die.pair is not None and dice[die.pair].fate is Fate.REPLACED


def _die_text(die: Die, dice: tuple[Die, ...]) -> str:
    """``8✓``, ``10✓↻``, ``1!``, ``2 → 9✓``, ``1 cancels 8``, ``8 cancelled``, ``9 void``."""
    if die.pair is not None:
        if die.fate is Fate.REPLACED:
            return f"{die.face} → {_die_text(dice[die.pair], dice)}"
        if die.fate is Fate.CANCELS:
            return f"{die.face} cancels {dice[die.pair].face}"
    marks = {
        Fate.SUCCESS: "✓" * die.successes,
        Fate.ONE: "!",
        Fate.CANCELLED: " cancelled",
        Fate.VOID: " void",
    }.get(die.fate, "")
    return f"{die.face}{marks}{'↻' if die.explodes else ''}"


def _outcome_text(result: RollResult) -> str:
    """``success (moderate): 2 successes``, ``botch: 2 ones standing; need 3: not met``."""
    text = _words(result.outcome)
    if result.degree is not None:
        text += f" ({result.degree})"
    if result.botch_degree is not None:
        text += f": {_plural(result.botch_degree, 'one', 'ones')} standing"
    else:
        text += ": " + _plural(result.successes, "success", "successes")
    if result.automatic:
        text += " (automatic)"
    elif result.request.ruleset is Ruleset.COFD and result.successes > result.dice_successes:
        text += f" ({result.dice_successes} rolled + {result.request.extra} extra)"
    elif result.request.ruleset is Ruleset.V20 and result.will is not WillUse.NONE:
        text += " (1 from Willpower)"
    if result.need_met is not None:
        text += f"; need {result.request.need}: {'met' if result.need_met else 'not met'}"
    return text


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    """A blank line, then the rows: first column left-aligned, the others right-aligned."""
    table = [header, *rows]
    widths = [max(map(len, column)) for column in zip(*table, strict=True)]
    lines = [""]
    for first, *others in table:
        cells = [first.ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(others, widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def _percent(p: float) -> str:
    return f"{p:.2%}"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _words(name: str) -> str:
    """``dramatic_failure`` → ``dramatic failure``."""
    return name.replace("_", " ")


if __name__ == "__main__":
    sys.exit(main())
