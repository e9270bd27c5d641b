"""A submission's text from its PDF, with pypdf (pure Python, BSD licence).

One string per page (``PageObject.extract_text``). A file pypdf cannot read (truncated,
encrypted, not a PDF) or with no extractable text (a scanned paper) is an
:class:`UnreadablePdf` with its reason; the builder drops that paper from the PaperWeakness
set and counts it.
"""

from __future__ import annotations

import io
import logging


class UnreadablePdf(Exception):
    """The PDF gave no text; ``reason`` is the report's drop reason."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def pdf_pages(data: bytes) -> list[str]:
    """The text of every page (whitespace kept as pypdf gives it).

    Raises:
        UnreadablePdf: ``pdf_unparseable`` or ``pdf_no_text``.
    """
    from pypdf import PdfReader

    # pypdf logs (and warns about) recoverable damage on every odd file: the outcome is counted.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
    except Exception as error:  # pypdf raises many kinds on damaged files; all mean "no text"
        raise UnreadablePdf("pdf_unparseable", f"{type(error).__name__}: {error}") from error
    if not any(page.strip() for page in pages):
        raise UnreadablePdf("pdf_no_text", f"{len(pages)} pages without extractable text")
    return pages
