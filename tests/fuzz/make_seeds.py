#!/usr/bin/env python3
"""Regenerates the seed corpora in tests/fuzz/corpus/ from accord-mock's real replies.

    tests/fuzz/make_seeds.py build/mock_server/accord-mock

Decode seeds are one control byte (see decode_fuzzer.cpp) followed by a reply body as the mock
sends it; validate seeds are JSON documents; prettify seeds are raw bytes.
"""
import json
import pathlib
import subprocess
import sys
import urllib.error
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
REFUND = {"orderId": "ORD-482913", "amount": 42.5, "currency": "EUR",
          "orderDate": "2026-11-02", "refundDate": "2026-11-20",
          "note": "Kettle arrived broken.", "sku": "KT-200"}
STATUS_CONTROL = {200: 0x00, 401: 0x08, 429: 0x0B, 500: 0x0C, 529: 0x0E}

# (name, reply, forced tool?, HTTP status)
REPLIES = [
    ("json", {"json": REFUND}, False, 200),
    ("json_invalid", {"json": dict(REFUND, orderId="bad", extra=1)}, False, 200),
    ("forced_tool", {"json": REFUND}, True, 200),
    ("text_broken", {"text": "{\"orderId\": \"ORD-4"}, False, 200),
    ("refusal", {"refusal": "I can't help with that."}, False, 200),
    ("truncated", {"truncated": "{\"orderId\":"}, False, 200),
    ("content_filter", {"content_filter": "partial"}, False, 200),
    ("empty", {"empty": True}, False, 200),
    ("tool_calls", {"tool_calls": [{"name": "lookup", "arguments": "{\"a\":"}]}, False, 200),
    ("nested", {"json": {}, "nest_depth": 300}, False, 200),
    ("nested_tool", {"json": {}, "nest_depth": 300}, True, 200),
    ("invalid_utf8", {"json": REFUND, "invalid_utf8": True}, False, 200),
    ("unauthorized", {"status": 401}, False, 401),
    ("quota", {"status": 429, "error": {"type": "insufficient_quota", "code": "insufficient_quota",
                                        "message": "You exceeded your current quota"}}, False, 429),
    ("server_error", {"status": 500}, False, 500),
    ("overloaded", {"status": 529}, False, 529),
]

ENDPOINTS = {
    "openai_chat": ("/v1/chat/completions",
                    {"type": "function", "function": {"name": "refund"}}),
    "openai_responses": ("/v1/responses", {"type": "function", "name": "refund"}),
    "anthropic": ("/v1/messages", {"type": "tool", "name": "refund"}),
    "gemini": ("/v1/models/m:generateContent",
               {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["refund"]}}),
    "bedrock": ("/model/m/converse", {"toolChoice": {"tool": {"name": "refund"}}}),
    "azure_openai": ("/openai/deployments/m/chat/completions?api-version=2024-10-21",
                     {"type": "function", "function": {"name": "refund"}}),
    # Ollama has no tool choice: a forced-tool seed is its format reply.
    "ollama": ("/api/chat", None),
}
# The profiles that speak another target's wire get its seeds too.
SHARED_WIRE = {"openai_chat": ["generic", "mistral", "llama_cpp", "vllm"],
               "openai_responses": ["azure_openai_responses"]}


def post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json",
                                              "api-key": "fuzz-seed"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        return error.read()


def main():
    mock = sys.argv[1]
    scenario = json.dumps({"replies": [reply for _, reply, _, _ in REPLIES]})
    for target, (path, forced_choice) in ENDPOINTS.items():
        process = subprocess.Popen([mock, "--port", "0", "--scenario-json", scenario],
                                   stdout=subprocess.PIPE, text=True)
        port = int(process.stdout.readline().rsplit(":", 1)[1])
        try:
            for name, _, forced, status in REPLIES:
                body = {"model": "m", "messages": [{"role": "user", "content": "x"}],
                        "input": "x"}
                if forced and forced_choice:
                    body["tools"] = [{"type": "function", "name": "refund"}]
                    body["toolConfig" if target in ("gemini", "bedrock") else "tool_choice"] = forced_choice
                reply = post(port, path, body)
                control = STATUS_CONTROL[status] | (0x10 if forced else 0)
                for out in [target] + SHARED_WIRE.get(target, []):
                    directory = HERE / "corpus" / f"decode_{out}"
                    directory.mkdir(parents=True, exist_ok=True)
                    (directory / name).write_bytes(bytes([control]) + reply)
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
