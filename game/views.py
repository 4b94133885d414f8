"""The browser game table: its page context, a game permalink, leaving, and a DEBUG-only harness.

The lobby's table view (`/tables/<id>/`) renders `game/table.html` while a game is playing or in
the rematch window; `table_context()` builds everything that template needs. The page itself is a
thin shell: the ES-module client (game/static/game/table.js) renders every frame it receives over
the table socket from the redacted view (`engine.view_for`), never from anything else.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from durak_site.errors import CATALOGUE, ServiceError
from lobby.services import REMATCH_SECONDS
from lobby.table_settings import TURN_SECONDS

from . import access, services
from .engine.hints import why_not
from .models import Game

SAMPLES_FILE = Path(__file__).resolve().parent / "templates" / "game" / "dev" / "samples.json"


def ui_strings() -> dict[str, str]:
    """Every string the table client shows, translated for the current request's language.

    Placeholders in braces ({name}, {card}, ...) are filled in by the client.
    """
    return {
        # status line: whose turn and what is awaited
        "your_lead": _("Your move"),
        "defend": _("Defend"),
        "defend_or_transfer": _("Defend or transfer"),
        "throw_or_bito": _("Throw in or “Bito”"),
        "throw_or_pass": _("Throw in or “Pass”"),
        "catch_or_wait": _("Check: catch a cheater or wait"),
        "check_phase": _("Checking the round…"),
        "waiting_for": _("Waiting for: {names}"),
        "bot_plays_seat": _("{name} (a bot plays)"),
        # the move log's name for a bot that played the viewer's own seat («Бот за вас: ход 6♠»)
        "bot_for_you": _("Your stand-in bot"),
        "you_took": _("You take the cards; others may still throw in"),
        "spectating": _("You are watching this game"),
        "game_over": _("The game is over"),
        "you_are_out": _("You are out of cards — well played!"),
        # hint line (move hints on)
        "hint_lead": _("Tap a raised card to lead the round"),
        "hint_defend": _("Beat the highlighted cards or press “Take”"),
        "hint_transfer": _("Lay a card of the same rank to transfer, beat, or take"),
        "hint_throw": _("You may throw in a raised card"),
        "hint_pick_target": _("Now tap the table card to beat"),
        "hint_pick_use": _("Tap a table card to beat it, or the table to transfer"),
        "hint_selected": _("Tap the table (or the card again) to play it"),
        "hint_catch": _("Tap a table card you think was played dishonestly"),
        "hint_confirm": _("Press “Confirm” to make this move"),
        "hint_drag": _("Tip: you can also drag a card onto the table"),
        # buttons and menu
        "take": _("Take"),
        "bito": _("Bito"),
        "pass": _("Pass"),
        "transfer": _("Transfer"),
        "catch": _("Catch!"),
        "confirm": _("Confirm"),
        "cancel": _("Cancel"),
        "leave": _("Leave"),
        "menu": _("Table menu"),
        "hints": _("Move hints"),
        "quick": _("Quick moves"),
        "sound": _("Sound"),
        "rematch": _("Rematch"),
        "ready": _("Ready"),
        "ready_sent": _("You are ready — waiting for the others"),
        "rematch_in": _("Rematch offer: {s} s"),
        "rematch_closed": _("The rematch offer has closed"),
        "rematch_wanted": _("Want to play again: {names}"),
        "to_lobby": _("Back to the lobby"),
        "leave_confirm_title": _("Leave the game?"),
        "leave_confirm_text": _("If you leave now, you lose this game (in pairs, your pair loses)."),
        "leave_confirm_yes": _("Leave"),
        "leave_confirm_no": _("Stay"),
        # seats
        "you": _("You"),
        "bot": _("Bot"),
        "offline": _("offline"),
        "left": _("left"),
        "out": _("out"),
        "attacker": _("attacks"),
        "defender_badge": _("defends"),
        "passed_badge": _("pass"),
        "took_badge": _("takes"),
        "partner": _("partner"),
        "cards_n": _("{n} cards"),
        "seat_marked": _("{name} (reliability: {mark}): {cards}"),  # a seat's label with its player's mark
        "stock": _("Stock"),
        "discard": _("Discard"),
        "trump": _("Trump"),
        "round_n": _("Round {n}"),
        "limit": _("Cards this round: {n} of {max}"),
        "seat_n": _("Seat {n}"),
        "bot_n": _("Bot {n}"),
        # the memory aid (a table rule, off by default)
        "memory_known": _("{name} is known to hold: {cards}"),
        "memory_gone": _("Gone to the discard"),
        "memory_known_short": _("known:"),
        "memory_gone_short": _("discarded:"),
        # connection
        "connecting": _("Connecting…"),
        "connection_lost": _("Connection lost — reconnecting…"),
        "connection_restored": _("Connection restored"),
        "connection_closed": _("You cannot play at this table from here."),
        # result
        "result_title": _("Game over"),
        "you_durak": _("You are the durak!"),
        "durak_is": _("The durak is {name}"),
        "you_won": _("You are not the durak — well played!"),
        "pair_won": _("The pair {names} wins"),
        "your_pair_won": _("Your pair wins!"),
        "your_pair_lost": _("Your pair lost"),
        "draw": _("Draw!"),
        "reason": _("Reason: {reason}"),
        "reason_normal": _("played to the end"),
        "reason_cap": _("the game could not progress"),
        "reason_resign": _("{name} gave up"),
        "reason_leave": _("{name} left the game"),
        "reason_timeout": _("{name} ran out of time"),
        "reason_disconnect": _("{name} lost the connection"),
        "reason_abandoned": _("every player left"),
        "finish_order": _("Order of finishing: {names}"),
        # last move in words
        "last_attack": _("{name} played {card}"),
        "last_defend": _("{name} beat {target} with {card}"),
        "last_transfer": _("{name} transferred with {card}"),
        "last_transfer_show": _("{name} transferred by showing the trump {card}"),
        "last_take": _("{name} takes"),
        "last_pass": _("{name}: “Pass”"),
        "last_swap": _("{name} swapped the trump"),
        "last_catch_ok": _("{name} caught a cheat on {card}!"),
        "last_catch_bad": _("{name} falsely accused {card} and draws a penalty card"),
        # the same lines when the actor is the viewer: Russian verbs agree with «Вы»
        "last_attack_you": _("You played {card}"),
        "last_defend_you": _("You beat {target} with {card}"),
        "last_transfer_you": _("You transferred with {card}"),
        "last_transfer_show_you": _("You transferred by showing the trump {card}"),
        "last_take_you": _("You take"),
        "last_pass_you": _("You: “Pass”"),
        "last_swap_you": _("You swapped the trump"),
        "last_catch_ok_you": _("You caught a cheat on {card}!"),
        "last_catch_bad_you": _("You falsely accused {card} and draw a penalty card"),
        # away seats (noticed after 15 s offline: docs/RULES.md#disconnect)
        "bot_in": _("bot in {s} s"),
        "loses_in": _("loses in {s} s"),
        # each player's outcome in the result dialog
        "outcome_won": _("not the durak"),
        "outcome_durak": _("durak"),
        "outcome_draw": _("draw"),
        "outcome_left": _("left the game"),
        "outcome_lost_on_time": _("lost on time"),
        "outcome_did_not_return": _("did not return"),
        "outcome_banned": _("banned"),
        "outcome_aborted": _("game aborted"),
        "rating_change_to": _("{change} → {rating}"),
        "unrated": _("Unrated: {reason}"),
        "unrated_plain": _("This game is unrated"),
        "unrated_rating_off": _("chosen in the search"),
        "unrated_bots": _("bots at the table"),
        "unrated_too_short": _("too short"),
        "unrated_shared_address": _("players share an address"),
        "unrated_pair_limit": _("these two players have met too often today"),
        "unrated_provisional": _("a new account's first games"),
        "unrated_aborted": _("the game was aborted"),
        "unrated_voided": _("voided by a moderator"),
        "moment_durak": _("Durak!"),
        "moment_won": _("Well played!"),
        # why a card cannot be played (client-side, before sending)
        "why_not_your_turn": _("It is not your move: waiting for {names}"),
        "why_lead_other": _("{name} leads this round"),
        "why_not_beat": _("{card} does not beat any card on the table"),
        "why_not_beat_target": _("{card} does not beat {target}"),
        "why_rank": _("You may only throw in ranks already on the table: {ranks}"),
        "why_limit": _("No more cards may be laid this round"),
        "why_passed": _("You already passed this round"),
        "why_starter_first": _("{name} throws in first"),
        "why_partner": _("You do not throw in to your partner"),
        "why_took": _("You already took; wait for the throw-ins"),
        "why_check": _("The round is being checked: only catching is allowed"),
        "why_over": _("The game is over"),
        "why_out": _("You have already finished this game"),
        "why_defender": _("You are defending: beat the cards or take"),
        "why_all_beaten": _("Every card is beaten; wait for the others"),
        "why_generic": _("You cannot play this card now"),
        "why_pick_target": _("Choose which table card to beat"),
        "why_pending": _("Waiting for the server…"),
        "sent": _("Move sent"),
        "confirm_move": _("Confirm: {move}"),
        "move_attack": _("play {card}"),
        "move_defend": _("beat {target} with {card}"),
        "move_transfer": _("transfer with {card}"),
        "move_transfer_show": _("transfer by showing {card}"),
        "move_take": _("take the cards"),
        "move_pass": _("pass"),
        "move_swap": _("swap {card} for the trump"),
        "move_catch": _("catch {card}"),
        "swap_trump": _("Swap the trump"),
        "shortcuts": _("Keys: ← → choose a card, Enter plays, T take, B bito/pass, P transfer, C catch"),
        "suit_S": _("spades"),
        "suit_H": _("hearts"),
        "suit_D": _("diamonds"),
        "suit_C": _("clubs"),
        "your_hand": _("Your hand"),
        "table_cards": _("Cards on the table"),
        # the move log: what happened while the player looked away (built from the frames)
        "log_title": _("Moves"),
        "log_open": _("Show all moves"),
        "log_close": _("Hide the moves"),
        "log_empty": _("No moves yet"),
        "round_bito": _("Bito: the cards go to the discard"),
        "round_taken": _("{name} takes the cards"),
        "round_taken_you": _("You take the cards"),
        # cheater mode: its sign on the table, and who caught whom
        "cheater_sign": _("Cheater mode"),
        # the sign's word on a phone's narrow bar (the whole name stays for screen readers)
        "cheater_sign_short": pgettext("short sign of the cheater mode", "Cheater"),
        "cheater_sign_help": _("Any card may be laid; others may catch a dishonest one with “Catch!”"),
        "catch_ok": _("{name} catches {cheater} on {card}: {cheater} takes every card on the table"),
        "catch_ok_you": _("You catch {cheater} on {card}: {cheater} takes every card on the table"),
        "catch_ok_on_you": _("{name} catches you on {card}: you take every card on the table"),
        "catch_bad": _("{name} accuses {card}, but it was honest: a penalty card"),
        "catch_bad_free": _("{name} accuses {card}, but it was honest (no card left to draw as a penalty)"),
        "catch_bad_you": _("{card} was honest: you draw a penalty card"),
        "catch_bad_you_free": _("{card} was honest (no card left to draw as a penalty)"),
        # a move the turn timer made for the viewer
        "timeout_attack": _("Time ran out: {card} was played"),
        "timeout_take": _("Time ran out: you take the cards"),
        "timeout_pass": _("Time ran out: “Pass”"),
        "timeout_move": _("Time ran out: a move was made for you"),
        # bots playing a seat
        "bot_takes_seat": _("{name} is away: a bot plays this seat"),
        "seat_back": _("{name} is back at the table"),
        "bot_played_for_you": _("While you were away, a bot played for you for {time} ({moves} moves)."),
        "bot_plays_for_you": _("A bot has been playing for you for {time}: your seat is yours again."),
        # the result of a game a bot played (or finished) for a player who was away, and its rule
        "bot_finished_for_you": _("While you were away, a bot finished the game for you: {time}, {moves} moves."),
        "rule_win_withheld": _("So the win earns you no rating: a win counts only if you made at least half "
                               "of your seat's moves yourself."),
        "rule_bot_moves_count": _("The bot's moves were your seat's: the result counts as the cards decided it."),
        "rule_link": _("The rule"),
        "time_min_s": _("{m} min {s} s"),
        "time_s": _("{s} s"),
        "rematch_play_again": _("Play again"),
    }


def error_messages() -> dict[str, str]:
    """Every refusal code → what the player reads, in the active language (the one catalogue)."""
    return {code: str(message) for code, message in CATALOGUE.items()}


def _lobby_url(name: str, *args) -> str | None:
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def rematch_ready(table) -> list[str]:
    """Who has asked for a rematch (pressed «Сыграть ещё») while the table's rematch offer lasts."""
    if getattr(table, "status", "") != "rematch":
        return []
    return [s.player.nick for s in table.seats.filter(ready=True, player__isnull=False).select_related("player")]


def table_context(request: HttpRequest, table, game: Game | None = None, seat: int | None = None) -> dict:
    """The context of `game/table.html` for the lobby's table view (and the dev harness).

    `game` defaults to the table's latest game; `seat` to the viewer's seat in that game (None =
    spectator).
    """
    if game is None:
        game = Game.objects.filter(table=table).order_by("-started_at", "-pk").first()
    if seat is None and game is not None and request.user.is_authenticated:
        seat = game.seats.filter(player=request.user).values_list("number", flat=True).first()
    rematch_deadline = table.rematch_deadline
    config = {
        "ws_url": f"/ws/tables/{table.pk}/",
        "table_id": table.pk,
        "game_id": game.pk if game else None,
        "seat": seat,
        "turn_seconds": table.turn_seconds or TURN_SECONDS.default,
        "server_now": timezone.now().isoformat(),
        "table_status": getattr(table, "status", ""),
        "rematch_deadline": rematch_deadline.isoformat() if rematch_deadline else None,
        "rematch_seconds": REMATCH_SECONDS,
        "rematch_ready": rematch_ready(table),
        "ready_url": _lobby_url("lobby:ready", table.pk),
        "room_url": _lobby_url("lobby:room", table.pk),
        "leave_url": reverse("game:leave", args=[game.pk]) if game else None,
        "lobby_url": _lobby_url("lobby:list") or _lobby_url("lobby:index") or reverse("home"),
        "table_url": _lobby_url("lobby:table", table.pk) or request.get_full_path(),
        "rules_url": _lobby_url("lobby:rules"),
        "harness": None,
    }
    return {
        "table": table,
        "game": game,
        "seat": seat,
        "ws_url": config["ws_url"],
        "table_config": config,
        "table_strings": ui_strings(),
        "table_errors": error_messages(),
    }


def _game_or_404(request: HttpRequest, game_id: int) -> Game:
    """The game, or 404 for a stranger to its private table (the answer a missing id gets)."""
    game = get_object_or_404(Game, pk=game_id)
    if not access.may_view_game(game, request.user, access.invited_tables(request)):
        raise Http404
    return game


def detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """`/games/<id>/`: a game's permalink — its table page shows it (or the table's next state)."""
    game = _game_or_404(request, game_id)
    url = _lobby_url("lobby:table", game.table_id) or f"/tables/{game.table_id}/"
    return redirect(url)


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    """«Выйти» during a game: the game service records the loss; then back to the lobby."""
    game = _game_or_404(request, game_id)
    error = None
    try:
        services.leave_game(game.pk, request.user)
    except ServiceError as exc:  # e.g. the game is already over — leaving is then free
        error = exc.code
    url = _lobby_url("lobby:list") or _lobby_url("lobby:index") or reverse("home")
    if request.headers.get("HX-Request") or request.headers.get("Accept", "").startswith("application/json"):
        from django.http import JsonResponse

        return JsonResponse({"ok": error is None, "error": error, "redirect": url})
    return redirect(url)


class _SampleTable:
    """Stands in for a lobby Table in the harness (only the attributes the template reads)."""

    def __init__(self, pk: int, name: str, turn_seconds: int = TURN_SECONDS.default) -> None:
        self.pk = self.id = pk
        self.name = name
        self.turn_seconds = turn_seconds
        self.status = "playing"
        self.rematch_deadline = None

    def __str__(self) -> str:
        return self.name


def load_samples() -> dict:
    with SAMPLES_FILE.open(encoding="utf-8") as f:
        return json.load(f)


def dev_table(request: HttpRequest) -> HttpResponse:
    """DEBUG only: the table client fed hard-coded sample frames (no socket), to look at and test."""
    if not settings.DEBUG:
        raise Http404
    samples = load_samples()
    name = request.GET.get("sample") or next(iter(samples))
    if name not in samples:
        raise Http404
    sample = samples[name]
    table = _SampleTable(0, sample.get("title", name))
    frame = dict(sample["frame"])
    if frame.get("deadline_in") is not None:  # a live countdown: the sample says "in N seconds"
        frame["deadline"] = (timezone.now() + timedelta(seconds=frame.pop("deadline_in"))).isoformat()
    for s in frame.get("seats", []):  # "in N seconds" → the ISO times the server sends
        for key in ("takeover", "lose"):
            if s.get(f"{key}_in") is not None:
                s[f"{key}_at"] = (timezone.now() + timedelta(seconds=s.pop(f"{key}_in"))).isoformat()
    seat = frame["view"].get("seat")
    frame.setdefault("hints", why_not(frame["view"]))  # what the server sends with every frame
    config = {
        "ws_url": None,
        "table_id": 0,
        "game_id": frame.get("game_id"),
        "seat": seat,
        "turn_seconds": TURN_SECONDS.default,
        "server_now": timezone.now().isoformat(),
        "table_status": "rematch" if frame["view"].get("result") else "playing",
        "rules_url": _lobby_url("lobby:rules"),
        "rematch_deadline": None,
        "rematch_seconds": REMATCH_SECONDS,
        "ready_url": None,
        "room_url": None,
        "leave_url": None,
        "lobby_url": reverse("home"),
        "table_url": request.get_full_path(),
        "harness": {"sample": name, "names": list(samples), "frame": frame},
    }
    ctx = {
        "table": table,
        "game": None,
        "seat": seat,
        "ws_url": None,
        "table_config": config,
        "table_strings": ui_strings(),
        "table_errors": error_messages(),
    }
    return render(request, "game/table.html", ctx)


def game_table_page(request: HttpRequest, table) -> HttpResponse:
    """The game table at the table's URL while a game runs or its rematch offer lasts
    (registered with lobby.pages in GameConfig.ready: the lobby never imports the game app)."""
    return render(request, "game/table.html", table_context(request, table))
