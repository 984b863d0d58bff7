import type { Config } from '../platform/config.js';

/**
 * Printed at start-up in demo mode, before anything else the server says: whoever runs it must
 * not mistake it for a real server, because its login codes are open to anyone who can reach it.
 */
export function demoBanner(
  config: Pick<Config, 'publicOrigin' | 'sms' | 'dataKey' | 'cardFrameBaseUrl'>,
): string {
  const origin = config.publicOrigin;
  const lines = [
    'DEMO MODE: this server is a demonstration. Never use it with real patients or real data.',
  ];
  if (config.sms.provider === 'log') {
    lines.push(
      `No SMS is sent: every login code is printed below and shown at ${origin}/api/dev/messages`,
    );
  }
  lines.push(
    `Fresh intake-form and payment links: POST ${origin}/api/dev/demo-links (XSRF cookie + header: README)`,
  );
  // A reverse proxy would otherwise publish the codes (dev-routes.ts).
  lines.push(
    '/api/dev/* answers this machine only: a direct loopback connection, a loopback Host, no proxy header.',
  );
  if (config.cardFrameBaseUrl === `${origin}/api/sandbox`) {
    lines.push('Payments go to a built-in sandbox card page; no card is charged.');
  }
  if (!config.dataKey) lines.push('The encryption key was generated into DATA_DIR (no DATA_KEY).');
  lines.push(
    'To run for real: NODE_ENV=production with DATA_KEY and the SMS gateway (docs/operations.md).',
  );
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '='.repeat(width + 4);
  return [rule, ...lines.map((line) => `| ${line.padEnd(width)} |`), rule].join('\n');
}
