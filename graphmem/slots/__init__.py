"""Declared slots: canonical subject names, aliases and the packaged presets."""

from graphmem.model import SlotSpec
from graphmem.slots.declarations import PRESET_PREFIX, PRESETS, SlotSchema, load_slot_schema
from graphmem.slots.names import MAX_SUBJECT_LENGTH, fold_key, normalise_subject

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
