"""Alembic environment of the web app's store: run with the connection Store.open hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine


def run() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is None:  # `alembic -x url=... upgrade head` from a shell
        url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
            "sqlalchemy.url"
        )
        if not url:
            raise SystemExit("give the database as: alembic -x url=sqlite:///path upgrade head")
        with create_engine(url).begin() as conn:
            context.configure(connection=conn, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
    else:
        context.configure(connection=connection, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if hasattr(
    context, "config"
):  # run by Alembic; merely imported (pytest's doctests) it does nothing
    run()
