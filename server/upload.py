"""Reading a photo upload with a hard size limit, counted while the body streams in.

A photo comes either as the raw body (``Content-Type: image/jpeg`` or ``image/png``) or as the
file part of a ``multipart/form-data`` form. Either way the bytes are counted as they arrive, and
the upload is refused (413) the moment it passes :data:`MAX_UPLOAD_BYTES`, without reading the
rest. A ``Content-Length`` above the limit is refused before a byte is read.
"""

from __future__ import annotations

from fastapi import Request
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from server.errors import ApiError, TooLarge, UnsupportedMedia

MAX_UPLOAD_BYTES = 15 * 1024 * 1024
#: room for the multipart framing around the file
_FORM_OVERHEAD = 64 * 1024

RAW_TYPES = ("image/jpeg", "image/png", "image/jpg", "application/octet-stream")

#: the OpenAPI request body of the photo routes
PHOTO_BODY = {
    "requestBody": {
        "required": True,
        "description": "a JPEG or PNG photo of the throw, at most 15 MB and 50 megapixels",
        "content": {
            "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
            "image/png": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {"photo": {"type": "string", "format": "binary"}},
                    "required": ["photo"],
                }
            },
        },
    }
}


def _too_large(limit: int) -> TooLarge:
    return TooLarge(f"the photo is larger than {limit // (1024 * 1024)} MB")


async def read_photo(request: Request, limit: int = MAX_UPLOAD_BYTES) -> bytes:
    """The uploaded photo's bytes; :class:`TooLarge` / :class:`UnsupportedMedia` otherwise."""
    ctype, params = parse_options_header(request.headers.get("content-type", ""))
    ctype_s = ctype.decode("latin-1").lower()
    is_form = ctype_s == "multipart/form-data"
    if not is_form and ctype_s not in RAW_TYPES:
        raise UnsupportedMedia(
            "send the photo as image/jpeg, image/png or a multipart form with a 'photo' file"
        )
    allowed = limit + (_FORM_OVERHEAD if is_form else 0)
    length = request.headers.get("content-length")
    if length is not None:
        try:
            if int(length) > allowed:
                raise _too_large(limit)
        except ValueError:
            raise ApiError("the Content-Length header is not a number") from None
    if not is_form:
        return await _read_limited(request, allowed, limit, sink=None)
    boundary = params.get(b"boundary")
    if not boundary:
        raise ApiError("the multipart form has no boundary")
    form = _FilePart()
    parser = MultipartParser(boundary, form.callbacks())
    try:
        await _read_limited(request, allowed, limit, sink=parser.write)
        parser.finalize()
    except MultipartParseError:
        raise ApiError("the multipart form is malformed", status=422) from None
    if form.data is None:
        raise ApiError("the form has no 'photo' file")
    if len(form.data) > limit:
        raise _too_large(limit)
    return bytes(form.data)


async def _read_limited(request: Request, allowed: int, limit: int, sink) -> bytes:
    received = 0
    chunks: list[bytes] = []
    async for chunk in request.stream():
        received += len(chunk)
        if received > allowed:
            raise _too_large(limit)
        if sink is None:
            chunks.append(chunk)
        else:
            sink(chunk)
    return b"".join(chunks)


class _FilePart:
    """Collects the first file part of a form (the field ``photo``, or any file)."""

    def __init__(self) -> None:
        self.data: bytearray | None = None
        self._field = b""
        self._value = b""
        self._headers: dict[bytes, bytes] = {}
        self._current: bytearray | None = None
        self._done = False

    def callbacks(self) -> dict:
        return {
            "on_part_begin": self._begin,
            "on_header_field": self._header_field,
            "on_header_value": self._header_value,
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_finished,
            "on_part_data": self._part_data,
            "on_part_end": self._part_end,
        }

    def _begin(self) -> None:
        self._headers = {}
        self._current = None

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._field += data[start:end]

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self._value += data[start:end]

    def _header_end(self) -> None:
        self._headers[self._field.lower()] = self._value
        self._field, self._value = b"", b""

    def _headers_finished(self) -> None:
        _, disp = parse_options_header(self._headers.get(b"content-disposition", b""))
        is_file = b"filename" in disp or disp.get(b"name") == b"photo"
        if is_file and not self._done:
            self._current = bytearray()

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if self._current is not None:
            self._current += data[start:end]

    def _part_end(self) -> None:
        if self._current is not None and not self._done:
            self.data = self._current
            self._done = True
        self._current = None
