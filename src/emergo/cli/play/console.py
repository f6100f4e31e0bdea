"""The terminal of ``emergo play``: lines in and out, colour, a passing status line."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

__all__ = ["Console", "clock_text"]


class Console:
    """Lines in and out.  At a terminal: line editing (readline) and colour (unless NO_COLOR);
    from a pipe: every line read is echoed after its prompt, so the output reads as a session."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.interactive = self.stdin.isatty()
        self.tty = self.out.isatty()
        self.colour = (
            self.tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        )
        self._status = False
        if self.interactive:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (input() then edits lines and keeps a history)

    def say(self, text: str = "") -> None:
        self.clear_status()
        self.out.write(text + "\n")
        self.out.flush()

    def style(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def error(self, text: str) -> None:
        self.say(self.style(text, "31"))

    def status(self, text: str) -> None:
        """A passing line at a terminal (a computer thinking), cleared by the next output."""
        if self.tty:
            self.out.write(self.style(text, "2"))
            self.out.flush()
            self._status = True

    def clear_status(self) -> None:
        if self._status:
            self.out.write("\r\x1b[K")
            self._status = False

    def ask(self, prompt: str) -> str | None:
        """One input line, or ``None`` at the end of input (KeyboardInterrupt passes)."""
        self.clear_status()
        if self.interactive:
            self.out.flush()
            try:
                return input(prompt)
            except EOFError:
                self.say()
                return None
        self.out.write(prompt)
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        text = line.rstrip("\r\n")
        self.say(text)
        return text

    def confirm(self, question: str) -> bool:
        """A yes/no question; anything but y/yes (or the end of input) is no."""
        answer = self.ask(f"{question} [y/N] ")
        return answer is not None and answer.strip().lower() in ("y", "yes")


def clock_text(seconds: float) -> str:
    """``4:58``; tenths under ten seconds (``0:07.3``)."""
    minutes, rest = divmod(max(seconds, 0.0), 60)
    if minutes == 0 and rest < 10:
        return f"0:{rest:04.1f}"
    return f"{int(minutes)}:{int(rest):02d}"
