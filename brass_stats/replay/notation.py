"""Actions in a readable notation, like a move list: who did what, with which choices, and what followed.

>>> from brass_stats.log.format import GameLog
>>> from brass_stats.replay import replay
>>> from brass_stats import SAMPLES
>>> r = replay(GameLog.load(SAMPLES / "real" / "gm7vza-4p.json"))
>>> print(move_list(r)[2].text)
Player1 takes a £30 loan (card Coventry; −3 income levels)
>>> print(move_list(r)[14].text)
Player1 builds Brewery II in Burton-on-Trent (card Burton-on-Trent; iron from the market £1; pays £8)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action, Build, Develop, Loan, Network, Pass, Scout, Sell, Shortfall, action_from_json
from ..engine.state import Effect
from ..errors import BrassError, IllegalAction
from ..rules_data import INDUSTRY_NAME, RulesData

if TYPE_CHECKING:
    from . import Replay, Step

_ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")
# Effects that follow from the end of a round or an era rather than from the action itself.
_AFTERMATH = ("income", "canal_era_scoring", "rail_era_scoring", "canal_era_end", "cash_scoring")


def industry(ind: str, level: int | None = None) -> str:
    name = INDUSTRY_NAME.get(ind, ind.replace("_", " ").title())
    if level is None:
        return name
    return f"{name} {_ROMAN[level] if 0 <= level < len(_ROMAN) else level}"


def card_name(rules: RulesData, code: str) -> str:
    """``loc:stoke_on_trent``: ``Stoke-on-Trent``; ``ind:cotton_mill+manufacturer``: ``Cotton Mill/Manufacturer``."""
    if code == "wild:location":
        return "wild location"
    if code == "wild:industry":
        return "wild industry"
    if code.startswith("loc:"):
        return place(rules, code[4:])
    if code.startswith("ind:"):
        return "/".join(industry(i) for i in code[4:].split("+"))
    return code


def place(rules: RulesData, loc_or_ref: str) -> str:
    """A location's printed name, from its id or a slot ref (``derby:2``)."""
    loc = loc_or_ref.split(":", 1)[0]
    found = rules.locations.get(loc)
    return found.name if found else loc_or_ref


def link_name(rules: RulesData, link_id: str) -> str:
    link = rules.links.get(rules.link_aliases.get(link_id, link_id))
    if link is None:
        return link_id
    return "\u2013".join(place(rules, e) for e in link.endpoints)


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _signed(n: int, unit: str = "") -> str:
    return f"+{n}{unit}" if n >= 0 else f"\u2212{-n}{unit}"


def _money(n: int) -> str:
    return f"+£{n}" if n >= 0 else f"\u2212£{-n}"


@dataclass(frozen=True)
class Move:
    """One line of the move list."""

    index: int  # 0-based action index (as in ``state_at`` and the database's action_index); screens show index + 1
    era: str
    round: int  # counts through both eras
    era_round: int
    seat: int
    player: str
    type: str
    text: str  # the whole sentence, starting with the player's name
    illegal: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class _Describer:
    def __init__(self, rules: RulesData, names: Sequence[str]) -> None:
        self.rules = rules
        self.names = list(names)

    def who(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def source(self, src: str, price: int | None = None, *, actor: int | None = None, owner: int | None = None) -> str:
        if src == "market":
            return "the market" + (f" £{price}" if price is not None else "")
        if src == "merchant":
            return "the merchant's barrel"
        where = place(self.rules, src)
        if owner is not None and actor is not None and owner != actor:
            return f"{where} ({self.who(owner)}'s)"
        return where

    def tile(self, ref: str, ind: str, level: int, owner: int, actor: int) -> str:
        whose = "" if owner == actor else f"{self.who(owner)}'s "
        return f"{whose}{industry(ind, level)} in {place(self.rules, ref)}"

    # -- the action and its stated choices --------------------------------------------------
    def action(self, a: Action) -> tuple[str, str]:
        name = self.who(a.player)
        r = self.rules
        if isinstance(a, Build):
            cards = card_name(r, a.card) + (f" + {card_name(r, a.second_card)}" if a.second_card else "")
            slot = f" (slot {a.slot})" if a.slot is not None and len(r.locations[a.location].slots) > 1 else ""
            return f"{name} builds {industry(a.industry)} in {place(r, a.location)}{slot}", f"card {cards}"
        if isinstance(a, Network):
            kind = "rail" if a.coal else "canal"
            what = f"a {kind} link" if len(a.links) == 1 else f"{len(a.links)} rail links"
            return f"{name} builds {what} {_and([link_name(r, x) for x in a.links])}", f"card {card_name(r, a.card)}"
        if isinstance(a, Develop):
            return f"{name} develops {_and([industry(i) for i in a.industries])}", f"card {card_name(r, a.card)}"
        if isinstance(a, Sell):
            return f"{name} sells", f"card {card_name(r, a.card)}"
        if isinstance(a, Loan):
            amount = f"a £{a.amount}" if a.amount else "a"
            return f"{name} takes {amount} loan", f"card {card_name(r, a.card)}"
        if isinstance(a, Scout):
            return f"{name} scouts", "discards " + _and([card_name(r, c) for c in a.discards])
        if isinstance(a, Pass):
            return f"{name} passes", f"discards {card_name(r, a.card)}"
        if isinstance(a, Shortfall):
            return f"{name} cannot pay the shortfall in money", ""
        return f"{name} {a.TYPE}", ""

    # -- a replayed step: the action with what it did --------------------------------------------
    def step(self, step: Step) -> str:
        a = step.action
        head, choice = self.action(a)
        own = [e for e in step.effects if e.cause not in _AFTERMATH and not _end_of_round_shortfall(e, a)]
        after = [e for e in step.effects if e not in own]
        details = [choice] if choice else []
        if isinstance(a, Build):
            built = next((e for e in own if e.kind == "build"), None)
            if built is not None:
                head = f"{self.who(a.player)} builds {industry(built.detail['industry'], built.detail['level'])} in "
                head += place(self.rules, built.detail["tile"])
            details += self.resources(own, a.player)
            details += self.money_paid(own)
            details += self.replaced(own, a.player)
            details += self.market_sales(own)
            details += self.flips(own, a.player, built.detail["tile"] if built else None)
        elif isinstance(a, Network):
            details += self.resources(own, a.player)
            details += self.money_paid(own)
            details += self.flips(own, a.player, None)
        elif isinstance(a, Develop):
            developed = [e for e in own if e.kind == "develop" and e.cause == "develop"]
            if developed:
                head = f"{self.who(a.player)} develops " + _and(
                    [industry(e.detail["industry"], e.detail["level"]) for e in developed]
                )
            details += self.resources(own, a.player)
            details += self.money_paid(own)
            details += self.flips(own, a.player, None)
        elif isinstance(a, Sell):
            head = f"{self.who(a.player)} sells " + "; and ".join(self.sale(s, own, a.player) for s in a.sales)
            details += self.bonuses(own)
        elif isinstance(a, Loan):
            money = sum(e.amount for e in own if e.kind == "money")
            levels = dict(self.rules.loan_options).get(money)
            head = f"{self.who(a.player)} takes a £{money} loan"
            if levels:
                details.append(f"\u2212{levels} income level{'s' if levels > 1 else ''}")
        elif isinstance(a, Scout):
            details.append("takes a wild location and a wild industry card")
        elif isinstance(a, Shortfall):
            removed = [e for e in own if e.kind == "tile_removed"]
            got = {e.detail.get("tile"): e.amount for e in own if e.cause == "shortfall_tile_sale"}
            if removed:
                head = f"{self.who(a.player)} removes " + _and(
                    [
                        f"{industry(e.detail['industry'], e.detail['level'])} in {place(self.rules, e.detail['tile'])}"
                        f" ({_money(got.get(e.detail['tile'], 0))})"
                        for e in removed
                    ]
                )
                head += " to pay a shortfall"
            lost = sum(e.amount for e in own if e.kind == "vp" and e.cause == "shortfall")
            if lost:
                details.append(f"{_signed(lost)} VP")
        text = head + (f" ({'; '.join(d for d in details if d)})" if any(details) else "")
        tail = self.aftermath(after, step)
        return text + (f". {tail}" if tail else "")

    def resources(self, effects: list[Effect], actor: int) -> list[str]:
        out = []
        for kind in ("coal", "iron", "beer"):
            used = [e for e in effects if e.kind == f"{kind}_used"]
            if not used:
                continue
            srcs: dict[str, int] = {}  # label -> count, in the order taken
            for e in used:
                label = self.source(e.detail["source"], e.detail.get("price"), actor=actor, owner=e.detail.get("owner"))
                srcs[label] = srcs.get(label, 0) + 1
            out.append(f"{kind} from " + _and([k if n == 1 else f"{k} \u00d7{n}" for k, n in srcs.items()]))
        return out

    def money_paid(self, effects: list[Effect]) -> list[str]:
        paid = -sum(e.amount for e in effects if e.kind == "money" and e.cause in ("build", "network", "develop"))
        return [f"pays £{paid}"] if paid else []

    def replaced(self, effects: list[Effect], actor: int) -> list[str]:
        return [
            "replaces " + self.tile(e.detail["tile"], e.detail["industry"], e.detail["level"], e.seat, actor)
            for e in effects
            if e.kind == "tile_removed" and e.cause == "overbuilt"
        ]

    def market_sales(self, effects: list[Effect]) -> list[str]:
        sold: dict[str, int] = defaultdict(int)
        got: dict[str, int] = defaultdict(int)
        for e in effects:
            if e.kind == "market_sale":  # one effect per cube, its amount is the price
                sold[e.detail["resource"]] += 1
            elif e.kind == "money" and e.cause == "market_sale":
                got[e.detail["resource"]] += e.amount
        return [f"sells {n} {res} to the market for £{got[res]}" for res, n in sold.items()]

    def flips(self, effects: list[Effect], actor: int, own_tile: str | None) -> list[str]:
        income = {(e.seat, e.detail.get("tile")): e.amount for e in effects if e.kind == "income_spaces"}
        out = []
        for e in effects:
            if e.kind != "flip":
                continue
            ref = e.detail["tile"]
            gain = income.get((e.seat, ref))
            what = "it" if ref == own_tile else self.tile(ref, e.detail["industry"], e.detail["level"], e.seat, actor)
            out.append(f"flips {what}" + (f", {_signed(gain)} income" if gain else ""))
        return out

    def sale(self, sale: Any, effects: list[Effect], actor: int) -> str:
        r = self.rules
        flip = next((e for e in effects if e.kind == "flip" and e.detail["tile"] == sale.tile), None)
        # a sale to the Distant Cotton Market that reaches the X flips nothing; only Cotton Mills go there
        unflipped = f"a {industry('cotton_mill')}" if sale.merchant == "distant_market" else "a tile"
        what = industry(flip.detail["industry"], flip.detail["level"]) if flip else unflipped
        text = f"{what} in {place(r, sale.tile)}"
        parts = []
        if sale.merchant == "distant_market":
            text += " to the Distant Cotton Market"
            moved = next((e for e in effects if e.kind == "distant_market" and e.detail["tile"] == sale.tile), None)
            if moved is not None:
                bonus = next(
                    (e.amount for e in effects if e.cause == "distant_market" and e.detail.get("tile") == sale.tile), 0
                )
                parts.append(f"market tile moves {moved.amount}, {_signed(bonus)} income")
        elif sale.merchant in r.slots:
            port = next((e for e in effects if e.kind == "flip" and e.detail["tile"] == sale.merchant), None)
            text += f" through the port in {place(r, sale.merchant)}"
            if port is not None:
                parts.append(
                    f"flips {self.tile(sale.merchant, port.detail['industry'], port.detail['level'], port.seat, actor)}"
                )
        else:
            text += f" to {place(r, sale.merchant)}"
        if sale.beer:
            parts.append(
                "beer from "
                + _and([self.source(b, owner=self._beer_owner(effects, b), actor=actor) for b in sale.beer])
            )
        if flip is not None:
            gain = next(
                (
                    e.amount
                    for e in effects
                    if e.kind == "income_spaces" and e.cause == "sell" and e.detail.get("tile") == sale.tile
                ),
                None,
            )
            parts.append("flips it" + (f", {_signed(gain)} income" if gain else ""))
        return text + (f" ({'; '.join(parts)})" if parts else "")

    @staticmethod
    def _beer_owner(effects: list[Effect], src: str) -> int | None:
        return next(
            (e.detail.get("owner") for e in effects if e.kind == "beer_used" and e.detail["source"] == src), None
        )

    def bonuses(self, effects: list[Effect]) -> list[str]:
        out = []
        for e in effects:
            if not e.cause.startswith("merchant_bonus"):
                continue
            where = place(self.rules, e.cause.split(":", 1)[1]) if ":" in e.cause else "merchant"
            if e.kind == "vp":
                out.append(f"{where} bonus {_signed(e.amount)} VP")
            elif e.kind == "money":
                out.append(f"{where} bonus {_money(e.amount)}")
            elif e.kind == "income_spaces":
                out.append(f"{where} bonus {_signed(e.amount)} income")
            elif e.kind == "develop":
                out.append(f"{where} bonus: develops {industry(e.detail['industry'], e.detail['level'])}")
        return out

    def aftermath(self, effects: list[Effect], step: Step) -> str:
        out = []
        if any(e.cause == "income" for e in effects):
            paid = {e.seat: e.amount for e in effects if e.kind == "money" and e.cause == "income"}
            short = [
                f"{self.who(e.seat)} {_signed(e.amount)} VP"
                for e in effects
                if e.kind == "vp" and e.cause == "shortfall" and e.amount
            ]
            line = f"End of round {step.era_round}: income " + ", ".join(
                f"{self.who(s)} {_money(v)}" for s, v in paid.items()
            )
            if short:
                line += "; shortfall " + ", ".join(short)
            out.append(line)
        for era in ("canal", "rail"):
            scored = [e for e in effects if e.kind == "vp" and e.cause in (f"{era}_era_scoring", "cash_scoring")]
            if not any(e.cause == f"{era}_era_scoring" for e in scored):
                continue
            per: dict[int, int] = defaultdict(int)
            for e in scored:
                per[e.seat] += e.amount
            line = f"End of the {era.title()} Era: " + ", ".join(
                f"{self.who(s)} {_signed(v)} VP" for s, v in sorted(per.items())
            )
            removed = sum(1 for e in effects if e.kind == "tile_removed" and e.cause == f"{era}_era_end")
            if removed:
                line += f"; {removed} level-I tiles and every link removed"
            out.append(line)
        return ". ".join(out)


def _end_of_round_shortfall(e: Effect, a: Action) -> bool:
    # a shortfall met by VP at the end of a round follows from income, not from the action
    return e.kind == "vp" and e.cause == "shortfall" and not isinstance(a, Shortfall)


def describe_step(step: Step, rules: RulesData, names: Sequence[str]) -> str:
    """One step as a sentence: ``"Ann builds Cotton Mill II in Stoke-on-Trent (card ...; coal from Cannock)"``."""
    return _Describer(rules, names).step(step)


def describe_action(action: Action, rules: RulesData, names: Sequence[str]) -> str:
    """An action with its stated choices only (for one that was never applied, e.g. an illegal one)."""
    head, choice = _Describer(rules, names).action(action)
    return head + (f" ({choice})" if choice else "")


def move_list(replay: Replay, names: Sequence[str] | None = None) -> list[Move]:
    """Every replayed action as a :class:`Move`; an illegal action ends the list, marked ``illegal``.

    ``names`` replaces the players' names as written in the log (e.g. for display)."""
    rules = replay.initial.rules
    names = list(replay.log.players if names is None else names)
    moves = [
        Move(
            s.index,
            s.era,
            s.round,
            s.era_round,
            s.action.player,
            _name(names, s.action.player),
            s.action.TYPE,
            describe_step(s, rules, names),
        )
        for s in replay.steps
    ]
    err = replay.error
    if err is not None:
        moves.append(illegal_move(err, replay, names))
    return moves


def illegal_move(err: IllegalAction, replay: Replay, names: Sequence[str]) -> Move:
    rules = replay.initial.rules
    st = replay.state
    seat = err.details.get("player")
    attempted = ""
    try:
        if err.action is not None:
            act = action_from_json(err.action)
            seat = act.player
            attempted = describe_action(act, rules, names)
    except BrassError:
        attempted = ""
    seat = seat if isinstance(seat, int) else -1
    who = _name(names, seat)
    text = f"{attempted or who + ' acts'}: illegal [{err.rule}] {err.message}"
    return Move(
        err.index if err.index is not None else len(replay.steps),
        st.era,
        st.round,
        st.era_round,
        seat,
        who,
        (err.action or {}).get("type", "?"),
        text,
        illegal=True,
    )


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"
