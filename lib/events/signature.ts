import { createHmac } from 'node:crypto';

/**
 * Webhook signatures: `sha256=<hex>` of HMAC-SHA256(secret, `${timestamp}.${rawBody}`). During a
 * secret rotation the header carries one value per active secret, comma-separated, newest first.
 */
function signPayload(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

export function signatureHeader(secrets: string[], timestamp: string, rawBody: string): string {
  return secrets.map((s) => signPayload(s, timestamp, rawBody)).join(',');
}
