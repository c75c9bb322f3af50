"""Table state: everything that happens between rolls, as pure functions over frozen models.

Each module is a small state machine the bot's store persists as JSON:
:mod:`~engine.table.attempts` (successive attempts), :mod:`~engine.table.actions`
(the `fistful` Successive Action Penalty), :mod:`~engine.table.multi` (`v20`
multiple actions), :mod:`~engine.table.contest` (contested and resisted rolls),
:mod:`~engine.table.teamwork`, :mod:`~engine.table.extended` (extended actions,
resisted extended actions, ongoing efforts and contests) and
:mod:`~engine.table.initiative` (the initiative tracker). They build the
requests to roll, with every automatic change listed as an
:class:`~engine.models.Adjustment`, and read the results; the bot only rolls,
stores and renders.
"""
