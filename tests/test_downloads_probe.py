"""Issue 42, left from round 4: an endless mirror stream is cut off (E12), and a cache that
cannot be written is reported as such, not as a file "not found" (E13)."""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import pytest

from hclib.downloads import transfer
from hclib.downloads.fetch import data_file
from hclib.downloads.registry import REGISTRY, CacheWriteError

FEDERALIST = Path("/work/shared/data/federalist/pg1404.txt")


class _Endless(http.server.BaseHTTPRequestHandler):
    """Answers every GET with an endless stream of zeros (no Content-Length)."""

    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        self.send_response(200)
        self.end_headers()
        block = b"\0" * 65536
        try:
            while True:
                self.wfile.write(block)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def endless():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Endless)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_endless_stream_is_cut_off_at_the_limit(endless, monkeypatch, tmp_path):
    with pytest.raises(transfer.DownloadTooLargeError, match="larger than 1,048,576 bytes"):
        transfer.download_bytes(f"{endless}/any.txt", max_bytes=2**20)
    # through data_file and $HCLIB_SOURCE_MIRROR, with the module's limit lowered
    monkeypatch.setattr(transfer, "MAX_DOWNLOAD_BYTES", 2**21)
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", endless)
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(transfer.DownloadTooLargeError, match="larger than 2,097,152"):
        data_file("federalist/pg1404.txt")
    assert not (tmp_path / "cache" / "federalist" / "pg1404.txt").exists()


@pytest.mark.skipif(not FEDERALIST.is_file(), reason="needs the project's Federalist copy")
def test_a_cache_that_cannot_be_written_is_not_reported_as_not_found(monkeypatch, tmp_path):
    url = REGISTRY["federalist/pg1404.txt"][0]
    mirror = tmp_path / "mirror"
    copy = mirror / url.removeprefix("https://")
    copy.parent.mkdir(parents=True)
    copy.write_bytes(FEDERALIST.read_bytes())
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache's folder should be")
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", mirror.as_uri())
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(blocker / "cache"))
    with pytest.raises(CacheWriteError, match="cannot write") as caught:
        data_file("federalist/pg1404.txt")
    assert "not found" not in str(caught.value)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))  # and it works when it can
    assert data_file("federalist/pg1404.txt").read_bytes() == FEDERALIST.read_bytes()
