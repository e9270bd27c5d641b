"""OpenReview venues as research-taste sets (``research-taste openreview build``; issue 36).

``client`` (API v2 over HTTP: paced, retried, cached), ``forms`` (reading notes and review
forms), ``venue`` (paging and screening submissions), ``pdf_text`` (pypdf), ``builder`` and
``write`` (the folder). See ``docs/openreview.md``.
"""
