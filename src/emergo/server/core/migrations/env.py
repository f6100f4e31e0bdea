"""Alembic environment of the online site: run on the connection Database.migrate hands over."""

from __future__ import annotations

from alembic import context

VERSION_TABLE = "online_schema"  # emergo.server.core.db.VERSION_TABLE


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise SystemExit("run the online site's migrations with `emergo admin migrate --db ...`")
    context.configure(
        connection=connection,
        render_as_batch=True,
        version_table=VERSION_TABLE,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic; merely imported it does nothing
    run()
