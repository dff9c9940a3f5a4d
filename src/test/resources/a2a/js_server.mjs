// Minimal A2A v1.0 echo agent with @a2a-js/sdk 1.3.0 (JSON-RPC binding over express).
// Usage: node server.mjs PORT   (env A2A_TOKEN=secret -> require Bearer; ECHO_DELAY=seconds)
import express from 'express';
import { randomUUID } from 'node:crypto';
import { TaskState, Role, AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore, AgentEvent } from '@a2a-js/sdk/server';
import { jsonRpcHandler, agentCardHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const PORT = Number(process.argv[2] || 41241);
const TOKEN = process.env.A2A_TOKEN;
const DELAY = Number(process.env.ECHO_DELAY || 0) * 1000;
const PUBLIC_URL = process.env.A2A_PUBLIC_URL || `http://127.0.0.1:${PORT}/`;

const textPart = (t) => ({ content: { $case: 'text', value: t }, metadata: undefined, filename: '', mediaType: 'text/plain' });

class EchoExecutor {
  cancelled = new Set();
  cancelTask = async (taskId) => { this.cancelled.add(taskId); };
  async execute(ctx, bus) {
    const { userMessage, taskId, contextId } = ctx;
    const text = userMessage.parts.filter(p => p.content?.$case === 'text').map(p => p.content.value).join('\n');
    if (!ctx.task) {
      bus.publish(AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
        artifacts: [], history: [userMessage], metadata: undefined }));
    }
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state: TaskState.TASK_STATE_WORKING, timestamp: new Date().toISOString(), message: undefined }, metadata: undefined }));
    if (DELAY) await new Promise(r => setTimeout(r, DELAY));
    if (this.cancelled.has(taskId)) {
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state: TaskState.TASK_STATE_CANCELED, timestamp: new Date().toISOString(), message: undefined }, metadata: undefined }));
      return;
    }
    const answer = `echo: ${text}`;
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, append: false, lastChunk: true, metadata: undefined,
      artifact: { artifactId: randomUUID(), name: 'answer', description: '', parts: [textPart(answer)], metadata: undefined, extensions: [] } }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, metadata: undefined, status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: new Date().toISOString(),
      message: { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(answer)], metadata: undefined, extensions: [], referenceTaskIds: [] } } }));
  }
}

const card = {
  name: 'Echo Agent (JS)', description: 'Echoes the user text', version: '1.0.0',
  supportedInterfaces: [{ url: PUBLIC_URL, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
  provider: undefined,
  capabilities: { streaming: true, pushNotifications: false, extensions: [] },
  securitySchemes: TOKEN ? { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer', bearerFormat: '', description: '' } } } } : {},
  securityRequirements: TOKEN ? [{ schemes: { bearer: { list: [] } } }] : [],
  defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echo text back', tags: ['echo'], examples: ['hello'], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor());
const app = express();
// NB: agentCardHandler JSON.stringify()s the in-memory (ts-proto) card as is, so oneofs such as securitySchemes would
// leak as {"scheme":{"$case":...}}. Convert to proto-JSON first with AgentCard.toJSON.
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => AgentCard.toJSON(await handler.getAgentCard()) }));
if (TOKEN) {
  app.use('/', (req, res, next) => {
    if (req.method === 'POST' && req.header('authorization') !== `Bearer ${TOKEN}`) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: 'unauthorized' });
      return;
    }
    next();
  });
}
app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.listen(PORT, '127.0.0.1', () => console.log(`echo agent on ${PUBLIC_URL}`));
