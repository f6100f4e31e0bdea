"""The server's infrastructure, below every module: the config, the database (transactions,
migrations, tables), the bus, rate limits, who a request is from (:mod:`~.auth`), the guard
(Host, Origin, headers, body limits), the page frame, the socket and stream plumbing.
"""
