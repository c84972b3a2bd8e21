"""End-of-era scoring and the final ranking."""

from __future__ import annotations

from dataclasses import dataclass

from .state import Effect, GameState, new_effect


def location_link_value(state: GameState, loc: str) -> int:
    """Link icons at a location: printed on merchants, on flipped tiles (any owner) in towns."""
    return state.rules.locations[loc].printed_link_vp + _flipped_link_icons(state).get(loc, 0)


def _flipped_link_icons(state: GameState) -> dict[str, int]:
    """Link icons of flipped tiles per location, cached per board version (a flip changes the board)."""
    icons: dict[str, int] | None = state.cache.get(("icons",))
    if icons is None:
        icons = {}
        for ref, t in state.tiles.items():
            if t.flipped:
                loc = ref.split(":", 1)[0]
                icons[loc] = icons.get(loc, 0) + state.level_info(t).link_vp
        state.cache[("icons",)] = icons
    return icons


def link_vp(state: GameState, link_id: str) -> int:
    return sum(location_link_value(state, loc) for loc in state.rules.links[link_id].connects)


def score_era(state: GameState) -> None:
    """Score links (removing them), then flipped tiles."""
    state.era_boards = {
        **state.era_boards,
        state.era: (dict(state.tiles), dict(state.links)),  # tiles are never changed in place
    }
    # link_vp for every link, with the lookups it repeats done once
    icons, locations, links = _flipped_link_icons(state), state.rules.locations, state.rules.links
    values = {
        link_id: sum(locations[loc].printed_link_vp + icons.get(loc, 0) for loc in links[link_id].connects)
        for link_id in state.links
    }
    cause = f"{state.era}_era_scoring"
    players = [state.player_mut(seat) for seat in range(state.num_players)]  # every one scores, as a rule
    for link_id, owner in state.links.items():
        p = players[owner]
        p.vp += values[link_id]
        p.link_tiles += 1  # the tile comes back (its other side is the rail link)
        if (effects := state.effects) is not None:  # state.effect, written out (hot)
            effects.append(
                new_effect(Effect, ("vp", owner, values[link_id], cause, {"source": "link", "link": link_id}))
            )
    state.links = {}
    state.touch_board()
    for ref, t in state.tiles.items():
        if t.flipped:
            vp = state.level_info(t).vp
            players[t.owner].vp += vp
            if (effects := state.effects) is not None:  # state.effect, written out (hot)
                detail = {"source": "tile", "tile": ref, "industry": t.industry, "level": t.level}
                effects.append(new_effect(Effect, ("vp", t.owner, vp, cause, detail)))


def score_cash(state: GameState) -> None:
    """Lancashire, end of the Rail Era: 1 VP for every £10."""
    per = state.rules.cash_vp_per
    if not per:
        return
    for seat in range(state.num_players):
        p = state.player_mut(seat)
        vp = p.money // per
        p.vp += vp
        state.effect("vp", p.seat, vp, "cash_scoring", money=p.money)


def score_introductory(state: GameState) -> None:
    """The introductory game's extra scoring after the Canal Era: 1 VP per £4 (at most 15), VP equal to
    the income level (never below 0 VP in total), and flipped level-2+ tiles scored a second time."""
    for seat in range(state.num_players):
        p = state.player_mut(seat)
        money_vp = min(15, p.money // 4)
        p.vp += money_vp
        state.effect("vp", p.seat, money_vp, "introductory_scoring", source="money")
        income = state.income_level(p.seat)
        change = max(income, -p.vp)
        p.vp += change
        state.effect("vp", p.seat, change, "introductory_scoring", source="income")
    for ref, t in state.tiles.items():
        if t.flipped and t.level >= 2:
            vp = state.level_info(t).vp
            state.player_mut(t.owner).vp += vp
            state.effect(
                "vp", t.owner, vp, "introductory_scoring", source="tile", tile=ref, industry=t.industry, level=t.level
            )


def potential_vp(state: GameState, seat: int) -> tuple[int, int]:
    """(link VP, flipped-tile VP) the player would score if the era ended now (nothing once the game is over)."""
    if state.game_over:
        return 0, 0
    links = sum(link_vp(state, lid) for lid, owner in state.links.items() if owner == seat)
    tiles = sum(state.level_info(t).vp for t in state.tiles.values() if t.owner == seat and t.flipped)
    return links, tiles


@dataclass(frozen=True)
class Standing:
    seat: int
    name: str
    vp: int
    income_level: int
    money: int
    rank: int
    income_space: int = 0


def standings(state: GameState) -> list[Standing]:
    """Rank by VP, then the income marker's track space, then money; players still tied share a rank (a draw).

    The rulebook breaks ties "by the highest income"; a designer ruling reads that as the marker's
    space on the income track, not its income level (D17): money decides only when both markers share a space.
    """
    keys = {p.seat: (p.vp, p.income_space, p.money) for p in state.players}
    out = []
    for p in state.players:
        rank = 1 + sum(1 for s, k in keys.items() if k > keys[p.seat])
        out.append(Standing(p.seat, p.name, p.vp, state.income_level(p.seat), p.money, rank, p.income_space))
    return out


def win_shares(state: GameState) -> tuple[float, ...]:
    """Each seat's share of the win, in seat order: 1 for the player ranked first by
    :func:`standings`, ``1/k`` each for ``k`` players tied first (a draw), 0 for the others.

    The result of a finished game: the search backs it up from the end of a line of play, the
    win-probability model gives it for a finished game and is trained to predict it.

    >>> from brass_stats.engine import SeededChance, new_game
    >>> g = new_game(["Ann", "Bob", "Cid"], SeededChance(1))
    >>> for p, vp in zip(g.players, [60, 60, 50]):
    ...     p.vp, p.income_space, p.money = vp, 30, 5
    >>> win_shares(g)  # Ann and Bob tie on VP, income and money
    (0.5, 0.5, 0.0)
    """
    ranks = [s.rank for s in standings(state)]
    share = 1.0 / ranks.count(1)
    return tuple(share if r == 1 else 0.0 for r in ranks)
