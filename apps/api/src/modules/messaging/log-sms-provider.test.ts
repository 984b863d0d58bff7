import { describe, expect, it } from 'vitest';
import { otpMessage } from '../../platform/one-time-code.js';
import { createDevMessageLog, createLogSmsProvider, demoMessageBox } from './log-sms-provider.js';

const body = otpMessage({
  code: '482913',
  clinicName: 'מרפאת שיניים לב העיר',
  host: 'localhost',
  validMinutes: 5,
});

describe('the demo SMS provider', () => {
  it('prints a login code boxed, on its own line at the top, and records the message', async () => {
    const printed: string[] = [];
    const messages = createDevMessageLog();
    const provider = createLogSmsProvider({
      messages,
      clock: () => Date.parse('2027-03-21T09:00:00Z'),
      print: (text) => printed.push(text),
    });
    await provider.send({ to: '0501234567', body });

    const lines = (printed[0] ?? '').split('\n');
    expect(lines[0]).toMatch(/^╔═+$/);
    expect(lines[1]).toBe('║ SMS to 0501234567 (demo: not sent; also at GET /api/dev/messages)');
    expect(lines[2]).toBe('║ LOGIN CODE: 482913');
    expect(lines).toContain('║ @localhost #482913');
    expect(lines.at(-1)).toMatch(/^╚═+$/);
    expect(messages.list()).toEqual([
      { to: '0501234567', body, channel: 'sms', created_at: '2027-03-21T09:00:00.000Z' },
    ]);
  });

  it('colours the code on a terminal; a message without a code has no code line', () => {
    expect(demoMessageBox({ channel: 'SMS', to: '0501234567', body }, true)).toContain(
      '║ \x1b[1;33mLOGIN CODE: 482913\x1b[0m',
    );
    const reminder = demoMessageBox({ channel: 'SMS', to: '0501234567', body: 'תזכורת' }, true);
    expect(reminder).not.toContain('CODE');
    expect(reminder).not.toContain('\x1b');
  });
});
