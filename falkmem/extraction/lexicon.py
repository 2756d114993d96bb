"""Word lists the rule extractor uses: stop words, common words, head nouns, type cues, role words."""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

from ..text.dates import MONTHS, WEEKDAYS
from ..text.keys import APOSTROPHES
from .vocab import EntityType


def words(text: str) -> frozenset[str]:
    """Return the set of the white-space separated words of ``text``."""
    return frozenset(text.split())


COMMON_ZIPF = 4.5
"""Zipf frequency (wordfreq, English) at and above which a word is common: about once in 30,000 words."""
_CLOSED = words(
    """
    what how why when where which who whom whose whatever however whenever wherever whoever
    wow oh ooh ah aha hmm hm huh uh um yay yep yup nah ugh oops hooray bravo cheers alas
    awesome amazing cool nice great sounds sound absolutely definitely totally exactly
    congrats congratulations welcome sorry thanks thank okay ok alright
    zero one two three four five six seven eight nine ten eleven twelve twenty hundred thousand
    first second third fourth fifth last next
    """
)
_APOSTROPHE = re.compile(r"['\u2019]")


def bare(word: str) -> str:
    """The word without a contraction or possessive ("That's" -> "that"), case-folded."""
    return _APOSTROPHE.split(word, maxsplit=1)[0].casefold()


@lru_cache(maxsize=65_536)
def is_common_word(word: str) -> bool:
    """True when ``word`` (any case, "It's" read as "it") is a common English word: a closed-class
    word or one of Zipf frequency >= ``COMMON_ZIPF``. Such a word opening a sentence is capitalised
    whatever it is ("Sounds great!"), so it is taken for a name there only where the text confirms it."""
    low = bare(word.strip("'\u2019."))
    if not low.isalpha():
        return False
    return low in _CLOSED or zipf_frequency(low, "en") >= COMMON_ZIPF


# Capitalised words that are never names on their own (they split a capitalised run).
NOT_NAMES = words(
    """i i'm i've i'll i'd im ok okay fyi asap tbd todo eta am pm usd eur gbp re fwd cc hi hello hey dear
    thanks thank yes no yeah nope sure please dr mr mrs ms prof"""
).union(WEEKDAYS, MONTHS)

# English contractions, apostrophe dropped (chat writes both): never names, never known entities.
CONTRACTIONS = words(
    "im ive ill id youre youve youll youd hes shes weve theyre theyve theyll theyd "
    "thats theres whats whos wheres hows lets dont doesnt didnt cant couldnt wont wouldnt "
    "shouldnt isnt arent wasnt werent havent hasnt hadnt aint mustnt neednt yall"
)


def is_contraction(word: str) -> bool:
    """Whether a word is a contraction ("I’m", "Theres"); an all-capitals word ("ITS") is an acronym."""
    return not word.isupper() and APOSTROPHES.sub("", word).casefold() in CONTRACTIONS


# Function words dropped from the front of a capitalised run (looked up ``bare``).
LEADING_STOP = words(
    "the a an this that these those my our your his her their its we you they he she it "
    "what which who whom whose when where why how if but and or so because since while "
    "although though as at in on for from with without by to of about into over under no "
    "not yes yeah ok okay hi hello hey dear thanks thank please per via there here lets"
)
# Words capitalised only because they start a sentence: dropped from the front of its first run.
SENTENCE_STARTERS = LEADING_STOP | words(
    "is are was were do does did can could will would should shall may might must have has "
    "had after before once until sure great good nice sorry just maybe actually also then "
    "now today tomorrow yesterday tonight last next some any all every each both most many "
    "much more few several call book send check ask tell buy pay email schedule cancel move "
    "add update fix review meet pick get go make take let keep try use see find remember "
    "remind note need want like love hate finally however meanwhile anyway well oh wow hmm "
    "another other same such only even still already again never always often sometimes "
    "usually everyone everybody someone somebody nobody nothing something everything one "
    "two three new old going meeting booking flying thinking looking planning working "
    "having getting trying heading leaving coming waiting checking really probably hopefully "
    "apparently unfortunately fortunately luckily basically clearly obviously recently "
    "currently early lately likely order orders ticket tickets invoice flight flights "
    "confirmation reservation receipt"
)


def _typed(blocks: dict[EntityType, str]) -> dict[str, EntityType]:
    """Each word of each type's word block -> that type, in order."""
    return {w: etype for etype, block in blocks.items() for w in block.split()}


# A lowercase noun after a capitalised run joins the name ("the Atlas team").
HEAD_NOUNS = _typed(
    {
        "team": "team squad group crew department division unit",
        "place": "office branch campus headquarters hq airport station",
        "project": "project program programme initiative",
        "organization": "company",
        "product": "app platform service api sdk",
        "event": "conference summit offsite hackathon workshop",
    }
)
# Place head nouns whose name also implies the bare place: Bangalore office → Bangalore.
PLACE_HEADS = frozenset(w for w, etype in HEAD_NOUNS.items() if etype == "place")
# The first word of a name that types it ("Project Helios").
PREFIX_TYPES = _typed(
    {
        "project": "project operation program programme initiative",
        "place": "mount lake river port fort",
        "organization": "university bank",
    }
)
# The last word of a name that types it ("Acme Corp").
SUFFIX_TYPES = _typed(
    {
        "organization": """inc corp corporation ltd llc gmbh co company labs technologies systems bank
        university institute foundation agency airlines airways partners ventures capital holdings
        group""",
        "team": "team squad",
        "place": """office hq headquarters city street avenue road airport station park building campus
        county state island bay valley""",
        "project": "project program programme initiative",
        "product": "app platform api sdk service",
        "event": "conference summit meetup hackathon offsite kickoff",
    }
)
# A name right after one of these words is a place ("flight to Tokyo").
PLACE_PREPOSITIONS = words(
    "in to from near via visiting visit across around toward towards into arriving landing "
    "landed flew fly flying"
)
# Name connectors inside a capitalised run ("Bank of America", "Ludwig van Beethoven").
CONNECTORS = words("of de da del della di van von der den la le du &")

# Functional areas that may end a role title ("VP of Engineering").
ROLE_FUNCTIONS = (
    "engineering|product|products|sales|marketing|design|finance|operations|ops|hr|"
    "human resources|people|data|security|research|it|legal|growth|infrastructure|platform|"
    "support|customer success|technology|strategy|communications|partnerships|"
    "business development|analytics|quality|procurement|compliance|talent|recruiting|"
    "software|hardware|devops|ml|ai|machine learning|r&d|product management|"
    "people operations|revenue|sales and marketing"
)
ROLE_HEADS = (
    "vice[- ]president|president|director|manager|head|lead|engineer|developer|designer|"
    "architect|analyst|scientist|chair(?:man|woman|person)?|officer|intern|consultant|"
    "recruiter|administrator|admin|coordinator|specialist|strategist|counsel|principal|"
    "secretary|treasurer|editor|researcher|professor|accountant|controller|advisor|adviser"
)
ROLE_ACRONYMS = "VP|SVP|EVP|AVP|CEO|CTO|CFO|COO|CIO|CISO|CPO|CMO|CRO|CDO|GM|PM|EM|TPM|SRE|QA"
ROLE_MODIFIERS = (
    "senior|sr\\.?|junior|jr\\.?|staff|principal|lead|chief|vice|deputy|assistant|associate|"
    "interim|acting|executive|general|managing|product|engineering|software|tech|technical|"
    "program|project|marketing|sales|finance|data|security|platform|design|operations|hr|"
    "people|customer|account|regional|team|frontend|backend|full[- ]stack|ml|research|"
    "founding|first"
)
# Words allowed between an entity and a role for holds_role ("Marcus is the new VP").
ROLE_COPULA = words(
    "is are was were am as became become becomes now the a an our their his her new named "
    "appointed promoted to serves served serving works worked working acts acted currently "
    "also still interim acting"
)
