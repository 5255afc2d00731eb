"""Card type lines in the reader's language, with the words printed on official German and
Italian cards (e.g. "Standardland — Wald", "Terra Base Innevata — Isola", "Kreatur — Elf
Druide"). A line with a word not in these tables stays English, marked so (never half
translated)."""

from __future__ import annotations

from django.utils import translation

# The part before the dash, as printed (supertypes and types read as one phrase: the German
# compounds and the Italian word order differ from the English).
TYPES = {
    "de": {
        "Basic Land": "Standardland",
        "Basic Snow Land": "Verschneites Standardland",
        "Snow Land": "Verschneites Land",
        "Land": "Land",
        "Artifact": "Artefakt",
        "Artifact Creature": "Artefaktkreatur",
        "Creature": "Kreatur",
        "Land Creature": "Landkreatur",
        "Legendary Creature": "Legendäre Kreatur",
        "Legendary Planeswalker": "Legendärer Planeswalker",
        "Enchantment": "Verzauberung",
        "Instant": "Spontanzauber",
        "Sorcery": "Hexerei",
    },
    "it": {
        "Basic Land": "Terra Base",
        "Basic Snow Land": "Terra Base Innevata",
        "Snow Land": "Terra Innevata",
        "Land": "Terra",
        "Artifact": "Artefatto",
        "Artifact Creature": "Creatura Artefatto",
        "Creature": "Creatura",
        "Land Creature": "Creatura Terra",
        "Legendary Creature": "Creatura Leggendaria",
        "Legendary Planeswalker": "Planeswalker Leggendario",
        "Enchantment": "Incantesimo",
        "Instant": "Istantaneo",
        "Sorcery": "Stregoneria",
    },
}
# Subtypes; planeswalker types and a few creature types are printed as in English.
SUBTYPES = {
    "de": {
        "Forest": "Wald",
        "Island": "Insel",
        "Mountain": "Gebirge",
        "Plains": "Ebene",
        "Swamp": "Sumpf",
        "Aura": "Aura",
        "Equipment": "Ausrüstung",
        "Trap": "Falle",
        "Arcane": "Arkan",
        "Elf": "Elf",
        "Druid": "Druide",
        "Human": "Mensch",
        "Soldier": "Soldat",
        "Warrior": "Krieger",
        "Knight": "Ritter",
        "Wizard": "Zauberer",
        "Zombie": "Zombie",
        "Goblin": "Goblin",
        "Angel": "Engel",
        "Dragon": "Drache",
        "Demon": "Dämon",
        "Giant": "Riese",
        "Wall": "Mauer",
        "Insect": "Insekt",
        "Bird": "Vogel",
        "Bear": "Bär",
        "Golem": "Golem",
        "Construct": "Konstrukt",
        "Ajani": "Ajani",
        "Ashiok": "Ashiok",
        "Liliana": "Liliana",
    },
    "it": {
        "Forest": "Foresta",
        "Island": "Isola",
        "Mountain": "Montagna",
        "Plains": "Pianura",
        "Swamp": "Palude",
        "Aura": "Aura",
        "Equipment": "Equipaggiamento",
        "Trap": "Trappola",
        "Arcane": "Arcano",
        "Elf": "Elfo",
        "Druid": "Druido",
        "Human": "Umano",
        "Soldier": "Soldato",
        "Warrior": "Guerriero",
        "Knight": "Cavaliere",
        "Wizard": "Mago",
        "Zombie": "Zombie",
        "Goblin": "Goblin",
        "Angel": "Angelo",
        "Dragon": "Drago",
        "Demon": "Demone",
        "Giant": "Gigante",
        "Wall": "Muro",
        "Insect": "Insetto",
        "Bird": "Uccello",
        "Bear": "Orso",
        "Golem": "Golem",
        "Construct": "Costrutto",
        "Ajani": "Ajani",
        "Ashiok": "Ashiok",
        "Liliana": "Liliana",
    },
}


def localized_type_line(english: str) -> tuple[str, str]:
    """The type line ("Basic Land — Forest") in the reader's language, and its `lang` ("" when
    it is the reader's; "en" when a word has no official translation here: it stays English)."""
    language = (translation.get_language() or "en").split("-")[0]
    if language == "en":
        return english, ""
    types, _dash, subtypes = (part.split() for part in english.partition(" — "))
    left = TYPES.get(language, {}).get(" ".join(types))
    words = SUBTYPES.get(language, {})
    if left is None or any(subtype not in words for subtype in subtypes):
        return english, "en"
    if not subtypes:
        return left, ""
    return f"{left} — {' '.join(words[subtype] for subtype in subtypes)}", ""
