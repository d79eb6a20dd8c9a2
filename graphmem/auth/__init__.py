"""Who is calling: principals, roles and their capabilities, and hashed API keys."""

from graphmem.auth.errors import Unauthenticated
from graphmem.auth.keys import IssuedKey, KeyInfo, KeyStore
from graphmem.model.principals import Principal, local_admin
from graphmem.model.roles import CAPABILITIES, ROLES, capabilities_for

__all__ = [
    "CAPABILITIES", "ROLES", "IssuedKey", "KeyInfo", "KeyStore", "Principal", "Unauthenticated",
    "capabilities_for", "local_admin",
]
