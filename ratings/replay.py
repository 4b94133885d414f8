"""Replays: the engine re-run from Game.initial_state over the game's event log.

Only for finished games (the page shows every hand). A GameEvent is applied as the server applied
it: ``seat`` None + ``{"type": "end_check"}`` closes a cheater check window, ``{"type":
"set_bots", "seats": [...]}`` records a bot taking a seat over (or handing it back), ``{"type": "resign"}`` is
leaving / losing on time, anything else is an engine action of that seat.
"""

from __future__ import annotations

from typing import Any

from game import engine
from game.event_log import apply_event


class ReplayError(Exception):
    """The log does not replay (a corrupt or foreign event); carries the failing event's seq."""

    def __init__(self, seq: int, detail: str) -> None:
        super().__init__(f"event {seq}: {detail}")
        self.seq = seq
        self.detail = detail


def frame(state, seat: int | None = None, action: dict | None = None) -> dict[str, Any]:
    """Everything the replay shows at one step: every hand (the game is over), the table, counts."""
    d = state.to_json()
    playing = d["phase"] != "over"
    return {
        "round": d["round"],
        "seat": seat,
        "action": action,
        "hands": {str(k): h for k, h in enumerate(d["hands"], start=1)},
        "table": [{"attack": t["attack"], "defense": t["defense"]} for t in d["table"]],
        "trump": d["trump"],
        "trump_card": d["trump_card"],
        "stock": len(d["stock"]),
        "discard": len(d["discard"]),
        "attacker": d["starter"] if playing else None,
        "defender": d["defender"] if playing else None,
        "took": d["took"],
        "out": d["out"],
        "phase": d["phase"],
        "result": d["result"],
    }


def replay(initial_state: dict, events) -> tuple[list[dict], Any]:
    """(frames, final state): frame 0 is the deal, frame k follows event k."""
    state = engine.GameState.from_json(initial_state)
    frames = [frame(state)]
    for ev in events:
        try:
            state = apply_event(state, ev.seat, ev.action)
        except engine.IllegalAction as e:
            raise ReplayError(ev.seq, f"{e}") from e
        frames.append(frame(state, ev.seat, ev.action))
    return frames, state


def round_starts(frames: list[dict]) -> list[dict]:
    """[{"round": r, "frame": index of its first frame}] for the "jump to round" control."""
    out: list[dict] = []
    for k, f in enumerate(frames):
        if not out or out[-1]["round"] != f["round"]:
            out.append({"round": f["round"], "frame": k})
    return out
