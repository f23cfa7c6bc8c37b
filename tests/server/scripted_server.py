"""Run the app in its own process with a scripted reader (for the crash and load tests).

    python -m tests.server.scripted_server --db FILE --port N --script SCRIPT.json

SCRIPT.json maps a decoded image's key (:func:`tests.server.conftest.image_key`) to the faces
the photo shows: ``{"<key>": {"faces": [2, 5, 5, 5, 5, 2]}}``. Everything else is the
production app on a real SQLite file, served by uvicorn over loopback.
"""

from __future__ import annotations

import argparse
import json

import uvicorn

from server.app import create_app
from tests.server.conftest import ScriptedReader, image_key, reading_of


class FileScriptedReader(ScriptedReader):
    def __init__(self, script_path: str) -> None:
        super().__init__("test-model-1")
        self.path = script_path

    def read(self, image):
        with open(self.path) as f:
            entry = json.load(f)[image_key(image)]
        return reading_of(entry["faces"])


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--db", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--script", required=True)
    args = p.parse_args()
    app = create_app(args.db, reader=FileScriptedReader(args.script))
    print(f"serving on http://127.0.0.1:{args.port}/", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
