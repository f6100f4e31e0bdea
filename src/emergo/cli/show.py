"""``emergo show``: draw a position in the terminal, or as an SVG picture."""

from __future__ import annotations

import argparse

from emergo.cli.common import (
    EXIT_OK,
    add_common,
    add_force,
    check_output,
    play_texts,
    render,
    start_or,
    view_names,
    write_svg,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("show", help="draw a position in the terminal or as SVG")
    p.add_argument("position", nargs="*", metavar="POSITION", help="default: the start")
    p.add_argument("--moves", help="moves to play from the position first, e.g. 'd4 e6'")
    p.add_argument(
        "--svg",
        metavar="FILE",
        help="also write an SVG picture ('-': standard output only; a file that exists is "
        "kept unless --force)",
    )
    add_force(p)
    add_common(p, view=True)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = view_names(args)
    check_output(args.svg, args.force, "--svg")
    board = start_or(args.position, args.variant)
    if args.moves:
        play_texts(board, args.moves.split(), names)
    if args.svg:
        write_svg(board, args.svg, view=args.view, names=names)
        if args.svg == "-":
            return EXIT_OK
    print(render(board, view=args.view, names=names, ascii_only=args.ascii))
    return EXIT_OK
