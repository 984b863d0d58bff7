import { describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config.js';
import { demoBanner } from './demo-banner.js';

describe('demoBanner', () => {
  it('says it is a demo, where the login codes are, and never to use it with patients', () => {
    const banner = demoBanner(loadConfig({}));
    expect(banner.split('\n')).toEqual([
      expect.stringMatching(/^=+$/),
      expect.stringContaining(
        'DEMO MODE: this server is a demonstration. Never use it with real patients',
      ),
      expect.stringContaining(
        'every login code is printed below and shown at http://localhost:3000/api/dev/messages',
      ),
      expect.stringContaining('http://localhost:3000/api/dev/demo-links'),
      expect.stringContaining(
        '/api/dev/* answers this machine only: a direct loopback connection, a loopback Host, no proxy header',
      ),
      expect.stringContaining('sandbox card page; no card is charged'),
      expect.stringContaining('The encryption key was generated into DATA_DIR'),
      expect.stringContaining('To run for real: NODE_ENV=production'),
      expect.stringMatching(/^=+$/),
    ]);
    // A box: every line as wide as the rules.
    expect(new Set(banner.split('\n').map((line) => line.length)).size).toBe(1);
  });

  it('leaves out what does not apply', () => {
    const banner = demoBanner(
      loadConfig({
        DEMO: 'true',
        DATA_KEY: 'ab'.repeat(32),
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: 'https://sms.example.com',
        SMS_HTTP_TOKEN: 't',
        SMS_SENDER: 'Marpe',
        CARD_FRAME_BASE_URL: 'https://direct.tranzila.com',
      }),
    );
    expect(banner).toContain('DEMO MODE');
    expect(banner).not.toMatch(/dev\/messages|sandbox|generated/);
  });
});
