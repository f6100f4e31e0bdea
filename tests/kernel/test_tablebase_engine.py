"""The engine with the endgame tables (issue 23): perfect play, exact scores, the table as the
source in the search, the protocol, ``emergo analyse`` and the web analysis; and no draw
reported that is not proven, with or without tables."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from emergo import Board
from emergo.search import Limit, Score, SearchInfo
from tests.plugins.common import requires_kernel

kernel = requires_kernel()
from emergo import tablebase  # noqa: E402
from emergo.cli.analyse import position_report  # noqa: E402
from emergo.protocol import EngineSession  # noqa: E402
from emergo.tablebase import Tablebase  # noqa: E402

WON_7X7 = "7x7 w 0/0 d2:b8 d5:w8"
"""White wins in 47 (the issue: scored draw at depths 20-26 by the search's own repetition)."""
WON_9X9 = "w 0/0 c4:w12 d2:b12"
"""White wins in 73 (the issue: drawn by threefold repetition at 0.1 s a move)."""
WON_HEX = "hex w 0/0 c3:b4w12 f3:b8"
"""White wins in 41, only by c3-d3 (the issue: the engine played c3-d4, a draw)."""


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tablebase]:
    folder = tmp_path_factory.mktemp("tables")
    tablebase.build("7x7", 3, folder)
    with Tablebase(folder) as t:
        yield t


def _searcher(tables: Tablebase | None = None) -> kernel.Searcher:
    return kernel.Searcher(hash_mb=4, tablebase=tables)


def _replay(board: Board, pv: tuple[object, ...]) -> Board:
    end = board.copy()
    for move in pv:
        end.push(move)  # type: ignore[arg-type]
    return end


# --- no draw that is not proven -------------------------------------------------------------


@pytest.mark.parametrize("depth", [20, 22, 24, 26])
def test_a_won_position_is_never_scored_a_draw_by_the_search(depth: int) -> None:
    """Without tables the search meets repetitions on its own line: it may score them 0, but
    it reports 0, not a proven draw (issue 23)."""
    result = _searcher().search(Board(WON_7X7), Limit(depth=depth))
    assert result.infos[0].score.kind != "draw"
    assert result.infos[0].source == "search"


def test_no_search_reports_a_draw_without_tables() -> None:
    for position in (WON_9X9, WON_HEX, "hex w 0/0 b2:b4w12 e7:b8", "w 0/0 a5:w12 c4:b12"):
        result = _searcher().search(Board(position), Limit(nodes=30_000), multipv=3)
        assert all(info.score.kind != "draw" for info in result.infos), position


# --- the root: the tables' move, no search --------------------------------------------------


@pytest.mark.parametrize(("position", "plies"), [(WON_7X7, 47), (WON_9X9, 73), (WON_HEX, 41)])
def test_a_table_position_is_answered_by_the_tables(
    tables: Tablebase, position: str, plies: int
) -> None:
    board = Board(position)
    heard: list[SearchInfo] = []
    result = _searcher(tables).search(board, Limit(depth=30), on_info=heard.append)
    info = result.infos[0]
    assert (info.score, info.source, info.nodes) == (Score.win(plies), "tablebase", 0)
    assert heard == list(result.infos)
    assert result.move == tables.best_move(board)
    # the line is the tables' whole win: White has won when it ends (R18)
    end = _replay(board, info.pv)
    assert len(info.pv) == plies
    assert end.outcome() is not None and end.outcome().winner == board.turn  # type: ignore[union-attr]


def test_every_line_is_valued_by_the_tables(tables: Tablebase) -> None:
    board = Board(WON_HEX)
    result = _searcher(tables).search(board, Limit(depth=5), multipv=6)
    by_move = {str(i.pv[0]): i.score for i in result.infos}
    expected = {str(m.move): m.dtm for m in tables.probe_moves(board)}
    assert by_move == {
        move: Score.draw() if dtm == 0 else Score.win(dtm) if dtm > 0 else Score.loss(-dtm)
        for move, dtm in expected.items()
    }
    assert str(result.infos[0].pv[0]) == "c3-d3"
    assert result.infos[1].score == Score.draw()  # a proven draw: the tables'


def test_a_proven_draw_is_reported_as_a_draw(tables: Tablebase) -> None:
    board = Board(WON_HEX)
    board.push_move("c3-d4")
    result = _searcher(tables).search(board, Limit(depth=3))
    assert (result.infos[0].score, result.infos[0].source) == (Score.draw(), "tablebase")


def test_a_three_column_root_and_the_loser_delays(tables: Tablebase) -> None:
    board = Board("7x7 b 0/0 b4:b3 c2:b4w g4:bw7")  # the longest 7x7 3-column win, 141
    result = _searcher(tables).search(board, Limit(depth=3))
    assert result.infos[0].score == Score.win(141)
    board.push(result.move)  # type: ignore[arg-type]
    loser = _searcher(tables).search(board, Limit(depth=3), multipv=3)
    assert loser.infos[0].score == Score.loss(140)
    assert loser.infos[0].score >= loser.infos[-1].score


def test_the_engine_plays_a_won_ending_out_perfectly(tables: Tablebase) -> None:
    """Both sides by the engine with the tables: the game ends in exactly the tables' plies."""
    for position, plies in ((WON_HEX, 41), ("7x7 b 0/0 b4:b3 c2:b4w g4:bw7", 141)):
        board = Board(position)
        searcher = _searcher(tables)
        for _ in range(plies):
            move = searcher.search(board, Limit(depth=4)).move
            assert move is not None
            board.push(move)
        outcome = board.outcome()
        assert outcome is not None and outcome.winner == Board(position).turn


def test_a_position_of_the_game_twice_already_is_not_trusted_to_the_tables(
    tables: Tablebase,
) -> None:
    """R19b: after the game went round twice, the tables' best move d5-d4 repeats a position
    a third time (a draw); the engine searches (the tables only at its horizon) and wins."""
    board = Board(WON_7X7)
    for text in ["d5-d4", "d2-d1", "d4-c4", "d1-d2", "c4-d4", "d2-d1", "d4-d5", "d1-d2"]:
        board.push_move(text)
    assert board.repetitions() == 2
    result = _searcher(tables).search(board, Limit(depth=10), multipv=4)
    assert result.infos[0].source == "search"
    assert str(result.move) != "d5-d4" and result.infos[0].score > Score.cp(5000)
    assert [i.score for i in result.infos if str(i.pv[0]) == "d5-d4"] == [Score.cp(0)]


def test_the_tables_are_leaves_of_the_search(tables: Tablebase) -> None:
    """A 7x7 position of four columns: the search finds the 3-column endings in the tables."""
    board = Board("7x7 w 0/0 b4:w2 c3:b4 d5:w6 e4:b4")
    result = _searcher(tables).search(board, Limit(depth=6))
    assert result.infos[0].source == "search" and result.infos[0].tbhits > 0
    assert _searcher().search(board, Limit(depth=6)).infos[0].tbhits == 0
    plain = _searcher(tables)
    plain.use_tablebase(False)
    assert plain.search(board, Limit(depth=6)).infos[0].tbhits == 0


def test_a_table_in_use_cannot_be_closed(tables: Tablebase) -> None:
    searcher = _searcher(tables)
    stop = threading.Event()
    started = threading.Event()

    def heard(info: SearchInfo) -> None:
        started.set()

    worker = threading.Thread(
        target=searcher.search,
        args=(Board("7x7 w 0/0 b4:w2 c3:b4 d5:w6 e4:b4"), Limit(infinite=True)),
        kwargs={"on_info": heard, "stop": stop},
    )
    worker.start()
    try:
        assert started.wait(10)
        with pytest.raises(RuntimeError, match="in use by a search"):
            tables.table("7x7", 2).close()
    finally:
        stop.set()
        worker.join(10)
    assert tables.probe_wdl(Board(WON_7X7)) == 1  # still open


# --- what players see -----------------------------------------------------------------------


def test_analyse_says_who_wins_in_how_many_plies(tables: Tablebase) -> None:
    board = Board(WON_7X7)
    result = _searcher(tables).search(board, Limit(depth=5), multipv=2)
    report = position_report(board, result.infos)
    assert "evaluation: White wins in 47 plies (endgame tables)" in report
    assert " 1.    +win47/tb  d5-d4 " in report and " 2.    +win51/tb  " in report
    black = Board("7x7 b 0/0 d2:b8 d4:w8")
    report = position_report(black, _searcher(tables).search(black, Limit(depth=2)).infos)
    assert "White wins in 46 plies (endgame tables)" in report


def _session(tables: Tablebase) -> tuple[EngineSession, list[str]]:
    out: list[str] = []
    session = EngineSession(out.append, lambda mb: kernel.Searcher(hash_mb=mb, tablebase=tables))
    return session, out


def _go(session: EngineSession, out: list[str], command: str) -> list[str]:
    out.clear()
    session.handle(command)
    assert session._thread is not None
    session._thread.join(30)
    return [line for line in out if line.startswith("info")]


def test_the_protocol_says_the_source_and_the_option_turns_the_tables_off(
    tables: Tablebase,
) -> None:
    session, out = _session(tables)
    session.handle("emergo")
    assert "option name=Tablebases type=check default=true" in out
    session.handle(f'pos pos="{WON_7X7}"')
    infos = _go(session, out, "go depth=4")
    assert len(infos) == 1 and "score=win47" in infos[0] and "source=tablebase" in infos[0]
    assert out[-1] == "done move=d5-d4 ponder=d2-d1"
    session.handle("set-option name=Tablebases value=false")
    infos = _go(session, out, "go depth=4")
    assert len(infos) == 4 and not any("source=" in line for line in infos)
    session.handle("set-option name=Tablebases value=maybe")
    assert out[-1] == "error message=\"option Tablebases takes true or false, not 'maybe'\""


def test_the_protocol_client_reads_the_source(tables: Tablebase) -> None:
    from emergo.engine import _info, _search_info
    from emergo.wire import parse_line

    line = "info depth=1 multipv=1 score=win47 nodes=0 tbhits=83 source=tablebase pv=d5-d4"
    info = _search_info(_info(parse_line(line)[1], Board(WON_7X7)))
    assert info is not None and (info.source, info.tbhits, info.score) == (
        "tablebase",
        83,
        Score.win(47),
    )


def test_the_web_analysis_carries_the_tables_answer(tables: Tablebase) -> None:
    pytest.importorskip("starlette")
    from emergo.server.analysis.engine import info_data, tablebase_data

    board = Board(WON_HEX)
    data = tablebase_data(board)
    assert data is not None
    assert (data["wdl"], data["dtm"], data["text"]) == (1, 41, "White wins in 41 plies")
    assert data["moves"][0] == {
        "move": {
            "kind": "step",
            "path": ["c3", "d3"],
            "text": "c3-d3",
            "checker": "c3-d3",
            "captured": 0,
            "entered": 0,
        },
        "wdl": 1,
        "dtm": 41,
    }
    assert sorted(m["wdl"] for m in data["moves"]) == [0, 0, 0, 0, 0, 1]
    assert tablebase_data(Board()) is None
    info = _searcher(tables).search(board, Limit(depth=2)).infos[0]
    line = info_data(board, info)
    assert line["source"] == "tablebase" and line["tablebase"] == data
    assert line["score"] == "+win41"
    black = Board("7x7 b 0/0 d2:b8 d4:w8")
    assert tablebase_data(black)["text"] == "White wins in 46 plies"  # type: ignore[index]


def test_the_engine_backend_uses_the_default_tables() -> None:
    from emergo.players import backend

    searcher = backend("kernel", hash_mb=4)
    assert isinstance(searcher, kernel.Searcher) and searcher.tablebase is tablebase.default()
    result = searcher.search(Board(WON_9X9), Limit(depth=2))
    assert (result.infos[0].score, result.infos[0].source) == (Score.win(73), "tablebase")
