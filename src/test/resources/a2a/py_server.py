"""Minimal A2A v1.0 echo agent using a2a-sdk 1.3.0 (JSON-RPC binding).

Usage: venv/bin/python py_server.py PORT
Env: A2A_TOKEN=secret -> require 'Authorization: Bearer secret' (card advertises http bearer scheme)
     A2A_PUBLIC_URL -> interface URL put in the card; ECHO_DELAY=seconds -> sleep while 'working'
"""
import asyncio
import os
import sys

import uvicorn
from starlette.applications import Starlette
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import JSONResponse

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import (
    AgentCapabilities, AgentCard, AgentInterface, AgentSkill, HTTPAuthSecurityScheme,
    SecurityRequirement, SecurityScheme, StringList, TaskState,
)

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 9999
TOKEN = os.environ.get('A2A_TOKEN')
DELAY = float(os.environ.get('ECHO_DELAY', '0'))
PUBLIC_URL = os.environ.get('A2A_PUBLIC_URL', f'http://127.0.0.1:{PORT}/')  # URL advertised in the card


class EchoExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue) -> None:
        text = context.get_user_input()
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)
        await up.start_work()
        if DELAY:
            await asyncio.sleep(DELAY)
        answer = f'echo: {text}'
        await up.add_artifact([new_text_part(answer)], name='answer')
        await up.complete(up.new_agent_message([new_text_part(answer)]))

    async def cancel(self, context: RequestContext, event_queue) -> None:
        up = TaskUpdater(event_queue, context.task_id, context.context_id)
        await up.cancel()


def build_card() -> AgentCard:
    card = AgentCard(
        name='Echo Agent',
        description='Echoes the user text',
        version='1.0.0',
        supported_interfaces=[AgentInterface(
            url=PUBLIC_URL, protocol_binding='JSONRPC', protocol_version='1.0')],
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='echo', name='Echo', description='Echo text back', tags=['echo'],
                           examples=['hello'])],
    )
    if TOKEN:
        card.security_schemes['bearer'].CopyFrom(SecurityScheme(
            http_auth_security_scheme=HTTPAuthSecurityScheme(scheme='Bearer')))
        req = SecurityRequirement()
        req.schemes['bearer'].CopyFrom(StringList())
        card.security_requirements.append(req)
    return card


def build_app() -> Starlette:
    card = build_card()
    handler = DefaultRequestHandler(agent_executor=EchoExecutor(),
                                    task_store=InMemoryTaskStore(), agent_card=card)
    routes = create_agent_card_routes(card) + create_jsonrpc_routes(handler, rpc_url='/')
    app = Starlette(routes=routes)

    if TOKEN:
        async def bearer(request, call_next):
            if request.url.path != '/.well-known/agent-card.json' and \
                    request.headers.get('authorization') != f'Bearer {TOKEN}':
                return JSONResponse({'error': 'unauthorized'}, status_code=401,
                                    headers={'WWW-Authenticate': 'Bearer'})
            return await call_next(request)
        app.add_middleware(BaseHTTPMiddleware, dispatch=bearer)
    return app


if __name__ == '__main__':
    uvicorn.run(build_app(), host='127.0.0.1', port=PORT, log_level='warning')
