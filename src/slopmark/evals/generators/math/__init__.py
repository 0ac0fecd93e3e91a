"""Math templates: word problems, algebra, counting, probability, geometry, calculus.

Each template draws its numbers (larger at higher difficulty), computes the
gold answer exactly (``Fraction`` or SymPy, never floats) and states in the
prompt the form the answer must take, on a last line ``Answer: ...``.
Templates live in one module per topic.
"""

from slopmark.evals.generators.math import (
    algebra,
    calculus,
    counting,
    geometry,
    number_theory,
    rational,
    word_problems,
)

VARIANTS = 4
#: Imported for their @register registrations.
TEMPLATE_MODULES = (algebra, calculus, counting, geometry, number_theory, rational, word_problems)
