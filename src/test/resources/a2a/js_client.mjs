// A2A v1.0 client with @a2a-js/sdk 1.3.0. Usage: node client.mjs URL TEXT [--stream] [--token T]
import { randomUUID } from 'node:crypto';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';
const [url, text, ...rest] = process.argv.slice(2);
const stream = rest.includes('--stream');
const ti = rest.indexOf('--token'); const token = ti >= 0 ? rest[ti + 1] : undefined;
const fetchImpl = (input, init = {}) => {
  const h = new Headers(init.headers || {}); if (token) h.set('Authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers: h });
};
const textOf = (m) => (m?.parts || []).filter(p => p.content?.$case === 'text').map(p => p.content.value).join('\n');
try {
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] });
  const client = await factory.createFromUrl(url);
  const params = { message: { messageId: randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }] } };
  let answer;
  if (stream) {
    for await (const ev of client.sendMessageStream(params)) {
      const p = ev.payload; console.error('event:', p?.$case);
      if (p?.$case === 'statusUpdate' && p.value.status?.message) answer = textOf(p.value.status.message);
      if (p?.$case === 'message') answer = textOf(p.value);
    }
  } else {
    const r = await client.sendMessage(params);
    console.error('result keys:', JSON.stringify(Object.keys(r)), r.$case ?? r.payload?.$case ?? '');
    const t = r.payload?.value ?? r;
    answer = t.status ? textOf(t.status.message) : textOf(t);
  }
  console.log(answer); process.exit(0);
} catch (e) { console.error('error:', String(e?.message || e).split('\n')[0]); process.exit(1); }
