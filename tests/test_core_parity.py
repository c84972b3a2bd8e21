"""The differential test: the compiled core agrees with the reference engine at every action.

Games of varied players (random, greedy, exploring, search; both editions; 2-4 players; the variants)
are played on the reference engine; at every position the core must read the position back field by
field, list the same legal actions in the same order, and reach the reference's successor, field by
field, for a sample of the legal actions (every one on some games), scores included. This is the
fixed sample CI runs; ``benchmarks/bench_core_parity.py`` runs long campaigns with fresh seeds."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from core_parity import Chooser, check_game, random_chooser

from brass_stats.bots.exploring import ExploringBot
from brass_stats.bots.greedy import GreedyBot
from brass_stats.bots.search import SearchBot
from brass_stats.engine.actions import Action
from brass_stats.engine.state import GameState


def bot_chooser(make: object) -> Chooser:
    bot = make()  # type: ignore[operator]

    def choose(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
        return bot.choose(state, legal, rng)  # type: ignore[no-any-return]

    return choose


CHOOSERS: dict[str, Chooser] = {
    "random": random_chooser,
    "greedy": bot_chooser(GreedyBot),
    "explore": bot_chooser(lambda: ExploringBot(0.3)),
    "search": bot_chooser(lambda: SearchBot(simulations=6)),
}

GAMES = [
    pytest.param(edition, players, chooser, seed, options, successors, id=f"{edition}-{players}p-{chooser}-{seed}")
    for edition, players, chooser, seed, options, successors in [
        ("birmingham", 2, "random", 31, None, None),
        ("birmingham", 3, "greedy", 32, None, 6),
        ("birmingham", 4, "explore", 33, None, 4),
        ("birmingham", 4, "search", 34, None, 3),
        ("birmingham", 2, "explore", 35, {"introductory": True}, None),
        ("lancashire", 2, "greedy", 36, None, None),
        ("lancashire", 3, "random", 37, {"classic_deck": True}, 6),
        ("lancashire", 4, "explore", 38, {"virtual_link": True}, 4),
        ("lancashire", 3, "search", 39, None, 3),
        ("lancashire", 4, "greedy", 40, {"classic_deck": True, "virtual_link": True}, 4),
    ]
]


@pytest.mark.parametrize(("edition", "players", "chooser", "seed", "options", "successors"), GAMES)
def test_the_core_agrees_with_the_reference_at_every_action(
    edition: str, players: int, chooser: str, seed: int, options: dict[str, bool] | None, successors: int | None
) -> None:
    count, found = check_game(edition, players, seed, CHOOSERS[chooser], options, successors)
    assert count > 30  # a whole game was compared (an introductory game has one era)
    assert not found, "\n".join(str(d) for d in found[:10])


def test_the_position_compared_is_every_field_of_the_reference_state() -> None:
    """The wire form the comparisons read holds every field of a GameState and of its players but the
    ones that are not the game: the rules (handed over once), caches and their version counter, the
    effects being recorded, the sharing bits; a player's seat (its index), name and first levels (the
    rules')."""
    import dataclasses

    from brass_stats.engine import SeededChance, new_game
    from brass_stats.engine.compiled import encode_state
    from brass_stats.engine.state import GameState, Player

    not_the_game = {"rules", "cache", "place_cache", "link_cache", "board_version", "effects", "_owned"}
    fields = {f.name for f in dataclasses.fields(GameState)} - not_the_game
    wire = encode_state(new_game(["a", "b"], SeededChance(1)))
    assert fields == set(wire)
    player_fields = set(Player.__slots__) - {"seat", "name", "first_level"}
    assert player_fields == set(wire["players"][0])
