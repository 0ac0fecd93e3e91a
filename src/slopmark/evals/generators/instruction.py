"""Instruction templates: a writing task whose prompt states 2–5 checkable formatting rules.

A template is a scenario (a prompt with slots such as ``{city}``, each drawn
from its own list) plus rule makers (see `instruction_rules`). A maker draws
its numbers and words, appends its rules to the task's verifier config and
returns the sentence that states them in the prompt, so the prompt and the
config cannot disagree.
Difficulty follows the number of rules: 2 easy, 3 medium, 4–5 hard.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.instruction_rules import (
    Context,
    Maker,
    ban,
    bullets,
    case,
    cased,
    ends,
    forbid,
    letter,
    lines,
    max_chars,
    paragraphs,
    require,
    sentences,
    starts,
    words,
)

VARIANTS = 4
DOMAIN = "instruction"
__all__ = ["DOMAIN", "VARIANTS", "cased", "define", "draw_slots"]


# --- templates -----------------------------------------------------------------

Slots = Mapping[str, Sequence[Any]]


def draw_slots(rng: random.Random, slots: Slots) -> dict[str, str]:
    """One value per slot; a key ``a/b`` draws a tuple filling ``a`` and ``b`` together.

    Every slot ``x`` also gets ``x_cap``, its value with a capital first letter.
    """
    drawn: dict[str, str] = {}
    for key, values in slots.items():
        value = rng.choice(values)
        names = key.split("/")
        drawn.update(zip(names, value if len(names) > 1 else (value,), strict=True))
    return {**drawn, **{f"{k}_cap": v[:1].upper() + v[1:] for k, v in drawn.items()}}


def _difficulty(rules: int) -> str:
    return "easy" if rules <= 2 else "medium" if rules == 3 else "hard"


def define(template_id: str, prompt: str, slots: Slots, *makers: Maker) -> None:
    """Register a template: ``prompt`` with ``slots`` drawn per variant, then each maker's rule."""

    def make(rng: random.Random) -> Draft:
        ctx = Context(draw_slots(rng, slots))
        stated = [maker(rng, ctx) for maker in makers]
        return Draft(
            turns=(" ".join([prompt.format(**ctx.slots), *stated]),),
            verifier={"type": "instruction", "rules": ctx.rules},
            difficulty=_difficulty(len(ctx.rules)),
            tags=tuple(sorted({rule["rule"] for rule in ctx.rules})),
        )

    register(template_id, domain=DOMAIN)(make)


CITIES = ("Lisbon", "Nairobi", "Osaka", "Toronto", "Tbilisi", "Valparaíso")
#: A word count that the letter templates' greeting and sign-off are part of.
ALL_WORDS = "Use at most {n} words in total, greeting and sign-off included."
JARGON = ("basically", "essentially", "molecule", "algorithm", "complex", "process")

define(
    "product-blurb",
    "Write a product description of {product} for an online shop.",
    {"product": ("a solar camping lantern", "a bamboo cutting board", "a cast-iron skillet",
                 "a foldable electric bike", "a refillable fountain pen", "a picnic blanket"),
     "cta": ("Order yours today.", "Available now.", "Shop now.")},
    words("range", (40, 50, 60), 30), forbid(2), ends("{cta}"),
)
define(
    "seasonal-poem",
    "Write a short poem about {season} in {city}, without naming the season.",
    {"season": ("autumn", "winter", "spring", "summer"), "city": CITIES},
    case("lower"), lines("exact", (3, 4, 5)), forbid(0, "{season}"),
)
define(
    "animal-lipogram",
    "Describe {animal} for a children's nature encyclopedia.",
    {"animal": ("the snow leopard", "the axolotl", "the humpback whale", "the pangolin",
                "the barn owl")},
    ban("eo"), sentences("range", (2, 3), 2), words("max", (50, 60, 70)),
)
define(
    "cover-letter-opening",
    "Write the opening paragraph of a cover letter for a {role} position at {company}.",
    {"role": ("junior data analyst", "night-shift nurse", "museum curator", "backend developer"),
     "company": ("Harbor Logistics", "Green Valley Clinic", "Northwind Bank", "Atlas Museum")},
    letter("Dear Hiring Manager,", None, (1,)), forbid(1, "passionate"),
    words("range", (60, 70, 80), 40, phrase="Use {n}–{hi} words in total, greeting included."),
)
define(
    "packing-list",
    "Make a packing list for {trip}.",
    {"trip": ("a weekend of winter camping", "a business trip to Singapore",
              "a beach holiday with a toddler", "a three-day music festival",
              "a cycling tour of the Alps")},
    starts("Packing list:"), bullets("exact", (5, 6, 7, 8)), words("max", (40, 50)),
    forbid(0, "etc", whole_word=True),
)
define(
    "social-post",
    "Write a social media post announcing {event}.",
    {"event": ("our bakery's new Sunday opening hours", "a free coding workshop for teens",
               "the reopening of the town library", "a beach clean-up this Saturday"),
     "tag": ("SaveTheDate", "CommunityFirst", "SeeYouThere", "LocalLove")},
    max_chars((200, 240, 280)), require("#{tag}"), forbid(1, "excited"),
)
define(
    "warning-sign",
    "Write the text of a warning sign about {hazard}.",
    {"hazard": ("thin ice on the lake", "falling rocks on a hiking trail", "a slippery wet floor",
                "high-voltage equipment", "strong currents at a beach")},
    case("upper"), words("max", (12, 15, 20)), lines("range", (2, 3), 1),
)
define(
    "headline",
    "Write a newspaper headline about {news}.",
    {"news": ("a city opening its first night bus line", "a record harvest of apples",
              "a teenager who built a wind turbine", "a library that stopped charging late fees")},
    case("title"), words("range", (6, 8), 4), forbid(0, ":"),
    lines("exact", (1,), phrase="Answer in one line."),
)
define(
    "recipe-steps",
    "Give step-by-step instructions for making {dish}.",
    {"dish": ("pancakes", "a tomato omelette", "lemon iced tea", "garlic bread", "a lentil soup"),
     "sign_off": ("Enjoy!", "Serve warm.", "Bon appétit!")},
    bullets(
        "exact", (4, 5, 6), phrase="Write exactly {n} numbered steps (1., 2., 3., …).",
        marker="numbered",
    ),
    forbid(0, "simply"), ends("{sign_off}"),
)
define(
    "meeting-summary",
    "Summarise a fictional team meeting about {project}.",
    {"project": ("migrating the billing system", "the spring marketing campaign",
                 "a new onboarding process", "reducing warehouse delays")},
    paragraphs("exact", (2, 3)), require("action items"), words("range", (80, 100, 120), 60),
)
define(
    "explain-to-child",
    "Explain {concept} to a seven-year-old.",
    {"concept": ("how rain forms", "why we have seasons", "how vaccines work",
                 "what a computer program is", "why the sky is blue")},
    sentences("exact", (3, 4, 5)), forbid(2, pool=JARGON), words("max", (70, 80, 90)),
)
define(
    "apology-email",
    "Write a short email apologising to a customer whose {item} arrived a week late.",
    {"item": ("new sofa", "birthday cake order", "replacement laptop charger", "garden furniture"),
     "customer": ("Ms. Okafor", "Mr. Lindqvist", "Dr. Haddad", "Ms. Moreau"),
     "agent": ("Priya", "Tom", "Lucia", "Ken")},
    letter("Dear {customer},", "Kind regards, {agent}", (2, 3)), forbid(0, "inconvenience"),
)
define(
    "horror-story",
    "Write a two-sentence horror story set in {place}.",
    {"place": ("a lighthouse", "an empty school bus", "a hotel elevator", "a submarine",
               "a corn maze", "a night train")},
    sentences("exact", (2,), phrase="Use exactly two sentences."), words("max", (30, 40, 50)),
    forbid(0, "suddenly"),
)
define(
    "faq-answer",
    "Answer this FAQ for {service}: 'How do I reset my password?'",
    {"service": ("PhotoVault", "Budgetly", "TrailMap Pro", "QuickInvoice", "StudyBuddy")},
    bullets("range", (3, 4), 2), require("{service}"), words("max", (60, 80)),
)
define(
    "limerick",
    "Write a limerick about {creature}.",
    {"creature": ("a grumpy cat", "a lazy dragon", "a dancing goat", "a nervous octopus",
                  "a polite robot")},
    lines("exact", (5,), phrase="It must have exactly five lines."), require("{creature}"),
    forbid(1),
)
define(
    "elevator-pitch",
    "Give a spoken elevator pitch for a startup that {idea}.",
    {"idea": ("rents out power tools between neighbours", "turns food waste into city compost",
              "matches retired engineers with student projects",
              "tracks medication for elderly parents")},
    words("range", (60, 70, 80), 30), sentences("range", (3, 4), 2),
    forbid(0, "revolutionary", "disrupt"),
)
define(
    "casual-text",
    "Reply to a friend who texted you: '{question}'",
    {"question": ("want to grab pizza tonight?", "can you water my plants while I'm away?",
                  "did you finish the book I lent you?", "are you coming to the game on Sunday?")},
    case("lower"), max_chars((120, 160)), forbid(0, "!"),
)
define(
    "club-motto",
    "Create a motto for {club}.",
    {"club": ("a chess club", "a rowing team", "a community garden", "an astronomy society",
              "a retirees' hiking group")},
    case("upper"), words("exact", (4, 5, 6, 7)),
)
define(
    "book-review",
    "Review an imaginary novel called '{book}'.",
    {"book": ("The Salt Orchard", "Seven Quiet Bridges", "A Map of Small Storms",
              "The Last Ferryman")},
    paragraphs("exact", (2, 3)), require("{book}"), forbid(1, "page-turner"),
    words("range", (90, 110), 50),
)
define(
    "weather-report",
    "Write a radio weather report for {city} tomorrow.",
    {"city": CITIES},
    sentences("range", (3, 4), 2), require("degrees", count=2), max_chars((400, 500)),
)
define(
    "meeting-agenda",
    "Write an agenda for {meeting}.",
    {"meeting": ("a quarterly budget review", "a school parents' evening",
                 "a product launch retro", "a neighbourhood association meeting")},
    starts("Agenda:"), bullets("exact", (4, 5, 6)),
    forbid(1, pool=("circle back", "touch base", "synergy")),
)
define(
    "slogan-lipogram",
    "Write an advertising slogan for {brand}.",
    {"brand": ("a bicycle repair shop", "an oat milk", "a budget airline",
               "a dog-walking service", "a solar panel installer")},
    ban("ae"), words("range", (4, 5), 4), lines("exact", (1,), phrase="Keep it on one line."),
)
define(
    "definition",
    "Define {term} in plain English.",
    {"term": ("a blockchain", "an index fund", "a mortgage", "a vaccine", "a compiler",
              "a tariff")},
    sentences("exact", (1,), phrase="Use a single sentence."), words("max", (25, 30, 35)),
    starts("{term_cap} is"),
)
define(
    "pros-and-cons",
    "List the pros and cons of {choice}.",
    {"choice": ("working from home", "buying an electric car", "adopting a puppy",
                "living in a big city", "learning to code at forty")},
    bullets("exact", (4, 6)), require("Pros", "Cons"), words("max", (60, 80, 100)),
)
define(
    "thank-you-note",
    "Write a thank-you note to {person} for {gift}.",
    {"person": ("Aunt Rosa", "Coach Miller", "Grandpa Joe", "Ms. Tanaka"),
     "gift": ("the hand-knitted scarf", "the lift to the airport", "the birthday books",
              "the help with the move"),
     "sender": ("Sam", "Maya", "Leo", "Ines")},
    letter("Dear {person},", "With thanks, {sender}"), words("max", (50, 60, 70), phrase=ALL_WORDS),
)
define(
    "press-release",
    "Write the first paragraph of a press release announcing that {company} is launching "
    "{product}.",
    {"company": ("Brightwell Foods", "Kestrel Robotics", "Lumen Health"),
     "product": ("a plant-based cheese", "a warehouse delivery robot", "a sleep-tracking ring",
                 "a children's coding kit")},
    letter("FOR IMMEDIATE RELEASE", None, (1,), called="header"), forbid(1, "cutting-edge"),
    words("range", (50, 60), 40, phrase="Use {n}–{hi} words in total, header included."),
)
define(
    "walking-directions",
    "Give walking directions from {start} to {goal}, one step per line.",
    {"start": ("the train station", "the town hall", "the harbour"),
     "goal": ("the museum", "the old market", "the university library", "the botanical garden")},
    lines("exact", (4, 5, 6)), words("max", (60, 80)),
    bullets("exact", (0,), phrase="Do not use bullet points or numbered steps.", marker="any"),
)
define(
    "short-bio",
    "Write a third-person bio of a {profession} named {name}.",
    {"profession": ("landscape architect", "jazz drummer", "marine biologist", "pastry chef"),
     "name": ("Amara Osei", "Jonas Berg", "Mei Chen", "Rafael Duarte")},
    require("{name}", count=2), words("range", (50, 60), 40), forbid(1, "award-winning"),
)
define(
    "riddle",
    "Write a riddle whose answer is '{answer}'.",
    {"answer/noun": (("a candle", "candle"), ("a shadow", "shadow"), ("an echo", "echo"),
                     ("a map", "map"), ("a clock", "clock"), ("a key", "key"))},
    forbid(0, "{noun}"), lines("range", (2, 3), 2), ends("What am I?"),
)
define(
    "study-abstract",
    "Write the abstract of a study on {topic}.",
    {"topic": ("urban tree cover and summer heat", "sleep and exam performance",
               "bike lanes and commuting times", "traffic noise and bird song")},
    sentences("exact", (3,), phrase="Use exactly three sentences."),
    words("range", (50, 60, 70), 30),
    forbid(2, pool=("groundbreaking", "paradigm", "unprecedented", "holistic", "novel")),
)
define(
    "app-error-message",
    "Write the message an app shows when {failure}.",
    {"failure": ("a photo upload fails", "the payment card is declined",
                 "the user's session expired", "the phone has no internet connection")},
    max_chars((100, 120, 140)), sentences("max", (2,)), forbid(0, "error", "oops"),
)
define(
    "wedding-toast",
    "Write a wedding toast for {couple}.",
    {"couple": ("Ana and Ben", "Noor and Sam", "Lena and Kofi", "Chris and Dana", "Ivy and Marco")},
    paragraphs("exact", (3,)), ends("To {couple}!"), words("range", (100, 120), 60),
)
define(
    "alt-text",
    "Write alt text for a photo showing {scene}.",
    {"scene": ("a dog catching a frisbee on a beach", "two chefs plating desserts",
               "a foggy mountain road", "children planting trees", "a crowded night market")},
    max_chars((100, 125)), forbid(0, "image of", "picture of", whole_word=True),
    sentences("exact", (1,), phrase="Use one sentence."),
)
define(
    "changelog",
    "Write the changelog entry for version {version} of {app}.",
    {"version": ("2.4.0", "1.0.3", "3.1.0", "0.9.2"),
     "app": ("a note-taking app", "a fitness tracker", "a CLI tool")},
    starts("## {version}"), bullets("range", (3, 4), 3),
    forbid(0, "various", "minor", whole_word=True),
)
define(
    "talk-title",
    "Suggest a title for a conference talk about {subject}.",
    {"subject": ("testing legacy code", "designing for colour blindness", "running a rural clinic",
                 "teaching statistics with games", "open data in city planning")},
    case("title"), words("max", (8, 10, 12)), forbid(0, ":"),
)
define(
    "fan-chant",
    "Write a chant for fans of {team}.",
    {"team": ("the Harbor Hawks", "the Valley Comets", "the Riverside Lions",
              "the Northside Otters")},
    case("upper"), lines("exact", (4, 6)), require("{team}", count=2),
)
define(
    "habit-benefits",
    "Summarise the benefits of {habit}.",
    {"habit": ("daily walking", "drinking water", "reading before bed", "cooking at home",
               "stretching")},
    paragraphs("exact", (1,), phrase="Write one paragraph."), require("{habit}"),
    words("range", (40, 50, 60), 20), forbid(1),
)
define(
    "room-two-letters",
    "Describe your ideal {room}.",
    {"room": ("kitchen", "reading nook", "home office", "garden shed", "bathroom")},
    ban("stur", k=2), sentences("range", (3, 4), 2),
)
define(
    "city-itinerary",
    "Plan a one-day itinerary in {city}.",
    {"city": CITIES},
    bullets("exact", (4, 5, 6)), require("{city}"), words("max", (70, 90)),
    ends("Have a great trip!"),
)
define(
    "landlord-message",
    "Write a polite message to your landlord about {issue}.",
    {"issue": ("a leaking kitchen tap", "a broken heater", "mould in the bathroom",
               "a faulty door lock"),
     "landlord": ("Mr. Novak", "Mrs. Adeyemi", "Ms. Ruiz"),
     "tenant": ("Sam", "Jonas", "Amira", "Eli")},
    letter("Hello {landlord},", "Best wishes, {tenant}", (2, 3)), forbid(0, "unacceptable"),
    words("max", (120, 150), phrase=ALL_WORDS),
)
define(
    "ingredient-list",
    "List the ingredients for {dish}.",
    {"dish": ("a vegetable curry", "banana bread", "a Greek salad", "mushroom risotto",
              "falafel wraps")},
    case("lower"), bullets("range", (5, 6), 4), forbid(0, "optional"),
)
define(
    "one-line-plot",
    "Summarise the plot of {story} in one line.",
    {"story/hero": (("Romeo and Juliet", "Romeo"), ("Moby-Dick", "Ahab"), ("Hamlet", "Ophelia"),
                    ("Cinderella", "prince"), ("Frankenstein", "Victor"))},
    lines("exact", (1,), phrase="Answer in exactly one line."), words("max", (20, 25, 30)),
    forbid(0, "{hero}", whole_word=True),
)
define(
    "slide-bullets",
    "Write the bullet points for a slide titled '{slide}'.",
    {"slide": ("Why We Test", "Q3 Results at a Glance", "Our Hiring Process",
               "Next Steps for the Pilot")},
    bullets("exact", (3, 4, 5)), words("max", (30, 40)), forbid(1, "leverage"),
)
define(
    "labelled-dialogue",
    "Write a short dialogue between a {a} and a {b}, one line of speech per line, each line "
    "starting with the speaker's label ('{la}:' or '{lb}:').",
    {"a/la": (("barista", "BARISTA"), ("pilot", "PILOT"), ("teacher", "TEACHER")),
     "b/lb": (("customer", "CUSTOMER"), ("tourist", "TOURIST"), ("student", "STUDENT"))},
    lines("exact", (4, 6)), require("{la}:", "{lb}:", count=2),
)
define(
    "out-of-office",
    "Write an out-of-office auto-reply; you are back on {date}.",
    {"date": ("3 March", "14 July", "2 September", "21 November")},
    starts("Thank you for your email"), require("{date}"), sentences("range", (2, 3), 1),
    max_chars((250, 300)),
)
define(
    "acceptance-speech",
    "Write a short acceptance speech for {award}.",
    {"award": ("a regional teaching award", "best short film at a student festival",
               "volunteer of the year", "a science fair prize")},
    paragraphs("range", (2,), 1), starts("Thank you"), forbid(2), ends("Thank you all."),
)
define(
    "stanza-poem",
    "Write a poem about {subject}.",
    {"subject": ("a harbour at dawn", "an old bicycle", "the first snow",
                 "a grandmother's kitchen")},
    paragraphs("exact", (2, 3), phrase="Write exactly {n} stanzas separated by blank lines."),
    lines("exact", (9, 11), blank=True),
)
define(
    "persuasive-essay",
    "Write a short persuasive essay arguing that {claim}.",
    {"claim": ("cities should ban cars from their centres", "schools should start later",
               "public libraries deserve more funding", "every child should learn to swim")},
    words("min", (150, 200)), paragraphs("min", (3, 4)), forbid(2),
)
