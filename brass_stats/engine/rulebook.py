"""The rule clauses the engine enforces, each with an id and the rulebook's words.

An :class:`~brass_stats.errors.IllegalAction` names one of these ids, so a
validator can print exactly which rule an action breaks. Every id here has a
test named after it (``tests/test_rule_*.py`` mention the id), checked by
``tests/test_rulebook_coverage.py``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    text: str


_RULES = [
    # -- turns and cards -------------------------------------------------
    Rule(
        "turn.order",
        "Rounds",
        "During each round, players take turns in the order of their Character tiles on the Turn Order Track.",
    ),
    Rule(
        "turn.actions",
        "Player Turns",
        "On your turn, perform a total of 2 actions. Exception: During the first round of the Canal Era, each player performs only 1 action.",
    ),
    Rule("turn.card_in_hand", "Player Turns", "For each action you perform, you must discard a card from your Hand."),
    Rule(
        "turn.game_over",
        "Winning the Game",
        "After performing Rail Era scoring the game is over; no further actions may be taken.",
    ),
    Rule(
        "turn.shortfall_pending",
        "End of Round",
        "If you have a shortfall when paying negative income, you must acquire money by removing one or more of your Industry tiles.",
    ),
    Rule(
        "money.afford",
        "Spending Money",
        "Any time you spend money to perform an action, you must place it on top of your Character tile (you cannot spend money you do not have).",
    ),
    # -- build -----------------------------------------------------------
    Rule(
        "build.card",
        "Build Action",
        "Location card: may be used to build any Industry tile at the location named on the card. Industry card: may be used to build the Industry tile matching an icon shown in the top corner of the card.",
    ),
    Rule("build.network", "Build Action", "Industry card: ... in a location that is a part of your network."),
    Rule(
        "build.wild_location_farm",
        "Build Action",
        "Wild Location card: may be played as any Location card. This does not include the 2 Farm Breweries.",
    ),
    Rule(
        "build.farm_brewery",
        "Farm Breweries",
        "You may only build in these locations using a Brewery Industry card or a Wild Industry card.",
    ),
    Rule(
        "build.no_tiles_on_board",
        "Building If You Have No Tiles on the Board",
        "If you have no Industry or Link tiles on the board, you may also discard an Industry card to build the matching Industry tile in any location with an undeveloped space displaying that industry's icon.",
    ),
    Rule(
        "build.slot_icon",
        "Build Action",
        "If no undeveloped spaces display your industry's icon, you may not place it in that location.",
    ),
    Rule(
        "build.single_icon_first",
        "Build Action",
        "If possible, place it on a space displaying only that industry's icon. Otherwise, place it on a space displaying that industry's icon with another industry's icon.",
    ),
    Rule(
        "build.lowest_level", "Build Action", "Take the lowest level tile of the chosen industry from your Player Mat."
    ),
    Rule(
        "build.tiles_left",
        "Build Action",
        "Take the lowest level tile of the chosen industry from your Player Mat (you have none left of that industry).",
    ),
    Rule(
        "build.canal_one_per_location",
        "Canal Era Building",
        "You may have a maximum of 1 Industry tile per location, but may have an Industry tile in the same location as other players.",
    ),
    Rule(
        "build.era",
        "Canal/Rail Era Building",
        "Industry tiles with an era mark to the left of their slot on your Player Mat may not be built in that era; to remove them you must perform the Develop action.",
    ),
    Rule(
        "build.overbuild",
        "Overbuilding",
        "You may replace an already placed Industry tile with a higher-level tile of the same industry type. If the tile you are replacing is owned by an opponent, you may Overbuild only a Coal Mine or an Iron Works.",
    ),
    Rule(
        "build.overbuild_resource_gone",
        "Overbuilding",
        "There must be no resource cubes on the entire board, including in its Market, of the same type as the Industry tile being replaced.",
    ),
    Rule(
        "build.coal_connection",
        "Consuming Coal",
        "To consume coal, a rail Link or Industry tile must be connected to a source of coal (after it is placed).",
    ),
    # -- resources -------------------------------------------------------
    Rule(
        "coal.closest_mine",
        "Consuming Coal",
        "Coal must be consumed from the closest (fewest Link tiles distant) connected unflipped Coal Mine (owned by any player). If multiple Coal Mines are equally close, choose one.",
    ),
    Rule(
        "coal.market",
        "Consuming Coal",
        "If you are not connected to an unflipped Coal Mine, you can purchase coal from the Coal Market, starting at the cheapest price. This requires a connection to a Merchant (coal-market icon). If the Coal Market is empty, you can still purchase coal for £8 / Coal.",
    ),
    Rule("coal.count", "Consuming Coal", "Consume the coal shown (one cube per coal icon; one per rail Link)."),
    Rule(
        "iron.works_first",
        "Consuming Iron",
        "Iron must be consumed from any unflipped Iron Works (owned by any player); only if there are no unflipped Iron Works can you purchase iron from the Iron Market, starting at the cheapest price (£6 when empty).",
    ),
    Rule("iron.count", "Consuming Iron", "Consume the iron shown (one cube per iron icon; one per tile developed)."),
    Rule(
        "beer.source",
        "Consuming Beer",
        "Beer may be consumed from your unflipped Breweries (no connection needed), an opponent's unflipped Brewery connected to the location where the beer is required, or the space beside a Merchant tile that you are selling to.",
    ),
    Rule(
        "beer.count",
        "Consuming Beer",
        "The amount required, if any, will be shown in the top right corner of the Industry tile.",
    ),
    Rule(
        "source.unknown",
        "Consuming Resources",
        "A named source must be a tile of the right industry holding that resource.",
    ),
    # -- network ---------------------------------------------------------
    Rule(
        "network.adjacent",
        "Network Action",
        "The placed Link tile must be adjacent to a location that is a part of your network. Exception: If you have no Industry or Link tiles on the board, you may place a Link tile on any undeveloped line.",
    ),
    Rule("network.undeveloped", "Network Action", "Place a Link tile on an undeveloped line on the board."),
    Rule(
        "network.era",
        "Network Action",
        "Canal Era: you may not build rail Links; you may build canal Links on undeveloped canal lines. Rail Era: you may not build canal Links; you may build rail Links on undeveloped railroad lines.",
    ),
    Rule(
        "network.count",
        "Network Action",
        "Canal Era: a maximum of 1 canal Link for £3. Rail Era: 1 rail Link for £5, or a maximum of 2 rail Links for £15 if you also consume 1 beer.",
    ),
    Rule(
        "network.double_beer",
        "Network During Rail Era",
        "This beer must be consumed from a Brewery (not a Merchant beer). If consuming beer from another player's Brewery, it must be connected to the second rail Link (after it is placed).",
    ),
    # -- develop ---------------------------------------------------------
    Rule("develop.count", "Develop Action", "Remove 1 or 2 Industry tiles from your Player Mat."),
    Rule(
        "develop.lightbulb",
        "Potteries and the Lightbulb Icon",
        "Pottery tiles that show a Lightbulb icon may not be developed.",
    ),
    Rule(
        "develop.tiles_left",
        "Develop Action",
        "Each tile removed must be the lowest level tile of the chosen industry (you have none left of that industry).",
    ),
    # -- sell ------------------------------------------------------------
    Rule("sell.tile", "Sell Action", "Choose 1 of your unflipped Cotton Mill, Manufacturer, or Pottery tiles."),
    Rule(
        "sell.merchant", "Sell Action", "The tile must be connected to a Merchant tile featuring that industry's icon."
    ),
    Rule(
        "sell.merchant_beer",
        "Sell Action",
        "If there is a beer barrel on the space beside the Merchant tile you are selling to, you may consume this beer as part of the Sell action, and collect the Merchant beer bonus.",
    ),
    Rule(
        "sell.bonus_develop",
        "Merchant Beer Bonuses",
        "Develop (Gloucester): Remove 1 of the lowest level tiles of any industry from your Player Mat (for no iron cost). You cannot remove a Pottery tile showing a lightbulb icon.",
    ),
    Rule(
        "sell.at_least_one",
        "Sell Action",
        "Performing the Sell action allows you to flip built tiles: at least one tile must be sold.",
    ),
    # -- loan, scout, pass -------------------------------------------------
    Rule("loan.limit", "Loan Action", "You cannot take a loan if it will take your income level below -10."),
    Rule(
        "scout.wild_in_hand",
        "Scout Action",
        "You may not perform this action if you already have a Wild card in your Hand.",
    ),
    Rule("scout.cards", "Scout Action", "Discard any card from your Hand, plus 2 additional cards."),
    # -- end of round ------------------------------------------------------
    Rule(
        "shortfall.tiles",
        "End of Round",
        "You may remove any of your Industry tiles, but must stop as soon as you have acquired enough money to cover the shortfall.",
    ),
    Rule(
        "shortfall.not_needed",
        "End of Round",
        "You may not sell Industry tiles for any reason other than paying for a shortfall.",
    ),
    # -- the log itself ------------------------------------------------------
    Rule(
        "log.choice_stated",
        "Log format",
        "Every choice the rules leave to the player is stated in the action; a choice may be omitted only when the rules leave exactly one option.",
    ),
    Rule("log.unknown_name", "Log format", "Every location, link, industry, card and tile named in an action exists."),
    Rule("log.result", "Log format", "The declared result matches the replayed result."),
    Rule("log.truncated", "Log format", "A finished game's log continues until the end of the Rail Era."),
]

RULES: dict[str, Rule] = {r.id: r for r in _RULES}
