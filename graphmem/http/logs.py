"""Logging for `graphmem serve`: uvicorn's own setup plus the `graphmem` loggers (access
lines, denials, error references) on the same handler."""

from __future__ import annotations

import copy
from typing import Any

from uvicorn.config import LOGGING_CONFIG


def log_config(level: str) -> dict[str, Any]:
    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["graphmem"] = {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}
    config["handlers"]["graphmem"] = {"class": "logging.StreamHandler", "formatter": "graphmem",
                                      "stream": "ext://sys.stderr"}
    config["loggers"]["graphmem"] = {"handlers": ["graphmem"], "level": level,
                                     "propagate": False}
    # The Neo4j driver logs a line for each pooled connection it finds broken: hundreds a
    # second under load while Neo4j is down. graphmem logs an outage of the store itself
    # (graphmem.outage_log), so only what the driver calls critical is kept.
    config["loggers"]["neo4j"] = {"handlers": ["graphmem"], "level": "CRITICAL",
                                  "propagate": False}
    return config
