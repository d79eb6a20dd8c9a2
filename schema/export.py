"""`python -m graphmem.schema.export`: write the SDL to schema/schema.graphql (or check it)."""

from __future__ import annotations

import sys

from graphmem.schema import SDL_PATH, sdl


def main(argv: list[str]) -> int:
    text = sdl()
    if "--check" in argv:
        current = SDL_PATH.read_text() if SDL_PATH.exists() else ""
        if current != text:
            print(f"{SDL_PATH} is out of date: run `python -m graphmem.schema.export`")
            return 1
        print(f"{SDL_PATH} is current")
        return 0
    SDL_PATH.write_text(text)
    print(f"wrote {SDL_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
