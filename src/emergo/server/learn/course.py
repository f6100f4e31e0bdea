"""The course of /learn: load and check it, judge a player's attempt move by move, give it as JSON.

>>> from emergo.server.learn.course import load_course
>>> course = load_course()
>>> attempt = course.start("capture/jump")
>>> verdict = course.judge(attempt, "d5-d6")
>>> verdict.status, verdict.text
('refused', 'illegal move d5-d6: you must capture: d5xf5 takes 1 man (R8, R11)')
>>> verdict = course.judge(attempt, "d5xf5")
>>> verdict.status, verdict.stars
('done', 3)

Everything here is pure: no database, no web, no search.  The opponent's replies are the
level's own (``script``), the endgame tables' best (``tables``: a probe takes microseconds), or
a house bot's in a real game that the server plays (``bot``: :meth:`Course.opponent_move`
takes its moves).  An :class:`Attempt` is a value the caller keeps (the page, or a signed-in
player's row): the level, the moves played since its start, and the mistakes made; every
verdict carries the attempt that follows it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from emergo.board import COLOR_NAMES, Board, Move
from emergo.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from emergo.geometry import Names
from emergo.server.learn.catalogue import Catalogue
from emergo.server.learn.goals import MOVE_GOALS, Before, Goal, Miss, check
from emergo.server.learn.levels import (
    RULES,
    CourseError,
    Level,
    Stage,
    read_stages,
    stages_dir,
)
from emergo.server.learn.texts import PAGE_TEXTS
from emergo.tablebase import MoveValue, Tablebase, TablebaseError, columns_of

__all__ = [
    "STATUSES",
    "Attempt",
    "AttemptError",
    "Course",
    "CourseError",
    "Verdict",
    "load_course",
    "stars",
]

STATUSES = ("refused", "wrong", "right", "done", "failed")
"""A verdict's status: an illegal move (the board's reason); a legal move that fails the goal
(taken back, a mistake); a right move (played, with the reply); the level done (with stars); a
game against a bot that ended without the goal."""

VERDICT_TEXTS: dict[str, set[str]] = {
    "verdict.reach": {"square"},
    "verdict.land": {"square"},
    "verdict.capture-none": set(),
    "verdict.capture-few": {"taken", "men"},
    "verdict.liberate-none": set(),
    "verdict.liberate-few": {"freed", "men"},
    "verdict.feed-none": {"opponent"},
    "verdict.feed-few": {"opponent", "taken", "men"},
    "verdict.win": {"opponent"},
    "verdict.draw": set(),
    "verdict.draw-blocked": {"opponent"},
    "verdict.draw-repetition": set(),
    "verdict.line": set(),
    "verdict.slip-draw": {"move"},
    "verdict.slip-loss": {"move"},
    "verdict.value-win": {"moves"},
    "verdict.value-draw": set(),
    "verdict.right": set(),
    "verdict.slower": {"move", "best"},
    "verdict.fastest": set(),
    "verdict.lost": {"opponent"},
    "verdict.drawn": set(),
    "verdict.answer": set(),
    "verdict.not-number": set(),
    "verdict.not-choice": set(),
    "words.man": {"n"},
    "words.men": {"n"},
    "color.white": set(),
    "color.black": set(),
}
"""The checker's own texts and the fields each may fill in (the catalogue must hold them all)."""
_COUNTS = ("taken", "men", "freed")
"""Fields that are numbers of men (written ``3 men`` in the catalogue's words)."""


class AttemptError(ValueError):
    """An attempt that does not belong to its level: an unknown level, a move out of turn, a
    reply that is not the level's, or a move after the level is done."""


def stars(par: int, used: int) -> int:
    """Stars as lichess's Learn gives them: 3 within par, 2 a little over (by at most one move,
    or an eighth of par when that is more), else 1.

    >>> stars(4, 4), stars(4, 5), stars(4, 6), stars(16, 18), stars(16, 19)
    (3, 2, 1, 2, 1)
    """
    late = used - par
    if late <= 0:
        return 3
    return 2 if late <= max(1, par / 8) else 1


@dataclass(frozen=True)
class Attempt:
    """A player's way through a level so far: the moves since its start (both sides, canonical
    R21 texts, after the prelude) and the mistakes (moves that failed the goal, wrong answers)."""

    level: str
    moves: tuple[str, ...] = ()
    mistakes: int = 0


@dataclass(frozen=True)
class Verdict:
    """What the checker says of one move or answer."""

    status: str
    attempt: Attempt
    """The attempt after this verdict: a right move and its reply added, a mistake counted."""
    position: str
    """The position now (R22), after the move and the reply when they were played."""
    text: str
    """Refused: the board's reason (R-cited).  Wrong: why the move fails the goal.  Right: a
    word on the position.  Done: the level's explanation.  Failed: how the game ended."""
    move: str | None = None
    """The player's move, canonical (``None`` when refused or for an answer)."""
    reply: str | None = None
    """The opponent's answer, already in ``attempt`` (``None``: none, or a bot's to come)."""
    stars: int | None = None
    notes: tuple[str, ...] = ()
    """More to read: the level's own word on a mistake; on a finished ending, where the win
    took longer than it had to."""

    def data(self) -> dict[str, Any]:
        """The verdict as JSON data (the attempt as ``level``, ``moves``, ``mistakes``)."""
        return {
            "status": self.status,
            "text": self.text,
            "notes": list(self.notes),
            "move": self.move,
            "reply": self.reply,
            "position": self.position,
            "stars": self.stars,
            "attempt": {
                "level": self.attempt.level,
                "moves": list(self.attempt.moves),
                "mistakes": self.attempt.mistakes,
            },
        }


@dataclass
class _State:
    """An attempt replayed: the board, the player's moves made, and how the level stands."""

    board: Board
    player: bool
    steps: int = 0
    done: bool = False
    failed: bool = False
    awaiting: bool = False
    finale: bool = False
    slower: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class _Judged:
    """One player's move assessed: its status, why it fails, and the slower-win note."""

    status: str
    miss: Miss | None = None
    slower: tuple[str, str] | None = None
    value: MoveValue | None = None


class Course:
    """The stages and levels of the course, their texts, and the checker of attempts."""

    def __init__(
        self,
        stages: Iterable[Stage],
        catalogue: Catalogue,
        *,
        tables: Tablebase | None = None,
    ) -> None:
        self.stages: tuple[Stage, ...] = tuple(sorted(stages, key=lambda s: s.number))
        self.catalogue = catalogue
        self._tables = tables
        self.levels: dict[str, Level] = {
            level.id: level for stage in self.stages for level in stage.levels
        }

    # --- the data -------------------------------------------------------------------------------

    def level(self, level_id: str) -> Level:
        try:
            return self.levels[level_id]
        except KeyError:
            raise AttemptError(f"no level {level_id!r} in the course") from None

    def tables(self) -> Tablebase:
        """The endgame tables the ``tables`` levels are judged by (default: the engine's)."""
        if self._tables is None:
            from emergo.tablebase import default

            self._tables = default()
        return self._tables

    def start_board(self, level: Level) -> Board:
        """The board where the player starts: the level's position, its prelude played."""
        board = Board(level.position)
        for text in level.prelude:
            board.push_move(text)
        return board

    def rules_index(self) -> dict[str, list[str]]:
        """Every rule of docs/rules.md and the levels that teach it, in course order."""
        index: dict[str, list[str]] = {rule: [] for rule in RULES}
        for level in self.levels.values():
            for rule in level.rules:
                index[rule].append(level.id)
        return index

    def needed_texts(self) -> dict[str, set[str] | None]:
        """Every catalogue key the course and its pages use, with the fields its text may fill
        in."""
        needed: dict[str, set[str] | None] = {**VERDICT_TEXTS, **PAGE_TEXTS}
        for stage in self.stages:
            needed.update(stage.text_keys())
            for level in stage.levels:
                needed.update(level.text_keys())
        return needed

    # --- the check ------------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Every fault of the course: positions, lines, goals, pars, texts (empty: all good).

        The lines against the endgame tables are checked by :meth:`table_problems`, which needs
        the tables (the C kernel).
        """
        out: list[str] = []
        for level in self.levels.values():
            out.extend(f"{level.source}: {p}" for p in self._level_problems(level))
        out.extend(self.catalogue.problems(self.needed_texts()))
        for level in self.levels.values():
            key = f"{level.key}.hint"
            few = key in self.catalogue and len(self.catalogue.texts(key)) < 2
            if few and not level.is_question:
                out.append(f"{level.source}: give two hints or more: the idea, then the move")
        return out

    def _level_problems(self, level: Level) -> list[str]:
        try:
            board = self.start_board(level)
        except ValueError as e:
            return [f"the prelude does not play: {e}"]
        for text in level.prelude:
            if text != str(Move.from_text(text, level.variant)):
                return [f"write the prelude's move {text} canonically"]
        if level.is_question:
            return []
        if board.is_game_over():
            return ["the game is over where the level starts"]
        out: list[str] = []
        kind = level.goal.kind
        if level.only and level.opponent != "script":
            out.append("only (the one right move) is for levels with scripted replies")
        if level.opponent == "script" and kind == "hold":
            out.append("a hold goal needs the tables or a bot to answer")
        if level.opponent == "tables":
            if kind not in ("win", "hold"):
                out.append("a level against the tables has the goal win or hold")
            if columns_of(board) is None:
                out.append("the position is in no endgame table (2 or 3 columns, no men in hand)")
        n = len(level.solution)
        if len(level.replies) not in (n - 1, n) and level.opponent != "tables":
            out.append(f"{n} moves need {n - 1} replies (or {n}, the last for show)")
            return out
        if level.opponent == "tables" and len(level.replies) != n - 1:
            out.append(f"{n} moves need {n - 1} replies from the tables")
            return out
        if kind == "hold" and level.par != n:
            out.append(f"hold for par = {level.par} moves, but the solution makes {n}")
        if level.par < n:
            out.append(f"par {level.par} is below the solution's {n} moves: no 3 stars")
        for step, text in enumerate(level.solution):
            legal = board.moves()
            try:
                move = board.parse_move(text)
            except ValueError as e:
                return [*out, f"move {step + 1} of the solution: {e}"]
            if board.move_text(move) != text:
                out.append(f"write the solution's {text} as {board.move_text(move)}")
            last = step == n - 1
            if kind in MOVE_GOALS and kind != "hold":
                meeting = [m for m in legal if self._meets(level.goal, board, m)]
                if last and move not in meeting:
                    out.append(f"the solution's last move {text} does not meet the goal")
                if last and level.only and len(meeting) != 1:
                    others = sorted(board.move_text(m) for m in meeting if m != move)
                    out.append(f"only: {', '.join(others) or 'no move'} meets the goal too")
                if not last and meeting and level.opponent == "script":
                    texts = sorted(board.move_text(m) for m in meeting)
                    out.append(f"at move {step + 1} {', '.join(texts)} meets the goal already")
            board.push(move)
            if board.is_game_over() and not last:
                return [*out, f"the game ends after move {step + 1} of the solution"]
            if step < len(level.replies):
                reply = level.replies[step]
                try:
                    answer = board.parse_move(reply)
                except ValueError as e:
                    return [*out, f"reply {step + 1}: {e}"]
                if board.move_text(answer) != reply:
                    out.append(f"write the reply {reply} as {board.move_text(answer)}")
                board.push(answer)
                if board.is_game_over():
                    return [*out, f"the game ends after reply {step + 1}"]
        return out

    def _meets(self, goal: Goal, board: Board, move: Move) -> bool:
        before = Before.of(board)
        board.push(move)
        try:
            return check(goal, before, move, board) is None
        finally:
            board.pop()

    def table_problems(self) -> list[str]:
        """The ``tables`` levels against the tables: the position won (``win``) or drawn
        (``hold``) for the player, the solution the tables' fastest line and its replies their
        best, and par its length."""
        out = []
        tables = self.tables()
        for level in self.levels.values():
            if level.opponent != "tables":
                continue
            board = self.start_board(level)
            try:
                wdl = tables.probe_wdl(board)
                want = 1 if level.goal.kind == "win" else 0
                if wdl != want:
                    out.append(f"{level.source}: the tables give {wdl}, the goal needs {want}")
                    continue
                for step, text in enumerate(level.solution):
                    best = tables.best_move(board)
                    if best is None or board.move_text(best) != text:
                        shown = board.move_text(best) if best else "no move"
                        out.append(f"{level.source}: move {step + 1}: the tables play {shown}")
                        break
                    board.push(best)
                    if step < len(level.replies):
                        reply = tables.best_move(board)
                        if reply is None or board.move_text(reply) != level.replies[step]:
                            out.append(f"{level.source}: reply {step + 1} is not the tables'")
                            break
                        board.push(reply)
                else:
                    outcome = board.outcome()
                    if level.goal.kind == "win" and (
                        outcome is None or outcome.winner != (not board.turn)
                    ):
                        out.append(f"{level.source}: the solution does not end the game won")
                    if level.goal.kind == "win" and level.par != len(level.solution):
                        out.append(f"{level.source}: par must be the fastest win's moves")
            except TablebaseError as e:
                out.append(f"{level.source}: {e}")
        return out

    def tables_needed(self, level: Level) -> int | None:
        """The endgame table a ``tables`` level is judged by: 2 or 3 columns (``None``: none)."""
        if level.opponent != "tables":
            return None
        return columns_of(self.start_board(level))

    def unavailable(self) -> list[str]:
        """The ``tables`` levels whose table is not there (a 3-column table not built, or no C
        kernel): a server hides them, or builds the table (``emergo tablebase build``)."""
        out = []
        for level in self.levels.values():
            columns = self.tables_needed(level)
            if columns is None:
                continue
            try:
                self.tables().table(level.variant, columns)
            except TablebaseError:
                out.append(level.id)
        return out

    # --- judging ----------------------------------------------------------------------------------

    def start(self, level_id: str) -> Attempt:
        """A fresh attempt at a level."""
        return Attempt(self.level(level_id).id)

    def board(self, attempt: Attempt) -> Board:
        """The board of an attempt now (with the whole line as its history, R19b)."""
        return self._replay(self.level(attempt.level), attempt).board

    def judge(self, attempt: Attempt, text: str, *, names: Names = "oblique") -> Verdict:
        """The verdict on the player's next move ``text`` (any notation the board reads, R21)."""
        level = self.level(attempt.level)
        if level.is_question:
            raise AttemptError(f"{level.id} is a question: answer() it")
        state = self._replay(level, attempt)
        if state.done or state.failed:
            raise AttemptError(f"{level.id}: the attempt is over")
        if state.awaiting:
            raise AttemptError(f"{level.id}: the bot's reply comes first (opponent_move)")
        board = state.board
        if board.turn != state.player:  # the moves stop before the level's reply
            raise AttemptError(f"{level.id}: the reply to move {len(attempt.moves)} is missing")
        try:
            move = board.parse_move(text, names)
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
            return Verdict("refused", attempt, board.position(), str(e))
        played = board.move_text(move)
        judged = self._assess(level, state, move)
        if judged.status == "wrong":
            assert judged.miss is not None
            notes = (self.catalogue.text(f"{level.key}.wrong"),) if level.wrong else ()
            return Verdict(
                "wrong",
                replace(attempt, mistakes=attempt.mistakes + 1),
                board.position(),
                self._say(judged.miss, board),
                played,
                notes=notes,
            )
        moves = [*attempt.moves, played]
        self._advance(level, state, move, judged)
        reply = None
        if judged.status in ("right", "done") and level.opponent != "bot":
            answer = self._reply(level, state)
            if answer is not None:
                reply = state.board.move_text(answer)
                moves.append(reply)
                self._answered(level, state, answer)
        after = replace(attempt, moves=tuple(moves))
        return self._verdict(level, state, after, played, reply, judged)

    def opponent_move(self, attempt: Attempt, text: str) -> Verdict:
        """A house bot's reply in a ``bot`` level (the server's game gives it): played when legal
        (else :class:`AttemptError`); the verdict says whether the game ended."""
        level = self.level(attempt.level)
        if level.opponent != "bot":
            raise AttemptError(f"{level.id}: the replies are the level's own")
        state = self._replay(level, attempt)
        if not state.awaiting:
            raise AttemptError(f"{level.id}: it is not the bot's turn")
        try:
            move = state.board.parse_move(text)
        except ValueError as e:
            raise AttemptError(f"{level.id}: the bot's move: {e}") from None
        reply = state.board.move_text(move)
        self._answered(level, state, move)
        after = replace(attempt, moves=(*attempt.moves, reply))
        return self._verdict(level, state, after, None, reply, _Judged("right"))

    def answer(self, attempt: Attempt, text: str) -> Verdict:
        """The verdict on an answer to a question level: a number, or a choice (its id or its
        text in the catalogue, any case)."""
        level = self.level(attempt.level)
        if not level.is_question or level.answer is None:
            raise AttemptError(f"{level.id} is no question: judge() its moves")
        position = self.start_board(level).position()
        given = text.strip().casefold()
        if level.choices:
            by_text = {self.catalogue.text(f"choice.{c}").casefold(): c for c in level.choices}
            choice = given if given in level.choices else by_text.get(given)
            if choice is None:
                text = self.catalogue.text("verdict.not-choice")
                return Verdict("refused", attempt, position, text)
            right = choice == level.answer
        else:
            if not given.lstrip("-").isdigit() or not given.isascii():
                text = self.catalogue.text("verdict.not-number")
                return Verdict("refused", attempt, position, text)
            right = int(given) == int(level.answer)
        if not right:
            notes = (self.catalogue.text(f"{level.key}.wrong"),) if level.wrong else ()
            return Verdict(
                "wrong",
                replace(attempt, mistakes=attempt.mistakes + 1),
                position,
                self.catalogue.text("verdict.answer"),
                notes=notes,
            )
        return Verdict(
            "done",
            attempt,
            position,
            self.catalogue.text(f"{level.key}.done"),
            stars=stars(level.par, 1 + attempt.mistakes),
        )

    def _replay(self, level: Level, attempt: Attempt) -> _State:
        """The attempt's moves played again, each checked as :meth:`judge` would."""
        board = self.start_board(level)
        state = _State(board, board.turn)
        for i, text in enumerate(attempt.moves):
            if state.failed or (state.done and (state.finale or board.turn == state.player)):
                raise AttemptError(f"{level.id}: move {i + 1} ({text}) comes after the end")
            try:
                move = _read(board, text)
            except ValueError as e:
                raise AttemptError(f"{level.id}: move {i + 1}: {e}") from None
            if board.turn == state.player:
                judged = self._assess(level, state, move)
                if judged.status == "wrong":
                    raise AttemptError(f"{level.id}: move {i + 1} ({text}) fails the goal")
                self._advance(level, state, move, judged)
            elif level.opponent == "bot" and not state.awaiting:
                raise AttemptError(f"{level.id}: move {i + 1} ({text}) is out of turn")
            elif level.opponent != "bot" and self._reply(level, state) != move:
                raise AttemptError(f"{level.id}: move {i + 1} ({text}) is not the reply")
            else:
                self._answered(level, state, move)
        return state

    def _assess(self, level: Level, state: _State, move: Move) -> _Judged:
        """Right, wrong or done: a legal move of the player against the level's goal."""
        board = state.board
        kind = level.goal.kind
        step = state.steps
        value = None
        slower = None
        if level.opponent == "tables":
            values = self.tables().probe_moves(board)
            best = values[0]
            value = next(v for v in values if v.move == move)
            if value.wdl < best.wdl:
                key = "verdict.slip-draw" if value.wdl == 0 else "verdict.slip-loss"
                return _Judged("wrong", Miss(key, {"move": board.move_text(move)}))
            if best.wdl > 0 and value.dtm > best.dtm:
                slower = (board.move_text(move), board.move_text(best.move))
        if kind == "hold":
            if step + 1 >= level.par:
                return _Judged("done", value=value)
            return _Judged("right", slower=slower, value=value)
        before = Before.of(board)
        board.push(move)
        try:
            miss = check(level.goal, before, move, board)
            outcome = board.outcome()
        finally:
            board.pop()
        if miss is None:
            return _Judged("done", slower=slower, value=value)
        if level.opponent == "script":
            last = step >= len(level.solution) - 1
            if last or board.move_text(move) != level.solution[step]:
                return _Judged("wrong", miss if last else Miss("verdict.line"))
        if outcome is not None:  # a bot game, or the tables' line, ended without the goal
            return _Judged("failed", value=value)
        return _Judged("right", slower=slower, value=value)

    def _advance(self, level: Level, state: _State, move: Move, judged: _Judged) -> None:
        state.board.push(move)
        state.steps += 1
        if judged.slower is not None:
            state.slower.append(judged.slower)
        state.done = judged.status == "done"
        state.failed = judged.status == "failed"
        state.awaiting = judged.status == "right" and level.opponent == "bot"

    def _reply(self, level: Level, state: _State) -> Move | None:
        """The reply the level gives now: its script's (after the last move too, when the
        script shows one), or the tables' best while the level goes on."""
        board = state.board
        if board.is_game_over() or state.failed:
            return None
        if level.opponent == "script":
            index = state.steps - 1
            if index >= len(level.replies):
                return None
            return board.parse_move(level.replies[index])
        if level.opponent == "tables" and not state.done:
            return self.tables().best_move(board)
        return None

    def _answered(self, level: Level, state: _State, move: Move) -> None:
        """The opponent's move played; a game that ends with it is over for the level."""
        state.board.push(move)
        state.awaiting = False
        if state.done:  # the script's last reply, shown after the goal is met
            state.finale = True
            return
        outcome = state.board.outcome()
        if outcome is None:
            return
        if level.goal.kind == "hold" and outcome.winner is None:
            state.done = True
        elif outcome.winner != state.player:
            state.failed = True

    def _verdict(
        self,
        level: Level,
        state: _State,
        attempt: Attempt,
        played: str | None,
        reply: str | None,
        judged: _Judged,
    ) -> Verdict:
        board = state.board
        position = board.position()
        if state.failed:
            outcome = board.outcome()
            drawn = outcome is not None and outcome.winner is None
            key = "verdict.drawn" if drawn else "verdict.lost"
            text = self.catalogue.text(key, opponent=self._color(not state.player))
            return Verdict("failed", attempt, position, text, played, reply)
        if state.done:
            notes = []
            if level.opponent == "tables" and level.goal.kind == "win":
                for move, best in state.slower:
                    notes.append(self.catalogue.text("verdict.slower", move=move, best=best))
                if not state.slower:
                    notes.append(self.catalogue.text("verdict.fastest"))
            used = state.steps + attempt.mistakes
            return Verdict(
                "done",
                attempt,
                position,
                self.catalogue.text(f"{level.key}.done"),
                played,
                reply,
                stars(level.par, used),
                tuple(notes),
            )
        text = self.catalogue.text("verdict.right")
        if level.opponent == "tables" and judged.value is not None:
            if judged.value.wdl > 0:
                # the plies left after this move are the opponent's and the player's in turn,
                # the player's last: (dtm - 1) / 2 of them are the player's moves
                moves = (judged.value.dtm - 1) // 2
                text = self.catalogue.text("verdict.value-win", moves=moves)
            else:
                text = self.catalogue.text("verdict.value-draw")
        return Verdict("right", attempt, position, text, played, reply)

    def _color(self, color: bool) -> str:
        return self.catalogue.text(f"color.{COLOR_NAMES[color].lower()}")

    def _say(self, miss: Miss, board: Board) -> str:
        """A miss in the catalogue's words (men counted, the opponent named)."""
        fields: dict[str, object] = {"opponent": self._color(not board.turn)}
        for name, value in miss.fields.items():
            counted = name in _COUNTS and isinstance(value, int)
            fields[name] = self.catalogue.men(int(value)) if counted else value
        return self.catalogue.text(miss.key, **fields)

    # --- as JSON ----------------------------------------------------------------------------------

    def level_data(self, level: Level) -> dict[str, Any]:
        """One level as ``GET /api/learn`` gives it (docs/learn.md)."""
        board = self.start_board(level)
        cat = self.catalogue
        geo = board.geometry
        question = None
        if level.is_question:
            choices = [{"id": c, "text": cat.text(f"choice.{c}")} for c in level.choices]
            question = {"choices": choices or None, "answer": level.answer}
        return {
            "id": level.id,
            "goal": cat.text(f"{level.key}.goal"),
            "kind": level.goal.kind,
            "variant": level.variant,
            "position": board.position(),
            "prelude": (
                {"position": level.position, "moves": list(level.prelude)}
                if level.prelude
                else None
            ),
            "side": COLOR_NAMES[board.turn].lower(),
            "solution": list(level.solution),
            "replies": list(level.replies),
            "opponent": level.opponent,
            "bot": level.bot,
            "tables": self.tables_needed(level),
            "only": level.only,
            "par": level.par,
            "targets": [geo.square_name(sq) for sq in level.goal.targets],
            "men": level.goal.men or None,
            "by": level.goal.by,
            "question": question,
            "hints": list(cat.texts(f"{level.key}.hint")),
            "done": cat.text(f"{level.key}.done"),
            "rules": list(level.rules),
            "view": level.view,
            "names": level.names,
        }

    def data(self) -> dict[str, Any]:
        """The whole course as ``GET /api/learn`` gives it: ``{"stages": [...]}``."""
        return {
            "stages": [
                {
                    "id": stage.id,
                    "title": self.catalogue.text(f"{stage.id}.title"),
                    "intro": self.catalogue.text(f"{stage.id}.intro"),
                    "levels": [self.level_data(level) for level in stage.levels],
                }
                for stage in self.stages
            ]
        }


def _read(board: Board, text: str) -> Move:
    """The legal move of a canonical text (an attempt's), else whatever the parser says."""
    try:
        move = Move.from_text(text, board.variant, men=board.entry_size())
    except ValueError:
        move = None
    if move is not None and board.is_legal(move):
        return move
    return board.parse_move(text)


def load_course(
    stages: str | Path | None = None,
    catalogue: str | Path | Catalogue | None = None,
    *,
    language: str = "en",
    tables: Tablebase | None = None,
    check: bool = True,
) -> Course:
    """The course of a stages directory (default: the shipped one) with a catalogue (default:
    the shipped one of ``language``), checked (:meth:`Course.problems`) unless ``check`` is
    false.  Raises :class:`CourseError` listing every problem found."""
    problems: list[str] = []
    found = read_stages(Path(stages) if stages is not None else stages_dir(), problems)
    texts = (
        catalogue
        if isinstance(catalogue, Catalogue)
        else Catalogue.load(catalogue, language=language)
    )
    if problems:
        raise CourseError(problems)
    course = Course(found, texts, tables=tables)
    if check:
        problems = course.problems()
        if problems:
            raise CourseError(problems)
    return course


def rule_table(index: Mapping[str, list[str]]) -> str:
    """The Markdown table of docs/learn.md: each rule and the levels that teach it."""
    lines = ["| Rule | Levels |", "|---|---|"]
    for rule, levels in index.items():
        lines.append(f"| {rule} | {', '.join(f'`{x}`' for x in levels) or 'none'} |")
    return "\n".join(lines)
