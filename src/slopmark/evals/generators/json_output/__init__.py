"""JSON templates: records, tables that must add up, schedules, configs and function calls.

Each template draws its values, then builds the prompt, the verifier config
and a reference answer from the same values, so the reference is known to
pass (tests check it for every generated task). `CASES` maps a template id to
the function returning both; the registered template keeps only the task.
Templates live in one module per kind of JSON.
"""

from slopmark.evals.generators.json_output import calls, configs, records, schedules, tables
from slopmark.evals.generators.json_output.case import CASES

VARIANTS = 4
#: Imported for their @case registrations.
TEMPLATE_MODULES = (calls, configs, records, schedules, tables)

__all__ = ["CASES", "TEMPLATE_MODULES", "VARIANTS"]
