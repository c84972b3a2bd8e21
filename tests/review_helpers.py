"""Game reviews made by hand for the presentation tests (a real review runs a search per action)."""

from __future__ import annotations

from brass_stats.analysis.review import ActionReview, GameReview
from brass_stats.analysis.review.judgement import margin_label
from brass_stats.engine.actions import Action
from brass_stats.engine.legal import legal_actions
from brass_stats.replay import Replay
from brass_stats.replay.notation import describe_action


def better_than_played(r: Replay, index: int, kind: type[Action]) -> Action:
    """A legal action of type ``kind`` other than the one played at ``index`` (as a better action to show)."""
    played = r.steps[index].action
    return next(a for a in legal_actions(r.state_at(index - 1)) if isinstance(a, kind) and a != played)


def hand_review(r: Replay, slips: dict[int, tuple[float, Action]], upto: int | None = None) -> GameReview:
    """A review of ``r``'s first ``upto`` actions (default: all): every action judged and the best found,
    except ``slips``: index -> (loss in VP of expected margin, better action), each with a standard error
    of a tenth of its loss, a sure loss and a label loss of the loss less it, as the judge does. Expected
    final VP: the VP after the action; win probabilities drift with the VP lead."""
    names = list(r.log.players)
    rules = r.initial.rules
    actions = []
    for step in r.steps[: upto if upto is not None else len(r.steps)]:
        st = r.state_at(step.index)
        vp = tuple(float(p.vp) for p in st.players)
        win = tuple((v + 1) / sum(x + 1 for x in vp) for v in vp)
        seat = step.action.player
        margin = vp[seat] - sum(v for s, v in enumerate(vp) if s != seat) / (len(vp) - 1)
        played = describe_action(step.action, rules, names)
        loss, best = slips.get(step.index, (0.0, step.action))
        se = loss / 10
        actions.append(
            ActionReview(
                index=step.index,
                seat=seat,
                player=names[seat],
                action=played,
                win_after=win,
                judged=True,
                best=describe_action(best, rules, names),
                best_action=best.to_json(),
                best_value=margin + loss,
                played_value=margin,
                loss=loss,
                label=margin_label(loss - se),
                simulations=4,
                vp_after=vp,
                loss_se=se,
                sure_loss=loss - se,
                label_loss=loss - se,
            )
        )
    return GameReview(r.log.edition, tuple(names), tuple(actions), 4, 7, None)


def first_of(r: Replay, kind: type[Action], after: int = 0) -> int:
    """The index of the first action of type ``kind`` at or after ``after``."""
    return next(s.index for s in r.steps if s.index >= after and isinstance(s.action, kind))
