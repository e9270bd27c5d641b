"""The fault server's HTTP side: one OpenAI chat-completions route, faults applied per request."""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from fault_model import HELD, Message, prompt_hash

if TYPE_CHECKING:
    from fault_server import FaultServer

RETRY_AFTER_MS = "20"  # honoured by the OpenAI client: its own retries wait 20 ms, not 0.5-8 s


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


class QuietServer(ThreadingHTTPServer):
    """Clients that hang up (a killed eval, a client timeout) are expected here, not errors."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _completion(model: str, text: str, messages: list[Message]) -> dict[str, Any]:
    prompt_tokens = sum(len(m["content"].split()) for m in messages) + 1
    completion_tokens = len(text.split()) + 1
    return {
        "id": f"chatcmpl-{prompt_hash(messages)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def handler_for(server: FaultServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet under pytest
            return

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("content-length", "0"))
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                request = json.loads(raw)
                model = str(request["model"])
                messages = [
                    {"role": str(m.get("role", "")), "content": _text(m.get("content"))}
                    for m in request["messages"]
                ]
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                self._send(400, {"error": {"message": f"bad request: {error}"}})
                return
            if request.get("stream"):
                self._send(400, {"error": {"message": "the fault server does not stream"}})
                return
            kind, faults, over = server._admit(model, self.headers.get("authorization", ""))
            if over:
                self._send(503, {"error": {"message": "fault server request budget spent"}})
                server.stop()
                return
            if kind == HELD:
                server._released.wait(server.lifetime)
                self.close_connection = True
                return
            if kind == "timeout":
                time.sleep(faults.hang_seconds)
                self.close_connection = True
                return
            if faults.latency:
                time.sleep(faults.latency)
            echo = ""
            if faults.echo_auth:
                echo = f"; request had Authorization: {self.headers.get('authorization', '')}"
            if faults.echo_key:  # the key alone, in no header's shape
                echo += f"; key {self.headers.get('authorization', '').removeprefix('Bearer ')}"
            if kind == "http_429":
                message = f"rate limited (injected){echo}"
                self._send(429, {"error": {"message": message}}, retry=True)
                return
            if kind == "http_500":
                message = f"server error (injected){echo}"
                self._send(500, {"error": {"message": message}}, retry=True)
                return
            try:
                text = server.rule(model, messages)
            except Exception as error:  # a broken rule is the test's bug: say so loudly
                with server.lock:
                    server.stats.rule_errors.append(f"{model}: {type(error).__name__}: {error}")
                self._send(500, {"error": {"message": f"rule failed: {error}"}})
                return
            body = json.dumps(_completion(model, text, messages)).encode("utf-8")
            if kind == "truncated":
                self._send_raw(200, body[: len(body) // 2])
            elif kind == "empty":
                self._send_raw(200, b"")
            elif kind == "malformed":
                self._send_raw(200, b"<html>upstream proxy hiccup</html>{")
            elif kind == "no_choices":
                payload = _completion(model, text, messages)
                self._send_raw(200, json.dumps({**payload, "choices": []}).encode("utf-8"))
            else:
                with server.lock:
                    server.stats.answered[(model, prompt_hash(messages))] += 1
                self._send_raw(200, body)

        def _send(self, status: int, payload: dict[str, Any], retry: bool = False) -> None:
            headers = {"retry-after-ms": RETRY_AFTER_MS} if retry else {}
            self._send_raw(status, json.dumps(payload).encode("utf-8"), headers)

        def _send_raw(
            self, status: int, body: bytes, headers: dict[str, str] | None = None
        ) -> None:
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout): nothing to answer

    return Handler
