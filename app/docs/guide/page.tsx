import type { Metadata } from 'next';
import Link from 'next/link';
import { CopyButton } from '@/components/docs/CopyButton';

export const metadata: Metadata = { title: 'Guide · Convene' };

/** A code block with a Copy button; long lines wrap (a wrapped line is indented) rather than hide. */
const Code = ({ children }: { children: string }) => (
  <div className="relative my-3">
    <pre className="overflow-x-auto whitespace-pre-wrap rounded bg-slate-900 p-4 pr-16 text-sm leading-relaxed text-slate-100 [overflow-wrap:anywhere]">
      <code>{children.trim()}</code>
    </pre>
    <CopyButton text={children.trim()} />
  </div>
);

/** The guide's sections, in order: the contents list and the headings both come from here. */
const SECTIONS = {
  sdk: 'Install the SDK',
  flow: 'Create a room, join at click time, redirect',
  e2ee: 'End-to-end encryption',
  waiting: 'The waiting room',
  webhooks: 'Verify webhooks',
  rotation: 'Rotate keys without downtime',
  'test-mode': 'Test mode',
  embedding: 'Embedding the call UI',
  errors: 'Errors, retries and limits',
} as const;
type Section = keyof typeof SECTIONS;
const ORDER = Object.keys(SECTIONS) as Section[];

const H2 = ({ id }: { id: Section }) => (
  <h2 id={id} className="mt-10 scroll-mt-4 text-xl font-semibold">
    {ORDER.indexOf(id) + 1}. {SECTIONS[id]}
  </h2>
);

/** The integration guide: the typical flow and the rules an integrator meets first. */
export default function GuidePage() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12 leading-7 sm:px-6 [&_p_code]:[overflow-wrap:anywhere]">
      <h1 className="text-3xl font-semibold">Integrating Convene</h1>
      <p className="mt-4">
        Your backend holds a tenant API key (<code>x-api-key: cv_live_…</code>, or <code>cv_test_…</code> in a sandbox).
        Browsers only ever hold a short-lived participant token. The full reference is at{' '}
        <Link className="text-blue-700 underline" href="/docs">
          /docs
        </Link>
        .
      </p>
      <nav aria-labelledby="contents" className="mt-6 rounded-lg border border-slate-300 p-4 dark:border-slate-700">
        <h2 id="contents" className="text-base font-semibold">
          Contents
        </h2>
        <ol className="mt-2 list-decimal space-y-1 pl-6">
          {ORDER.map((id) => (
            <li key={id}>
              <a className="text-blue-700 underline dark:text-sky-300" href={`#${id}`}>
                {SECTIONS[id]}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <H2 id="sdk" />
      <p>
        <code>@convene/sdk</code> (in the repository&apos;s <code>sdk/</code>; <code>npm pack ./sdk</code> makes the
        tarball) is a client typed from the API reference, with one error class (<code>ConveneError</code>:{' '}
        <code>code</code>, <code>status</code>, <code>requestId</code>, <code>details</code>), an{' '}
        <code>Idempotency-Key</code> on every POST reused across its retries, 429/503 retried after{' '}
        <code>Retry-After</code>, and <code>verifyWebhook</code>. It runs on Node 20+ and edge runtimes. Plain HTTP
        works just as well: every call below is one request of the reference.
      </p>
      <Code>{`
npm install @convene/sdk

import { Convene } from '@convene/sdk';
const convene = new Convene({ baseUrl: process.env.CONVENE_URL, apiKey: process.env.CONVENE_API_KEY });
`}</Code>

      <H2 id="flow" />
      <p>
        Create the room once and store its <code>id</code> — it is the durable handle; never store a join URL.
      </p>
      <Code>{`
const room = await convene.rooms.create({ name: 'Weekly review', createdByExternalId: 'user_42' });
// or: curl -X POST $CONVENE/api/v1/rooms -H "x-api-key: $KEY" -H 'content-type: application/json' \\
//       -d '{"name":"Weekly review","createdByExternalId":"user_42"}'
`}</Code>
      <p>
        When a user clicks “join”, ask for their token and redirect them to the returned <code>joinUrl</code>:
      </p>
      <Code>{`
const joined = await convene.rooms.join(roomId, { externalUserId: user.id, displayName: user.name, role: 'ATTENDEE' });
return redirect(joined.waitingForApproval ? joined.admissionUrl : joined.joinUrl);
`}</Code>
      <p>
        Roles: <code>HOST</code>, <code>MODERATOR</code>, <code>ATTENDEE</code> (default), <code>VIEWER</code>. A locked
        room answers 423 <code>ROOM_LOCKED</code>, a full one 409 <code>ROOM_FULL</code>; hosts and moderators bypass
        the lock and the waiting room. Tokens last 6 hours unless you pass <code>ttlSeconds</code>.
      </p>

      <H2 id="e2ee" />
      <p>
        For a room created with <code>enableE2EE: true</code>, append the room key to the join URL as a fragment:{' '}
        <code>{'${joinUrl}#${key}'}</code>. The fragment never reaches any server; the call UI reads it and removes it
        from the address bar. Without it the UI refuses to join.
      </p>

      <H2 id="waiting" />
      <p>
        In a room with <code>enableWaitingRoom</code>, attendees and viewers get <code>token: null</code>,{' '}
        <code>waitingForApproval: true</code> and an <code>admissionUrl</code>: send them there, and they continue into
        the call once admitted. You are told with a <code>participant.waiting</code> webhook (first park only), and a
        host admits or refuses:
      </p>
      <Code>{`
await convene.rooms.participants.approve(roomId, participantId, { actingExternalUserId: 'host_1' });
await convene.rooms.participants.deny(roomId, participantId, { actingExternalUserId: 'host_1' });
const { status, joinUrl } = await convene.rooms.participants.admission(roomId, participantId);

POST /api/v1/rooms/{roomId}/participants/{participantId}/approve   {"actingExternalUserId":"host_1"}
POST /api/v1/rooms/{roomId}/participants/{participantId}/deny      {"actingExternalUserId":"host_1"}
GET  /api/v1/rooms/{roomId}/participants/{participantId}/admission  → {status, token, joinUrl}
`}</Code>

      <H2 id="webhooks" />
      <p>
        Set your endpoint with <code>PATCH /api/v1/tenant/webhook</code>. Each delivery is signed:{' '}
        <code>x-webhook-signature: sha256=…</code> over <code>{'`${x-webhook-timestamp}.${rawBody}`'}</code>; during a
        secret rotation the header carries two comma-separated signatures. Retries (up to 6, 5 s·2ⁿ apart) and replays
        keep the same <code>x-webhook-id</code>: dedupe on it.
      </p>
      <Code>{`
import { verifyWebhook, WebhookVerificationError } from '@convene/sdk';

export async function POST(req: Request) {            // Next.js route handler (edge runtime too)
  try {
    const event = await verifyWebhook(await req.text(), req.headers, [SECRET, PREVIOUS_SECRET]);
    if (await seen(event.id)) return new Response('duplicate');   // dedupe on the event id
    if (event.event === 'room.finished') await bill(event.data.roomId, event.data.duration);
    return new Response('ok');
  } catch (err) {
    if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
    throw err;
  }
}
`}</Code>
      <p>Without the SDK (Node):</p>
      <Code>{`
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verify(secret: string, headers: Headers, rawBody: string, toleranceSeconds = 900) {
  const ts = headers.get('x-webhook-timestamp') ?? '';
  if (Math.abs(Date.now() - Date.parse(ts)) > toleranceSeconds * 1000) return false;
  const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(\`\${ts}.\${rawBody}\`).digest('hex'));
  return (headers.get('x-webhook-signature') ?? '').split(',')
    .some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected));
}
`}</Code>
      <p>
        Send yourself a signed test event with <code>POST /api/v1/webhooks/test</code>; every attempt (request,
        response, timing) is in <code>GET /api/v1/webhooks/deliveries</code>, and any delivery can be replayed.
      </p>

      <H2 id="rotation" />
      <Code>{`
const { plainTextKey, previousKey } = await convene.tenant.keys.rotate({ gracePeriodSeconds: 3600 });

POST /api/v1/tenant/keys/rotate   {"gracePeriodSeconds": 3600}
→ {"plainTextKey":"cv_live_…","apiKey":{…},"previousKey":{"status":"expiring","expiresAt":"…"}}
`}</Code>
      <p>
        The new key keeps the old one’s permissions; the old key works until <code>expiresAt</code> (0–7 days; 0 revokes
        at once). Webhook secrets rotate the same way (<code>POST /api/v1/tenant/webhook-secret/rotate</code>, both
        secrets sign during the overlap).
      </p>

      <H2 id="test-mode" />
      <p>
        A sandbox tenant has <code>cv_test_</code> keys. Rooms, tokens, the call UI, webhooks, the test endpoint and the
        delivery log behave exactly as in live mode; billable media (recording, streaming, captions, transcripts)
        answers 403 <code>TEST_MODE_MEDIA_DISABLED</code>. Test keys never see live data and vice versa.
      </p>

      <H2 id="embedding" />
      <p>
        The hosted call UI at <code>/join</code> is the only page that may be framed; every other page sends{' '}
        <code>frame-ancestors &apos;none&apos;</code>. Grant camera, microphone and screen capture to the frame:
      </p>
      <Code>{`
<iframe src="{joinUrl}" allow="camera; microphone; display-capture; autoplay; clipboard-write; fullscreen"
        style="width:100%;height:100%;border:0"></iframe>
`}</Code>
      <p>
        Or let <code>/embed.js</code> mount it and talk to the call through <code>postMessage</code> (your origin must
        be in the tenant&apos;s <code>frameAncestors</code>; events go only there, commands come only from there):
      </p>
      <Code>{`
<script src="${'${CONVENE}'}/embed.js"></script>
const call = ConveneEmbed.mount(document.getElementById('meeting'), { url: joinUrl });
call.on('joined', ({ participantCount }) => ...);
call.on('left', ({ reason }) => ...);          // left | removed | ended | refused
call.on('error', ({ code }) => ...);           // expiredToken, locked, roomFull, ...
call.toggleMicrophone(); call.toggleCamera(); call.leave();
`}</Code>
      <p>
        Brand the call UI with <code>PATCH /api/v1/tenant/branding</code> (logo, product name, accent and background
        colours, default language) and pick a language per participant with <code>lang</code> (<code>en</code>,{' '}
        <code>de</code>, <code>es</code>, <code>fr</code>) on the join.
      </p>

      <H2 id="errors" />
      <p>
        Every error is <code>{'{"error":{"code","message","details"?,"requestId"}}'}</code>. Send an{' '}
        <code>Idempotency-Key</code> on POSTs and retry safely; the first answer is replayed for 24 h. Each key has a
        per-second budget (<code>x-ratelimit-*</code> headers; 429 with <code>Retry-After</code>). The SDK does all of
        this for you: it sends a key per POST, retries 429 and 503 after <code>Retry-After</code>, and throws{' '}
        <code>ConveneError</code> — also for a network failure or a proxy&apos;s HTML error page.
      </p>
    </main>
  );
}
