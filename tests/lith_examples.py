"""The example hands printed in the Lith source, as (category, upper hand, lower hand).

Cards are named as printed; the upper hand beats the lower one.  Two
annotations in the source are misprinted (The Battle is a 4, The Discovery
is Suns/Waves); the names are what counts, so they stand as printed here.
"""

EXAMPLES = [
    ("Doubly Kindred", ["The End", "The Market", "The Origin"], None),
    ("Running Twin Flush", ["The Island", "The Borderland", "The Darkness"], ["The Harvest", "The Pact", "The Diplomat"]),
    ("Running Totum", ["The Merchant", "The Diplomat", "The Cave"], ["The Diplomat", "The Cave", "The Market"]),
    ("Pure Twin Flush", ["The Pact", "The Diplomat", "The Mountain"], ["The Betrayal", "The Soldier", "The Battle"]),
    ("Full Spread Trio", ["The Diplomat", "The Mill", "The Betrayal"], ["The Forest", "The Discovery", "The Soldier"]),
    ("Totum Trio", ["The Journey", "The Painter", "The Savage"], ["The Author", "The Desert", "The Origin"]),
    ("Full Spread Pair", ["The Betrayal", "The Mountain", "The Sailor"], ["The Castle", "The Journey", "The Savage"]),
    ("Full Spread", ["The Watchman", "The Origin", "Ace of Suns"], ["The Darkness", "The Chance Meeting", "The Painter"]),
    ("Impure Twin Flush", ["The Consul", "The Watchman", "The Author"], ["The Island", "The Penitent", "The Desert"]),
    ("Totum Pair", ["The Merchant", "The Lunatic", "The Penitent"], ["The Forest", "The Discovery", "The Battle"]),
    ("Trio", ["The End", "The Calamity", "The Windfall"], ["The Consul", "The Island", "The Window"]),
    ("Totum", ["The Pact", "The Battle", "The Origin"], ["The Light Keeper", "The Savage", "Ace of Moons"]),
    ("Running Single Flush", ["The Sea", "The Island", "The Borderland"], ["The Forest", "The Sailor", "The Savage"]),
    ("Kindred Pair", ["The Huntress", "The Bard", "The Merchant"], ["The Castle", "The Cave", "The Mountain"]),
    ("Single Flush Pair", ["The Island", "The Window", "The Desert"], ["The Harvest", "The Borderland", "Ace of Leaves"]),
    ("Kindred Single Flush", ["The Calamity", "The Rite", "The Battle"], ["The Diplomat", "The Lunatic", "The Author"]),
    ("Run", ["The Painter", "The Origin", "Ace of Suns"], ["The Cave", "The Lunatic", "The Forest"]),
    ("Fortune Single Flush", ["The Bard", "The Castle", "The Discovery"], ["The Rite", "The Diplomat", "The Forest"]),
    ("Fortune Pair", ["The Consul", "The Window", "The Journey"], ["The Lunatic", "The Market", "Ace of Waves"]),
    ("Kindred", ["The Windfall", "The Betrayal", "The Chance Meeting"], ["The Merchant", "The Soldier", "The Savage"]),
    ("Fortune", ["The End", "The Watchman", "Ace of Moons"], ["The Darkness", "The Chance Meeting", "The Penitent"]),
    ("Single Flush", ["The Calamity", "The Battle", "The Desert"], ["The Pact", "The Journey", "The Author"]),
    ("Pair", ["The Diplomat", "The Mill", "The Origin"], ["The Pact", "The Forest", "The Discovery"]),
    ("Void", ["The Consul", "The Painter", "Ace of Wyrms"], ["The Borderland", "The Castle", "The Discovery"]),
]
