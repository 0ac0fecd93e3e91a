"""Calibration templates: questions with one checkable short answer, of graded difficulty.

The answer is computed (arithmetic, calendars, string facts) so it is always
right, and difficulty is drawn per task (bigger numbers, longer words, rarer
dates) so that accuracy varies and a model's stated confidence can be
compared with how often it is right. Every prompt ends with the same
two-line reply format (`question.REPLY_FORMAT`).
"""

from slopmark.evals.generators.calibration import arithmetic, dates, numbers, words

VARIANTS = 4
#: Imported for their @register registrations.
TEMPLATE_MODULES = (arithmetic, dates, numbers, words)
