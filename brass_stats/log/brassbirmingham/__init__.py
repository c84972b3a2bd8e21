"""Importing records of the BrassBirmingham online server (docs/importing.md).

* :mod:`.deal`: the server's random generator and deal, rebuilt from a record's seed; its setup file.
* :mod:`.records`: the server's identifiers and actions, and the conversion of a record to a game log.
* :mod:`.departures`: where the server broke a rule, and stepping the engine through the game.
"""
