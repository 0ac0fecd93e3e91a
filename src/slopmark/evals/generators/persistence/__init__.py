"""Persistence templates: a machine, N state changes, and the final state on the last line.

Each template states its machine's rules, draws the steps (5–8 easy,
10–15 medium, 20–30 hard), runs them to compute the final state, and asks for
that state on the last line in one of the persistence verifier's formats
(sequence, set, mapping, text). Templates live in one module per kind of machine.
"""

from slopmark.evals.generators.persistence import (
    devices,
    ledgers,
    movement,
    registers,
    sequences,
    sets,
)

VARIANTS = 4
#: Imported for their @register registrations.
TEMPLATE_MODULES = (devices, ledgers, movement, registers, sequences, sets)
