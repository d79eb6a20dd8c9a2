"""Declared slots: canonical subject names, aliases and the packaged presets (seed 000)."""

from graphmem.model import SlotSpec
from graphmem.slots.declarations import (
    MAX_SUBJECT_LENGTH,
    PRESET_PREFIX,
    PRESETS,
    SlotSchema,
    fold_key,
    load_slot_schema,
    normalise_subject,
)

__all__ = [
    "MAX_SUBJECT_LENGTH",
    "PRESETS",
    "PRESET_PREFIX",
    "SlotSchema",
    "SlotSpec",
    "fold_key",
    "load_slot_schema",
    "normalise_subject",
]
