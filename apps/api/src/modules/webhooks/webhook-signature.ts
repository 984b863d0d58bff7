import { createHmac } from 'node:crypto';

/**
 * The `Marpe-Signature` header of a webhook request, Stripe-style: `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's secret as UTF-8>`. Signing the timestamp
 * with the body lets a receiver refuse a replayed request (docs/integration.md, "Webhooks").
 */
export function webhookSignatureHeader(secret: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}
