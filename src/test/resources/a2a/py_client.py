"""A2A v1.0 client using a2a-sdk 1.3.0.

Usage: venv/bin/python py_client.py URL TEXT [--stream] [--token T] [--verbose]
Prints the final answer text on stdout (exit 0); on error one line on stderr, exit 1.
"""
import argparse
import asyncio
import sys
import uuid

import httpx

from a2a.client import AuthInterceptor, ClientConfig, CredentialService, create_client
from a2a.helpers.proto_helpers import get_artifact_text, get_message_text
from a2a.types.a2a_pb2 import Message, Part, Role, SendMessageRequest, TaskState


class StaticToken(CredentialService):
    def __init__(self, token):
        self.token = token

    async def get_credentials(self, security_scheme_name, context):
        return self.token


def task_text(task) -> str:
    if task.status.HasField('message') and task.status.message.parts:
        return get_message_text(task.status.message)
    if task.artifacts:
        return '\n'.join(get_artifact_text(a) for a in task.artifacts)
    return ''


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('url')
    ap.add_argument('text')
    ap.add_argument('--stream', action='store_true')
    ap.add_argument('--token')
    ap.add_argument('--verbose', action='store_true')
    a = ap.parse_args()

    # ClientFactory sets A2A-Version: 1.0 on this client; default httpx timeout is 5 s -> raise it.
    http = httpx.AsyncClient(timeout=httpx.Timeout(300.0))
    interceptors = [AuthInterceptor(StaticToken(a.token))] if a.token else []
    cfg = ClientConfig(streaming=a.stream, httpx_client=http)
    client = await create_client(a.url, client_config=cfg, interceptors=interceptors)
    msg = Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER, parts=[Part(text=a.text)])
    answer, state, artifacts = None, None, []
    try:
        async for ev in client.send_message(SendMessageRequest(message=msg)):
            kind = ev.WhichOneof('payload')
            if a.verbose:
                print('event:', kind, file=sys.stderr)
            if kind == 'message':
                answer = get_message_text(ev.message)
            elif kind == 'task':
                state = ev.task.status.state
                answer = task_text(ev.task) or answer
            elif kind == 'status_update':
                state = ev.status_update.status.state
                if ev.status_update.status.message.parts:
                    answer = get_message_text(ev.status_update.status.message)
            elif kind == 'artifact_update':
                artifacts.append(get_artifact_text(ev.artifact_update.artifact))
    finally:
        await client.close()
        await http.aclose()
    if answer is None and artifacts:
        answer = '\n'.join(artifacts)
    if state is not None and state not in (TaskState.TASK_STATE_COMPLETED,):
        raise RuntimeError(f'task ended in {TaskState.Name(state)}: {answer}')
    if answer is None:
        raise RuntimeError('no answer received')
    print(answer)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(asyncio.run(main()))
    except Exception as e:  # one line on error
        print(f'error: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ""}', file=sys.stderr)
        sys.exit(1)
