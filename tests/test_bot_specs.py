"""Bots named by spec (brass_stats.bots.specs): the names, the knobs, the errors, the exploring bot."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from brass_stats.bots import RandomBot, play_game
from brass_stats.bots.exploring import ExploringBot
from brass_stats.bots.greedy import GreedyBot
from brass_stats.bots.search import SearchBot
from brass_stats.bots.selfplay import play_selfplay_game, seat_bots
from brass_stats.bots.specs import check_spec, make_bot
from brass_stats.cli import main
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.setup import SeededChance, new_game

# the bots' tests run on both paths: the compiled core and the pure-Python reference (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("bot_path")


def test_plain_names_make_the_registered_bots() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert type(make_bot("greedy")) is GreedyBot
    assert isinstance(make_bot("mcts"), SearchBot)
    assert make_bot("mcts").config.simulations == 200


def test_knobs_reach_the_search() -> None:
    bot = make_bot("mcts:sims=25:c_ucb=0.7:rollout_depth=2")
    assert isinstance(bot, SearchBot)
    assert (bot.config.simulations, bot.config.c_ucb, bot.config.rollout_depth) == (25, 0.7, 2)
    timed = make_bot("mcts:seconds=0.5")
    assert isinstance(timed, SearchBot)
    assert (timed.config.simulations, timed.config.seconds) == (None, 0.5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown bot 'alphazero'"),
        ("greedy:depth=2", "unknown knob 'depth' (greedy knows: explore)"),
        ("random:explore=0.1", "unknown knob 'explore' (random knows: none)"),
        ("mcts:sims", "a knob is KEY=VALUE, not 'sims'"),
        ("mcts:sims=many", "sims must be a number, not 'many'"),
        ("greedy:explore=2", "explore must be between 0 and 1"),
        ("mcts:sims=0", "simulations must be at least 1"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_spec(spec)
    with pytest.raises(ValueError):
        seat_bots([spec], 2)


def _after_one_draw(seed: int) -> random.Random:
    rng = random.Random(seed)
    rng.random()  # the exploring bot's coin
    return rng


def test_exploring_bot_mixes_random_and_greedy_choices() -> None:
    state = new_game(["a", "b"], SeededChance(4))
    legal = legal_actions(state)
    never, always = ExploringBot(0.0), ExploringBot(1.0)
    for s in range(20):
        assert never.choose(state, legal, random.Random(s)) == GreedyBot().choose(state, legal, _after_one_draw(s))
        assert always.choose(state, legal, random.Random(s)) == RandomBot().choose(state, legal, _after_one_draw(s))
    # over a game, some decisions differ from greedy's
    log = play_game([ExploringBot(0.3), GreedyBot()], seed=9)
    greedy_log = play_game([GreedyBot(), GreedyBot()], seed=9)
    assert log.actions != greedy_log.actions


def test_selfplay_records_the_spec_and_is_reproducible() -> None:
    a = play_selfplay_game(3, 0, ["greedy:explore=0.2", "greedy"])
    b = play_selfplay_game(3, 0, ["greedy:explore=0.2", "greedy"])
    assert a.to_json() == b.to_json()
    assert a.source is not None and a.source["bots"] == ["greedy:explore=0.2", "greedy"]
    assert a.players[0] == "greedy:explore=0.2-0"


def test_cli_refuses_a_bad_spec_in_one_line(tmp_path: object) -> None:
    result = CliRunner().invoke(main, ["selfplay", "-n", "1", "-p", "2", "--bots", "greedy:explor=1", "-o", "x"])
    assert result.exit_code == 2
    assert "unknown knob 'explor' (greedy knows: explore)" in result.output
    assert "Traceback" not in result.output


def test_the_search_reads_the_learned_win_model_at_its_leaves_when_asked() -> None:
    import random

    from brass_stats.bots.value import default_model
    from brass_stats.engine import SeededChance, new_game
    from brass_stats.engine.legal import legal_actions

    bot = make_bot("mcts:sims=6:leaf=win")
    assert bot.leaf == default_model().predict
    g = new_game(["A", "B"], SeededChance(5))
    result = bot.analyse(g, legal_actions(g), random.Random(0))
    assert result.simulations == 6 and abs(sum(result.value) - 1) < 1e-9  # win probabilities at the leaves
    with pytest.raises(ValueError, match="leaf must be one of softmax, win, vp"):
        make_bot("mcts:leaf=oracle")
    with pytest.raises(ValueError, match="temp is the softmax leaf's knob"):
        make_bot("mcts:leaf=win:temp=5")
